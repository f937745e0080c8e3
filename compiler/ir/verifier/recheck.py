"""What to check again after a change: the ops to verify, and the uses whose dominance may break.

Verifiers that look further than their op are covered by propagation: an op is
verified again when something nested in it changed (region checks), when an op
around it changed what nested ops may read (a terminator checks its parent's
types), or when the op defining one of its operands changed (sizes read from a
producer). An op whose verifier reads only itself
(``op_checks.reads_only_itself``) is spared the last two.

A use can break when its user or anything around the user moved, or when the
definition moved or left (dominance, isolation from above); a changed branch
changes the dominance of whole blocks, so then every use is checked again.
"""

from __future__ import annotations

from xdsl.ir import Operation, SSAValue

from mini_iree.compiler.ir.verifier.changes import Changes
from mini_iree.compiler.ir.verifier.op_checks import reads_only_itself
from mini_iree.compiler.ir.verifier.snapshot import Snapshot
from mini_iree.compiler.ir.xdsl_internals import block_arg_tuple, next_op, next_use, successor_tuple, use_operation


def ops_to_verify(changes: Changes) -> list[tuple[Operation, bool]]:
    """The ops to verify again, in the walk's order (so that the first invalid op
    found is the one a full verification finds), each with whether its own
    constraints must be checked again."""
    around = _around_changes(changes)
    # Ops around a change see it (region and terminator checks); users of a
    # changed op's results may read the op itself.
    again = changes.affected | around
    for op in changes.changed:
        for result in op.results:
            use = result.first_use
            while use is not None:
                again.add(id(use_operation(use)))
                use = next_use(use)
    own_changed = changes.own_changed
    found: list[tuple[Operation, bool]] = []
    for op in changes.snapshot.ops:
        key = id(op)
        if key not in again:
            continue
        own = key in own_changed
        # An op whose verifier reads only the op itself and whose own view did
        # not change verifies as before, whatever changed around it or in its
        # producers: only an op around a change (its regions' contents
        # changed) and one now ending its block (terminator rule) are verified
        # again.
        if not own and key not in around and reads_only_itself(type(op)) is (next_op(op) is None):
            continue
        found.append((op, own))
    return found


def _around_changes(changes: Changes) -> set[int]:
    """The ops (by id) around a changed op or around the place of an op that left."""
    records = changes.snapshot.records
    around: list[Operation | None] = []
    for op in changes.changed:
        block = op.parent
        region = block.parent if block is not None else None
        if region is not None:
            around.append(region.parent)
    for record in changes.left:
        block = record.view.block
        region = block.parent if block is not None else None
        parent = region.parent if region is not None else None
        if parent is not None and id(parent) in records:
            around.append(parent)
    marked: set[int] = set()
    for parent in around:
        while parent is not None and id(parent) not in marked:
            marked.add(id(parent))
            parent = parent.parent_op()
    return marked


def uses_to_check(changes: Changes, previous: Snapshot) -> dict[int, Operation] | None:
    """The ops (by id) whose operands' dominance (and isolation from above) must
    be checked again; None: every op's."""
    if changes.full or any(record.view.successors for record in changes.left):
        return None
    for op in changes.changed:
        old = previous.records.get(id(op))
        if successor_tuple(op) or (old is not None and old.view.successors):
            return None  # a branch changed
    records = changes.snapshot.records
    moved = changes.moved
    # The moved ops, and the users of their results and of what left the module:
    # its results, and the arguments of the blocks it was in when those left too.
    uses = {id(op): op for op in moved}
    values: list[SSAValue] = [result for op in moved for result in op.results]
    for record in changes.left:
        values += record.op.results
        block = record.view.block
        if block is not None:
            region = block.parent
            around = region.parent if region is not None else None
            if around is None or id(around) not in records:
                values += block_arg_tuple(block)
    for value in values:
        use = value.first_use
        while use is not None:
            user = use_operation(use)
            uses[id(user)] = user
            use = next_use(use)
    return uses
