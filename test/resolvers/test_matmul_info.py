"""Contraction encodings -> pack info and narrow dimensions (shared by all resolvers)."""

from __future__ import annotations

import pytest
from xdsl.dialects.builtin import DYNAMIC_INDEX, f32
from xdsl.ir.affine import AffineExpr, AffineMap

from mini_iree.compiler.resolvers.matmul_info import (
    MatmulTile,
    get_encoding_info_for_matmul,
    get_matmul_narrow_dim,
    is_narrow_n_result,
    power_of_2_ceil,
)
from mini_iree.dialects.iree_encoding import EncodingAttr, EncodingOpType

D = DYNAMIC_INDEX


def amap(num_dims: int, dims: list[int]) -> AffineMap:
    return AffineMap(num_dims, 0, tuple(AffineExpr.dimension(d) for d in dims))


# Root op maps by name: (number of loops, lhs dims, rhs dims, out dims).
OPS = {
    "matmul": (3, [0, 2], [2, 1], [0, 1]),  # (m, n, k)
    "matmul_transpose_a": (3, [2, 0], [2, 1], [0, 1]),
    "matmul_transpose_b": (3, [0, 2], [1, 2], [0, 1]),
    "batch_matmul": (4, [0, 1, 3], [0, 3, 2], [0, 1, 2]),  # (b, m, n, k)
    "matvec": (2, [0, 1], [1], [0]),  # (m, k)
    "vecmat": (2, [1], [1, 0], [0]),  # (n, k)
    "batch_matvec": (3, [0, 1, 2], [0, 2], [0, 1]),  # (b, m, k)
}


def encoding(op: str, operand: int, sizes: list[int] | None = None, **kwargs) -> EncodingAttr:
    num_dims, *operand_dims = OPS[op]
    maps = [amap(num_dims, dims) for dims in operand_dims]
    return EncodingAttr(operand, EncodingOpType.MATMUL, [f32, f32, f32], maps, sizes, **kwargs)


TILE = MatmulTile(8, 4, 2)


@pytest.mark.parametrize(
    ("op", "operand", "inner_dims_pos", "inner_tile_sizes", "outer_dims_perm"),
    [
        ("matmul", 0, [0, 1], [8, 2], [0, 1]),
        ("matmul", 1, [1, 0], [4, 2], [1, 0]),
        ("matmul", 2, [0, 1], [8, 4], [0, 1]),
        ("matmul_transpose_a", 0, [1, 0], [8, 2], [1, 0]),
        ("matmul_transpose_b", 1, [0, 1], [4, 2], [0, 1]),
        ("batch_matmul", 0, [1, 2], [8, 2], [0, 1, 2]),
        ("batch_matmul", 1, [2, 1], [4, 2], [0, 2, 1]),
        ("batch_matmul", 2, [1, 2], [8, 4], [0, 1, 2]),
        ("matvec", 0, [0, 1], [8, 2], [0, 1]),
        ("matvec", 1, [0], [2], [0]),
        ("matvec", 2, [0], [8], [0]),
        ("vecmat", 0, [0], [2], [0]),
        ("vecmat", 1, [1, 0], [4, 2], [1, 0]),
        ("vecmat", 2, [0], [4], [0]),
        ("batch_matvec", 1, [1], [2], [0, 1]),
    ],
)
def test_pack_info_per_operand(op, operand, inner_dims_pos, inner_tile_sizes, outer_dims_perm):
    info = get_encoding_info_for_matmul(encoding(op, operand), TILE)
    assert (info.inner_dims_pos, info.inner_tile_sizes, info.outer_dims_perm) == (
        inner_dims_pos,
        inner_tile_sizes,
        outer_dims_perm,
    )
    assert info.swizzle is None


def test_broadcast_chain_drops_absent_dims():
    # A bias broadcast along M after the matmul: the operand only has N.
    maps = [amap(3, [0, 2]), amap(3, [2, 1]), [amap(3, [0, 1]), amap(2, [1])]]
    enc = EncodingAttr(2, EncodingOpType.MATMUL, [f32, f32, f32], maps, [D, D, D])
    info = get_encoding_info_for_matmul(enc, TILE)
    assert (info.inner_dims_pos, info.inner_tile_sizes, info.outer_dims_perm) == ([0], [4], [0])


@pytest.mark.parametrize(
    "maps",
    [
        [amap(3, [0, 1]), amap(3, [0, 1]), amap(3, [0, 1])],  # elementwise: no K
        [amap(4, [0, 2, 3]), amap(4, [2, 3, 1]), amap(4, [0, 1])],  # two K loops
    ],
    ids=["no_k", "multi_k"],
)
def test_non_contraction_is_identity(maps):
    enc = EncodingAttr(0, EncodingOpType.MATMUL, [f32, f32, f32], maps)
    assert get_encoding_info_for_matmul(enc, TILE).is_identity()
    assert get_matmul_narrow_dim(enc) is None


@pytest.mark.parametrize(
    ("op", "sizes", "expected"),
    [
        ("matmul", [D, D, D], None),
        ("matmul", [D, 7, D], ("N", 8)),
        ("matmul", [3, D, D], ("M", 4)),
        ("matmul", [100, 500, 250], ("M", 128)),  # any static M < N counts
        ("matmul", [500, 100, 250], ("N", 128)),
        ("matmul", [64, 64, 3], None),  # equal sizes: not narrow
        ("matmul", [1, D, 4096], ("M", 1)),
        ("matmul", [4096, 1, 4096], ("N", 1)),
        ("batch_matmul", [D, 2, D, D], ("M", 2)),
        ("matvec", [D, D], ("N", 1)),  # absent N counts as 1
        ("vecmat", [D, D], ("M", 1)),
        ("matvec", [16, D], ("N", 1)),
    ],
)
def test_narrow_dim_from_iteration_sizes(op, sizes, expected):
    assert get_matmul_narrow_dim(encoding(op, 0, sizes)) == expected


@pytest.mark.parametrize(
    ("round_dims_to", "expected"),
    [([32, 32, 32], None), ([4, 32, 32], ("M", 4)), ([32, 1, 32], ("N", 1)), ([16, 16, 32], None)],
)
def test_narrow_dim_from_round_dims_to(round_dims_to, expected):
    assert get_matmul_narrow_dim(encoding("matmul", 2, round_dims_to=round_dims_to)) == expected


def test_no_hint_means_no_narrow_dim():
    assert get_matmul_narrow_dim(encoding("matmul", 0)) is None


@pytest.mark.parametrize(("operand", "expected"), [(0, False), (1, False), (2, True)])
def test_narrow_n_result_is_only_the_result(operand, expected):
    assert is_narrow_n_result(encoding("matmul", operand, [D, 3, D])) is expected
    assert not is_narrow_n_result(encoding("matmul", operand, [3, D, D]))


@pytest.mark.parametrize(("value", "expected"), [(0, 0), (1, 1), (2, 2), (3, 4), (7, 8), (8, 8), (100, 128)])
def test_power_of_2_ceil(value, expected):
    assert power_of_2_ceil(value) == expected
