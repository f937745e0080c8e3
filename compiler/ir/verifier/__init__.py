"""Verify a module op by op, reporting the failing op at its own location.

xDSL's ``Operation.verify`` raises the verifier's message with the whole module
attached but without saying which op failed. MLIR reports
``file:line:col: error: 'linalg.pack' op invalid inner_dims_pos vector`` at the
failing op; this walk does the same. As in MLIR, an op is verified before the ops
nested in it, verification stops at the first failure, and once every op is
valid each operand must dominate its use (``operand #0 does not dominate this
use``, with a note at the definition).

Verifying after every pass, as ``mini-iree-opt`` does, would otherwise cost a
full verification of the module per pass; :class:`ModuleVerifier` remembers
what each op looked like when it was found valid and verifies again only what
a pass changed. In four parts:

- ``snapshot``: what the IR looked like when last found valid (a record per op);
- ``changes``: one walk of the module telling what differs from the snapshot;
- ``recheck``: what to check again: the ops whose verifiers can see a change,
  and the uses whose dominance a change can break;
- ``dominance``: MLIR's dominance check, for those uses.

``op_checks`` verifies one op (IRDL constraints remembered per signature).
"""

from __future__ import annotations

from xdsl.ir import Operation

from mini_iree.compiler.ir.diagnostics import SourceLoc
from mini_iree.compiler.ir.verifier.changes import compare
from mini_iree.compiler.ir.verifier.dominance import Dominance, climb
from mini_iree.compiler.ir.verifier.op_checks import verify_one
from mini_iree.compiler.ir.verifier.recheck import ops_to_verify, uses_to_check
from mini_iree.compiler.ir.verifier.snapshot import Snapshot

__all__ = ["ModuleVerifier", "verify_op_tree"]


def verify_op_tree(op: Operation, fallback: SourceLoc) -> None:
    """Raise ``DiagnosticError`` at the first op of ``op``'s tree that does not verify.

    Every op is verified first (pre-order); then, as MLIR's verifier does once
    all ops are valid, every operand is checked to dominate its use.
    """
    ModuleVerifier().verify(op, fallback)


class ModuleVerifier:
    """``verify_op_tree`` for a module verified again after each pass.

    The first ``verify`` checks every op; later ones check only the ops that
    changed since the last successful ``verify`` and the ops whose verifiers
    can see the change, in the same pre-order, so the first invalid op reported
    is the one a full verification would report.

    Dominance (and isolation from above) is checked again for the uses a change
    can break: the operands of changed ops, of new ops, of ops in another block
    than before or out of order with the other ops of their block, of ops whose
    regions gained, lost or exchanged blocks and of every op nested in such
    ops; and the uses of their results and of the results of ops that left
    the module.
    """

    def __init__(self) -> None:
        self._snapshot = Snapshot()

    def verify(self, root: Operation, fallback: SourceLoc) -> None:
        # After a failure, the next check starts from scratch.
        previous, self._snapshot = self._snapshot, Snapshot()
        changes = compare(root, previous)
        uses = uses_to_check(changes, previous)
        current = changes.snapshot
        suspects, isolation_scope = climb(current.ops if uses is None else uses.values(), current.records)
        for op, own in ops_to_verify(changes):
            verify_one(op, fallback, own, isolation_scope)
        Dominance(fallback).verify(root, uses, suspects)
        self._snapshot = current
