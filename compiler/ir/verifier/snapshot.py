"""What the IR looked like when it was last found valid.

:class:`ModuleVerifier` keeps one :class:`OpRecord` per op of the module it last
verified. An op verifies the same as long as its block, operands, results,
successors, attributes, properties, whether it ends its block and the shape of
its regions are the same: that is what a record holds. Values never change
type in xDSL, so the identity of the operands, results and block arguments
stands for their types. An op moved with its block into another op (a region or
block moved) counts as changed through the ops around it, whose shapes changed.
"""

from __future__ import annotations

from typing import NamedTuple

from xdsl.ir import Attribute, Block, Operation, Region, SSAValue

from mini_iree.compiler.ir.verifier.op_checks import names_a_symbol
from mini_iree.compiler.ir.xdsl_internals import block_arg_tuple, first_block, first_op, last_block, last_op, next_block

# Where an op stands in its block (``OpRecord.last``): the terminator rules depend on it.
NOT_LAST = 0
LAST = 1
LAST_OF_SEVERAL_BLOCKS = 2  # the last op of a block, in a region of several blocks


class OpView(NamedTuple):
    """The fields of an op that its verifiers read (its regions' contents aside)."""

    block: Block | None
    operands: tuple[SSAValue, ...]
    results: tuple
    successors: tuple[Block, ...]
    attributes: dict[str, Attribute]
    properties: dict[str, Attribute]
    regions: tuple[Region, ...]


# Stands for an empty attribute or property dictionary (only ever compared).
_NO_ATTRIBUTES: dict[str, Attribute] = {}


class OpRecord:
    """What an op looked like when it was last found valid, and where it stood."""

    __slots__ = ("index", "last", "names_a_symbol", "op", "shape", "view")

    def __init__(self, op: Operation, view: tuple, last: int, shape: tuple, index: int):
        block, operands, results, successors, attributes, properties, regions = view
        #: The op's fields, with copies of its dictionaries (they may change in
        #: place; empty ones stand for themselves).
        # (OpView._make without its Python-level call: one record per changed op)
        self.view: OpView = tuple.__new__(
            OpView,
            (
                block,
                operands,
                results,
                successors,
                attributes.copy() if attributes else _NO_ATTRIBUTES,
                properties.copy() if properties else _NO_ATTRIBUTES,
                regions,
            ),
        )
        #: NOT_LAST, LAST or LAST_OF_SEVERAL_BLOCKS.
        self.last = last
        #: The shape of the op's regions (see ``region_shape``).
        self.shape = shape
        #: An op naming a symbol is always verified again: what the symbol
        #: stands for may have changed anywhere in the module.
        self.names_a_symbol = bool(attributes or properties) and names_a_symbol(op)
        #: Not what the op verifies against but where it stands (dominance):
        #: its place in the walk's pre-order.
        self.index = index
        #: The op itself (kept alive with the record, so that its id is not reused).
        self.op = op


class Snapshot:
    """The records of the ops of the module last found valid (by id), and those
    ops in the order of that check's walk (pre-order).

    Sets and maps of ops are keyed by id(): an op's own ``__hash__`` is Python
    code, called for every lookup. The records keep their ops alive, so their
    ids cannot be reused meanwhile.
    """

    __slots__ = ("ops", "records")

    def __init__(self, records: dict[int, OpRecord] | None = None, ops: list[Operation] | None = None):
        self.records: dict[int, OpRecord] = records if records is not None else {}
        self.ops: list[Operation] = ops if ops is not None else []


def place_in_block(block: Block | None) -> int:
    """``OpRecord.last`` of the last op of ``block``."""
    region = block.parent if block is not None else None
    if region is not None and first_block(region) is not last_block(region):
        return LAST_OF_SEVERAL_BLOCKS
    return LAST


def region_shape(regions: tuple[Region, ...]) -> tuple[tuple, list[Operation | None]]:
    """The shape of an op's regions, and the first op of each of their blocks.

    The shape holds, for each block, its arguments, the block, its first and its
    last op, and None after each region (the block counts are part of it).
    """
    firsts: list[Operation | None] = []
    shape: list = []
    for region in regions:
        block = first_block(region)
        while block is not None:
            first = first_op(block)
            firsts.append(first)
            shape += (block_arg_tuple(block), block, first, last_op(block))
            block = next_block(block)
        shape.append(None)
    return tuple(shape), firsts


def block_args_of(shape: tuple) -> list:
    """The arguments of each block of a ``region_shape``, and None after each region."""
    return _entries(shape, 0)


def blocks_of(shape: tuple) -> list:
    """The blocks of a ``region_shape``, and None after each region."""
    return _entries(shape, 1)


def _entries(shape: tuple, offset: int) -> list:
    found: list = []
    i = 0
    while i < len(shape):
        if shape[i] is None:
            found.append(None)
            i += 1
        else:
            found.append(shape[i + offset])
            i += 4
    return found
