"""ProgramOrder answers as the block's own order does, through moves and insertions."""

from __future__ import annotations

import random

from xdsl.dialects import test
from xdsl.ir import Block

from mini_iree.compiler.ir.program_order import ProgramOrder


def _check(order: ProgramOrder, block: Block) -> None:
    ops = list(block.ops)
    positions = [order.position(op) for op in reversed(ops)][::-1]  # asked out of order on purpose
    assert positions == sorted(positions) and len(set(positions)) == len(positions)


def test_positions_follow_moves_and_insertions():
    rng = random.Random(0)
    block = Block([test.TestOp() for _ in range(40)])
    order = ProgramOrder()
    _check(order, block)
    for step in range(300):
        ops = list(block.ops)
        if step % 3 == 0:
            # A run of consecutive new ops, as a rewrite inserting several ops makes.
            anchor = rng.choice(ops)
            for _ in range(rng.randint(1, 4)):
                new = test.TestOp()
                block.insert_op_before(new, anchor)
        else:
            moved = rng.sample(ops, rng.randint(1, 3))
            anchor = rng.choice([op for op in ops if op not in moved])
            for op in moved:
                op.detach()
                block.insert_op_after(op, anchor)
                anchor = op
            order.forget(moved)
        _check(order, block)


def test_positions_given_never_change_while_their_op_stays():
    block = Block([test.TestOp() for _ in range(3)])
    order = ProgramOrder()
    first, middle, last = block.ops
    kept = {op: order.position(op) for op in (first, middle, last)}
    for _ in range(60):  # far more than the room between two neighbours
        block.insert_op_after(test.TestOp(), first)
        block.insert_op_before(test.TestOp(), last)
        _check(order, block)
    assert {op: order.position(op) for op in (first, middle, last)} == kept


def test_crowded_gap_still_orders():
    block = Block([test.TestOp(), test.TestOp()])
    order = ProgramOrder()
    first, last = block.ops
    _check(order, block)
    # Far more insertions between two neighbours than the room left between them.
    for _ in range(40):
        block.insert_op_after(test.TestOp(), first)
        assert order.position(first.next_op) < order.position(last)
    _check(order, block)
