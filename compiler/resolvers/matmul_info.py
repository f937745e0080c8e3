"""Contraction encodings -> packed layouts, shared by every target's resolver.

A resolver picks an M0 x N0 x K0 tile for the root contraction; this module
turns that tile into the `linalg.pack` of one operand (IREE's
`getEncodingInfoForMatmul`, Codegen/Dialect/Codegen/Utils/Utils.cpp) and finds
the narrow dimension a resolver should not over-pad (`getPo2MatmulNarrowDim`,
Dialect/Encoding/Utils/Utils.cpp).

The loops of the root op are split into batch/M/N/K from the first map of
every `user_indexing_maps` entry; each loop is then looked up in this
operand's composed map (a broadcast appended by propagation may drop it).
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.dialects.builtin import DYNAMIC_INDEX

from mini_iree.compiler.analysis.contraction import ContractionDims, infer_contraction_dims
from mini_iree.dialects.iree_codegen import MaterializeEncodingInfo
from mini_iree.dialects.iree_encoding import EncodingAttr, EncodingOpType

# Canonical operand indices of a matmul encoding (EncodingTypes.h).
MATMUL_LHS = 0
MATMUL_RHS = 1
MATMUL_RESULT = 2


@dataclass(frozen=True)
class MatmulTile:
    """Inner tile sizes of the M, N and K loops (DYNAMIC_INDEX = chosen at run time)."""

    m: int
    n: int
    k: int


def power_of_2_ceil(value: int) -> int:
    """llvm::PowerOf2Ceil: the smallest power of two >= value (0 stays 0)."""
    if value <= 0:
        return 0
    return 1 << (value - 1).bit_length()


def get_contraction_dims(encoding: EncodingAttr) -> ContractionDims | None:
    """Batch/M/N/K loops of the encoded contraction, or None.

    None unless the root maps form a contraction with at most one loop of each
    kind and exactly one K, the only shape the packed layouts describe.
    """
    if encoding.get_op_type() is not EncodingOpType.MATMUL:
        return None
    maps = encoding.get_root_maps()
    if len(maps) != 3 or any(m is None for m in maps):
        return None
    dims = infer_contraction_dims([m for m in maps if m is not None])
    if dims is None or not dims.is_single_mnk() or len(dims.k) != 1:
        return None
    # A loop that is none of batch/M/N/K (a broadcast matmul's) has no place in a pack.
    if not dims.classifies_every_loop(maps[0].num_dims):  # type: ignore[union-attr]
        return None
    return dims


def get_encoding_info_for_matmul(encoding: EncodingAttr, tile: MatmulTile) -> MaterializeEncodingInfo:
    """The pack of this operand for an M0 x N0 x K0 tile of the root contraction.

    Present dims are taken in the fixed order batch, M, N, K: all of them make
    `outerDimsPerm`, the M/N/K ones also `innerDimsPos` with their tile. So an
    RHS (K, N) gets `innerDimsPos = [1, 0]`, `outerDimsPerm = [1, 0]`: it is
    stored transposed, as mmt4d reads it. Encodings that are not such a
    contraction give the identity layout, as every IREE resolver does when
    this step fails.
    """
    dims = get_contraction_dims(encoding)
    info = MaterializeEncodingInfo()
    if dims is None:
        return info
    for loops, tile_size in ((dims.batch, None), (dims.m, tile.m), (dims.n, tile.n), (dims.k, tile.k)):
        if not loops:
            continue
        position = encoding.map_dim_to_operand_index(loops[0])
        if position is None:
            continue
        info.outer_dims_perm.append(position)
        if tile_size is not None:
            info.inner_dims_pos.append(position)
            info.inner_tile_sizes.append(tile_size)
    return info


def get_matmul_sizes(encoding: EncodingAttr) -> tuple[int, int] | None:
    """(M, N) from `iteration_sizes`; an absent M or N loop (vecmat, matvec) counts as 1."""
    sizes = encoding.get_iteration_sizes()
    dims = get_contraction_dims(encoding)
    if not sizes or dims is None:
        return None
    m = sizes[dims.m[0]] if dims.m else 1
    n = sizes[dims.n[0]] if dims.n else 1
    return m, n


def _narrow_from_round_dims_to(encoding: EncodingAttr) -> tuple[str, int] | None:
    # Encodings from before `iteration_sizes` (IREE #20459) carried the hint as
    # `round_dims_to`: SetEncoding wrote a smaller power of two for a narrow
    # M or N, so the smaller of the first two entries is the narrow one.
    round_dims_to = encoding.get_round_dims_to()
    if encoding.get_op_type() is not EncodingOpType.MATMUL or len(round_dims_to) < 2:
        return None
    m, n = round_dims_to[0], round_dims_to[1]
    if m < n:
        return "M", power_of_2_ceil(m)
    if n < m:
        return "N", power_of_2_ceil(n)
    return None


def get_matmul_narrow_dim(encoding: EncodingAttr) -> tuple[str, int] | None:
    """The narrow matmul dimension ("M" or "N") and its size rounded up to a power of two.

    From `iteration_sizes`: both M and N dynamic gives None; one dynamic gives
    the static one; both static gives the strictly smaller (equal gives None).
    Any static M < N counts, which is harmless: the padding penalty a resolver
    derives from it is zero once the size exceeds every candidate tile.
    Encodings with only the older `round_dims_to` hint are read the way the
    CPU backend read them then.
    """
    if not encoding.get_iteration_sizes():
        return _narrow_from_round_dims_to(encoding)
    sizes = get_matmul_sizes(encoding)
    if sizes is None:
        return None
    m, n = sizes
    if m == DYNAMIC_INDEX and n == DYNAMIC_INDEX:
        return None
    if m == DYNAMIC_INDEX:
        return "N", power_of_2_ceil(n)
    if n == DYNAMIC_INDEX:
        return "M", power_of_2_ceil(m)
    if n < m:
        return "N", power_of_2_ceil(n)
    if m < n:
        return "M", power_of_2_ceil(m)
    return None


def is_narrow_n_result(encoding: EncodingAttr) -> bool:
    """The RESULT of a narrow-N matmul: CPU resolvers store it transposed."""
    if encoding.get_operand_index() != MATMUL_RESULT:
        return False
    narrow = get_matmul_narrow_dim(encoding)
    return narrow is not None and narrow[0] == "N"
