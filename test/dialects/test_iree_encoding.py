"""Unit tests for the iree_encoding builders and the EncodingAttr queries passes rely on."""

from __future__ import annotations

import pytest
from xdsl.dialects.builtin import (
    DYNAMIC_INDEX,
    AffineMapAttr,
    ArrayAttr,
    IndexType,
    IntAttr,
    IntegerAttr,
    IntegerType,
    NoneAttr,
    TensorType,
    f32,
    i8,
)
from xdsl.ir.affine import AffineMap
from xdsl.utils.exceptions import VerifyException
from xdsl.utils.test_value import create_ssa_value

from mini_iree.dialects.iree_encoding import (
    MATMUL_LHS,
    MATMUL_RESULT,
    EncodingAttr,
    EncodingOpType,
    IdentityResolverAttr,
    LayoutAttr,
    PackedStorageAttr,
    PaddingAttr,
    SetEncodingOp,
    SpecializedAttr,
    TestingAttr as EncodingTestingAttr,  # not collected as a test class
    UnknownAttr,
    UnsetEncodingOp,
    compose_map_chain,
    get_encoding_attr,
    is_serializable_encoding,
)

i4 = IntegerType(4)

# (m, n, k) loops of a matmul.
LHS = AffineMap.from_callable(lambda m, n, k: (m, k))
RHS = AffineMap.from_callable(lambda m, n, k: (k, n))
RES = AffineMap.from_callable(lambda m, n, k: (m, n))
BCAST = AffineMap.from_callable(lambda m, n: (n,))  # a bias indexed by N only


def matmul_encoding(operand_index: int, iteration_sizes: list[int] | None = None) -> EncodingAttr:
    return EncodingAttr(operand_index, EncodingOpType.MATMUL, [f32, f32, f32], [LHS, RHS, RES], iteration_sizes)


def test_builder_fills_defaults():
    enc = matmul_encoding(MATMUL_LHS, [DYNAMIC_INDEX, 512, 256])
    assert enc.operand_index == IntegerAttr(0, IndexType())
    assert enc.get_op_type() == EncodingOpType.MATMUL
    assert enc.get_element_types() == [f32, f32, f32]
    assert enc.get_iteration_sizes() == [DYNAMIC_INDEX, 512, 256]
    assert enc.get_round_dims_to() == []
    assert str(enc) == (
        "#iree_encoding.encoding<operand_index = 0 : index, op_type = matmul, element_types = [f32, f32, f32], "
        "user_indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d2, d1)>, "
        "affine_map<(d0, d1, d2) -> (d0, d1)>], iteration_sizes = [?, 512, 256]>"
    )


def test_builder_optional_parameters():
    enc = EncodingAttr(
        1, EncodingOpType.SCALED_MATMUL, [i8, i8, f32], original_element_type=i4, round_dims_to=[32, 32, 32]
    )
    assert enc.get_map_for_operand_index() is None
    assert enc.get_root_maps() == []
    assert enc.get_round_dims_to() == [32, 32, 32]
    assert enc.num_dynamic_encoding_dims() == 0


def test_builder_runs_the_verifier():
    with pytest.raises(VerifyException, match="exceeds the size of `user_indexing_maps`"):
        EncodingAttr(3, EncodingOpType.MATMUL, [f32, f32, f32], [LHS, RHS, RES])
    with pytest.raises(VerifyException, match="found an encoding with 2 iteration sizes, but expected 3"):
        matmul_encoding(MATMUL_LHS, [4, 4])


def test_num_dynamic_encoding_dims():
    assert matmul_encoding(MATMUL_LHS).num_dynamic_encoding_dims() == 0
    assert matmul_encoding(MATMUL_LHS, [DYNAMIC_INDEX] * 3).num_dynamic_encoding_dims() == 3
    assert matmul_encoding(MATMUL_LHS, [DYNAMIC_INDEX, 1, DYNAMIC_INDEX]).num_dynamic_encoding_dims() == 2


def test_map_for_operand_index_composes_the_chain():
    enc = EncodingAttr(MATMUL_RESULT, EncodingOpType.MATMUL, [f32, f32, f32], [LHS, RHS, [RES, BCAST]])
    # (m, n, k) -> (m, n), then (m, n) -> (n): the bias is indexed by loop n.
    assert enc.get_map_for_operand_index() == AffineMap.from_callable(lambda m, n, k: (n,))
    assert enc.get_root_maps() == [LHS, RHS, RES]
    assert enc.get_last_map_for_operand_index() == BCAST
    assert enc.map_dim_to_operand_index(1) == 0
    assert enc.map_dim_to_operand_index(0) is None


def test_map_dim_to_operand_index():
    enc = matmul_encoding(1)  # RHS: (k, n)
    assert enc.map_dim_to_operand_index(2) == 0
    assert enc.map_dim_to_operand_index(1) == 1
    assert enc.map_dim_to_operand_index(0) is None


def test_clone_with_new_operand_indexing_map():
    enc = matmul_encoding(MATMUL_RESULT, [DYNAMIC_INDEX] * 3)
    chained = enc.clone_with_new_operand_indexing_map(BCAST)
    assert chained.user_indexing_maps == ArrayAttr(
        [AffineMapAttr(LHS), AffineMapAttr(RHS), ArrayAttr([AffineMapAttr(RES), AffineMapAttr(BCAST)])]
    )
    assert chained.iteration_sizes == enc.iteration_sizes
    assert chained.get_last_map_for_operand_index() == BCAST


def test_compose_map_chain_rejects_non_maps():
    assert compose_map_chain(ArrayAttr([])) is None
    with pytest.raises(ValueError):
        compose_map_chain(IntegerAttr(1, IndexType()))
    with pytest.raises(ValueError):  # BCAST has one result, but BCAST takes two dims
        compose_map_chain(ArrayAttr([AffineMapAttr(BCAST), AffineMapAttr(BCAST)]))


def test_serializable_attributes():
    assert is_serializable_encoding(matmul_encoding(0))
    assert is_serializable_encoding(LayoutAttr([PaddingAttr([0, 64])]))
    assert is_serializable_encoding(EncodingTestingAttr())
    assert is_serializable_encoding(SpecializedAttr(IntAttr(1), NoneAttr()))
    assert not is_serializable_encoding(UnknownAttr())
    assert not is_serializable_encoding(IdentityResolverAttr())
    assert not matmul_encoding(0).is_serialized()
    assert matmul_encoding(0).clone_with_layouts([PaddingAttr([0, 0])]) == LayoutAttr([PaddingAttr([0, 0])])
    assert LayoutAttr([PaddingAttr([0, 0])]).is_identity_layout()
    assert not PaddingAttr([0, DYNAMIC_INDEX]).is_serialized()


def test_older_encoding_with_layouts_is_serialized():
    """Before `#iree_encoding.layout`, resolved layouts sat on the encoding itself (`layouts = [...]`)."""
    resolved = EncodingAttr(0, EncodingOpType.MATMUL, [f32, f32, f32], layouts=[PaddingAttr([0, 0])])
    assert resolved.is_serialized()
    assert not matmul_encoding(0).is_serialized()


def test_layout_verifier():
    with pytest.raises(VerifyException, match="expected non-empty layouts"):
        LayoutAttr([])
    with pytest.raises(VerifyException, match="implement SerializableAttr"):
        LayoutAttr([UnknownAttr()])


def test_packed_storage_verify_encoding():
    PackedStorageAttr().verify_encoding([4], i4)
    with pytest.raises(VerifyException, match="bit-width of the element type is 8 but packed_storage"):
        PackedStorageAttr().verify_encoding([4], i8)


def test_set_and_unset_encoding_builders():
    enc = matmul_encoding(MATMUL_LHS, [DYNAMIC_INDEX] * 3)
    plain = TensorType(f32, [DYNAMIC_INDEX, DYNAMIC_INDEX])
    encoded = TensorType(f32, [DYNAMIC_INDEX, DYNAMIC_INDEX], enc)
    source = create_ssa_value(plain)
    m, n, k = (create_ssa_value(IndexType()) for _ in range(3))

    set_op = SetEncodingOp(source, encoded, [m, n, k])
    set_op.verify()
    assert get_encoding_attr(set_op.result.type) == enc

    unset_op = UnsetEncodingOp(set_op.result, plain, [m, k], [m, n, k])
    unset_op.verify()
    assert tuple(unset_op.result_dims) == (m, k)
    assert tuple(unset_op.encoding_dims) == (m, n, k)

    with pytest.raises(VerifyException, match="encoding expects 3 dynamic encoding dimension"):
        SetEncodingOp(source, encoded, [m]).verify()
    with pytest.raises(VerifyException, match="result type set has 2 dynamic dimensions but only 1"):
        UnsetEncodingOp(set_op.result, plain, [m], [m, n, k]).verify()
