"""What changed since the last check: one walk of the module against its snapshot.

The walk visits every op after every pass, in pre-order, and builds a record
only for an op that changed (``OpRecord``); an unchanged op keeps its record,
with its new place in the walk. For each changed op it tells whether its own
constraints must be checked again, whether what the ops nested in it may read
changed (its results, attributes, the arguments of its blocks...), and whether
those nested ops moved (their operands' dominance is checked again).
"""

from __future__ import annotations

from bisect import bisect_left

from xdsl.ir import Block, Operation

from mini_iree.compiler.ir.verifier.snapshot import (
    NOT_LAST,
    OpRecord,
    Snapshot,
    block_args_of,
    blocks_of,
    place_in_block,
    region_shape,
)
from mini_iree.compiler.ir.xdsl_internals import next_op, operand_tuple, successor_tuple, value_type


class Changes:
    """What a walk of the module found different from the snapshot of the last check."""

    __slots__ = ("affected", "changed", "full", "left", "moved", "own_changed", "snapshot")

    def __init__(self, snapshot: Snapshot, full: bool):
        #: The module as it is now: every op's record, in the walk's order.
        self.snapshot = snapshot
        #: No previous check: everything is new.
        self.full = full
        #: The ops that differ from their record, or are new (in the walk's order).
        self.changed: list[Operation] = []
        #: Of those (by id), the ops whose own constraints must be checked again
        #: (the others held, and read nothing that changed since).
        self.own_changed: set[int] = set()
        #: The changed ops and the ops nested in an op that changed in what
        #: nested ops read (by id): all verified again.
        self.affected: set[int] = set()
        #: The ops whose operands' dominance must be checked again: the changed
        #: ops, the ops nested in an op that moved, and the ops that changed
        #: places in their block.
        self.moved: list[Operation] = []
        #: The records of the ops that left the module since the last check.
        self.left: list[OpRecord] = []


def compare(root: Operation, previous: Snapshot) -> Changes:
    """Walk ``root``'s tree and tell what changed since ``previous``."""
    old_record_of = previous.records.get
    records: dict[int, OpRecord] = {}
    order: list[Operation] = []
    changes = Changes(Snapshot(records, order), full=not previous.records)
    changed, moved, own_changed, affected = changes.changed, changes.moved, changes.own_changed, changes.affected
    reordered: dict[int, Block] = {}  # blocks whose ops changed order (by id)
    index = new_ops = 0
    # The walk runs in pre-order over runs of sibling ops. An explicit stack
    # rather than recursion: a deeply nested program must get its diagnostic,
    # not a RecursionError. Each entry is the first op of a run; whether an
    # enclosing op changed in what nested ops read (verify them again) or
    # moved (check their operands' dominance again); and the place in the last
    # walk of the latest op of the run that was in the block then (the ops of a
    # block that were there before must come in the same order).
    stack: list[tuple[Operation, bool, bool, int]] = [(root, False, False, -1)]
    pop, push, visit = stack.pop, stack.append, order.append
    while stack:
        op, outer_changed, outer_moved, last_index = pop()
        while op is not None:
            key = id(op)
            old = old_record_of(key)
            # (the fields of an OpView)
            view = (op.parent, operand_tuple(op), op.results, successor_tuple(op), op.attributes, op.properties, op.regions)
            block, regions = view[0], view[6]
            following = next_op(op)
            last = NOT_LAST if following is not None else place_in_block(block)
            if regions:
                shape, firsts = region_shape(regions)
            else:
                shape = ()
            if old is not None:
                old_view = old.view
                if old_view.block is block:
                    if old.index < last_index:
                        reordered[id(block)] = block
                    last_index = old.index
                unchanged = old_view == view and old.last == last and old.shape == shape and not old.names_a_symbol
            else:
                unchanged = False
            if unchanged:
                record = old
                record.index = index
                inside_changed, inside_moved = outer_changed, outer_moved
                if inside_changed:
                    affected.add(key)
                if inside_moved:
                    moved.append(op)
            else:
                record = OpRecord(op, view, last, shape, index)
                changed.append(op)
                affected.add(key)
                moved.append(op)  # its operands may be new
                if old is None:
                    new_ops += 1
                    own, nested, nested_stay = True, True, False
                else:
                    own, nested, nested_stay = _what_changed(old, record)
                if own:
                    own_changed.add(key)
                inside_changed = outer_changed or nested
                inside_moved = outer_moved if nested_stay else True
            records[key] = record
            visit(op)
            index += 1
            if regions:
                # The rest of this run after the ops nested in this one.
                if following is not None and op is not root:
                    push((following, outer_changed, outer_moved, last_index))
                for first in reversed(firsts):
                    if first is not None:
                        push((first, inside_changed, inside_moved, -1))
                break
            op = following if op is not root else None
    if not changes.full:
        if len(order) - new_ops < len(previous.ops):
            changes.left = [previous.records[key] for key in previous.records.keys() - records.keys()]
        if reordered:
            moved += _out_of_order(reordered, previous)
    return changes


def _what_changed(old: OpRecord, new: OpRecord) -> tuple[bool, bool, bool]:
    """For an op that differs from its record: whether its own constraints must
    be checked again, whether what the ops nested in it read changed, and
    whether the ops nested in it stay where they were."""
    old_view, view = old.view, new.view
    old_shape, shape = old.shape, new.shape
    # (blocks added, removed or moved between regions or ops)
    blocks_changed = old_shape != shape and blocks_of(old_shape) != blocks_of(shape)
    nested_stay = old_view.block is view.block and not blocks_changed
    if old.names_a_symbol or new.names_a_symbol or blocks_changed:
        return True, True, nested_stay
    # Otherwise only moved, or new operands of the same types.
    nested = (
        (old_view.results, old_view.successors, old_view.attributes, old_view.properties)
        != (view.results, view.successors, view.attributes, view.properties)
        or (old_shape != shape and block_args_of(old_shape) != block_args_of(shape))
        or (
            old_view.operands != view.operands
            and [value_type(v) for v in old_view.operands] != [value_type(v) for v in view.operands]
        )
    )
    return nested or old_shape != shape, nested, nested_stay


def _out_of_order(reordered: dict[int, Block], previous: Snapshot) -> list[Operation]:
    """The ops of ``reordered`` blocks that changed places, and the ops nested in them.

    Of the ops a block had at the last check (in the order of that walk), the
    longest run still in the same order stays; every pair of ops whose order
    flipped has one op outside it.
    """
    before = {id(op): i for i, op in enumerate(previous.ops)}
    records = previous.records
    found: list[Operation] = []
    for block in reordered.values():
        ops = [op for op in block.ops if id(op) in before and records[id(op)].view.block is block]
        kept = _longest_increasing(ops, [before[id(op)] for op in ops])
        found += [op for op in ops if id(op) not in kept]
    nested: list[Operation] = []
    for op in found:
        nested += op.walk()
    return nested


def _longest_increasing(ops: list[Operation], keys: list[int]) -> set[int]:
    """The ids of a longest run of ``ops`` whose ``keys`` increase."""
    tails: list[int] = []  # the smallest last key of a run of each length
    tail_at: list[int] = []  # where that run ends
    back: list[int] = []  # the op before each op in its best run
    for i, k in enumerate(keys):
        n = bisect_left(tails, k)
        if n == len(tails):
            tails.append(k)
            tail_at.append(i)
        else:
            tails[n] = k
            tail_at[n] = i
        back.append(tail_at[n - 1] if n else -1)
    kept: set[int] = set()
    i = tail_at[-1] if tail_at else -1
    while i >= 0:
        kept.add(id(ops[i]))
        i = back[i]
    return kept
