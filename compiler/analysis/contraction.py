"""Which loops of a contraction are batch, M, N and K: MLIR's ``inferContractionDims``.

Data tiling decides everything from this split: which ops get a hint (one M or N
and one K at most), how each operand is packed (M, N, K tiles in that order), and
which sizes of ``iteration_sizes`` are narrow. It reads only the indexing maps, so
it works as well on a ``linalg.matmul`` as on the root maps an encoding carries.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from xdsl.ir.affine import AffineDimExpr, AffineMap


@dataclass(frozen=True)
class ContractionDims:
    """Loop positions of each kind, in increasing order."""

    batch: tuple[int, ...]
    m: tuple[int, ...]
    n: tuple[int, ...]
    k: tuple[int, ...]

    def is_single_mnk(self) -> bool:
        """At most one loop of each kind: what data tiling and mmt4d can take."""
        return all(len(dims) <= 1 for dims in (self.batch, self.m, self.n, self.k))

    def classifies_every_loop(self, num_loops: int) -> bool:
        """Whether each of the ``num_loops`` loops is a batch, M, N or K loop.

        A `linalg.matmul` whose LHS map is a broadcast (``(m, n, k) -> (k)``) has
        an output loop that neither input reads: it is none of the four, so a
        packed layout (built from batch/M/N/K dims alone) has no place for it.
        """
        return len(self.batch) + len(self.m) + len(self.n) + len(self.k) == num_loops


def _dim_positions(affine_map: AffineMap) -> set[int]:
    """Loops a map reads directly (as a bare dN result)."""
    return {result.position for result in affine_map.results if isinstance(result, AffineDimExpr)}


def infer_contraction_dims(maps: Sequence[AffineMap]) -> ContractionDims | None:
    """Split the loops of ``(lhs, rhs, out)`` maps into batch/M/N/K, or None.

    As MLIR does from maps alone: loops absent from the output are reductions;
    batch loops index all three operands, M loops the LHS and the output, N loops
    the RHS and the output, K loops both inputs but not the output. Maps that are
    not projected permutations (or a count other than three) give None.
    """
    if len(maps) != 3 or any(not m.is_projected_permutation() for m in maps):
        return None
    lhs, rhs, out = (_dim_positions(m) for m in maps)
    num_dims = maps[2].num_dims
    reductions = set(range(num_dims)) - out
    return ContractionDims(
        batch=tuple(sorted(lhs & rhs & out)),
        m=tuple(sorted((lhs & out) - rhs)),
        n=tuple(sorted((rhs & out) - lhs)),
        k=tuple(sorted((lhs & rhs) & reductions)),
    )
