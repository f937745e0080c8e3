"""The builders of ``set_encoding``, ``unset_encoding`` and ``flow.tensor.encode`` make the IRDL builder's op.

Given SSA values they build the op directly (passes create thousands); given
ops standing for their results they go through the IRDL builder. Either way the
op must be the one ``IRDLOperation.__init__`` makes from the same arguments:
same operands, result types, properties (``operandSegmentSizes``), attributes
and regions, and the same printed form.
"""

from __future__ import annotations

import pytest
from xdsl.dialects import test
from xdsl.dialects.builtin import DYNAMIC_INDEX, IndexType, TensorType, f32
from xdsl.irdl import IRDLOperation
from xdsl.printer import Printer

from mini_iree.dialects import flow, iree_encoding

PLAIN = TensorType(f32, [DYNAMIC_INDEX, 4])
ENCODED = TensorType(f32, [DYNAMIC_INDEX, 4], iree_encoding.PaddingAttr([0, DYNAMIC_INDEX]))


def _values() -> tuple[test.TestOp, test.TestOp, list[test.TestOp]]:
    plain = test.TestOp(result_types=[PLAIN])
    encoded = test.TestOp(result_types=[ENCODED])
    sizes = [test.TestOp(result_types=[IndexType()]) for _ in range(3)]
    return plain, encoded, sizes


def _generic(op) -> str:
    import io

    out = io.StringIO()
    Printer(stream=out, print_generic_format=True).print_op(op)
    return out.getvalue()


def _irdl_built(cls: type[IRDLOperation], operands: list, result_type) -> IRDLOperation:
    op = cls.__new__(cls)
    IRDLOperation.__init__(op, operands=operands, result_types=[result_type])
    return op


def _assert_same(op, reference) -> None:
    assert list(op.operands) == list(reference.operands)
    assert [r.type for r in op.results] == [r.type for r in reference.results]
    assert op.properties == reference.properties
    assert op.attributes == reference.attributes
    assert len(op.regions) == len(reference.regions) == 0
    assert _generic(op) == _generic(reference)


@pytest.mark.parametrize("num_dims", [0, 2])
def test_set_encoding(num_dims: int) -> None:
    plain, _, sizes = _values()
    dims = [s.results[0] for s in sizes[:num_dims]]
    op = iree_encoding.SetEncodingOp(plain.results[0], ENCODED, dims)
    _assert_same(op, _irdl_built(iree_encoding.SetEncodingOp, [plain.results[0], dims], ENCODED))
    # Ops for their results: the IRDL builder's path, same op.
    from_ops = iree_encoding.SetEncodingOp(plain, ENCODED, sizes[:num_dims])
    _assert_same(from_ops, op)


@pytest.mark.parametrize(("num_result_dims", "num_encoding_dims"), [(0, 0), (1, 0), (1, 2), (0, 3)])
def test_unset_encoding(num_result_dims: int, num_encoding_dims: int) -> None:
    _, encoded, sizes = _values()
    result_dims = [s.results[0] for s in sizes[:num_result_dims]]
    encoding_dims = [s.results[0] for s in sizes[:num_encoding_dims]]
    op = iree_encoding.UnsetEncodingOp(encoded.results[0], PLAIN, result_dims, encoding_dims)
    reference = _irdl_built(iree_encoding.UnsetEncodingOp, [encoded.results[0], result_dims, encoding_dims], PLAIN)
    _assert_same(op, reference)
    assert op.result_dims == tuple(result_dims) and op.encoding_dims == tuple(encoding_dims)


@pytest.mark.parametrize(("num_operand_dims", "num_result_dims"), [(0, 0), (1, 1), (2, 1)])
def test_tensor_encode(num_operand_dims: int, num_result_dims: int) -> None:
    plain, _, sizes = _values()
    operand_dims = [s.results[0] for s in sizes[:num_operand_dims]]
    result_dims = [s.results[0] for s in sizes[:num_result_dims]]
    op = flow.TensorEncodeOp(plain.results[0], ENCODED, operand_dims, result_dims)
    reference = _irdl_built(flow.TensorEncodeOp, [plain.results[0], operand_dims, result_dims], ENCODED)
    _assert_same(op, reference)
    assert op.operand_dims == tuple(operand_dims) and op.result_dims == tuple(result_dims)
    _assert_same(flow.TensorEncodeOp(plain, ENCODED, sizes[:num_operand_dims], sizes[:num_result_dims]), op)


def test_bad_arguments_still_fail_as_in_the_irdl_builder() -> None:
    two_results = test.TestOp(result_types=[PLAIN, PLAIN])
    with pytest.raises(ValueError, match="expected operation with a single result"):
        iree_encoding.SetEncodingOp(two_results, ENCODED)
