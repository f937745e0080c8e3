"""The one place that reads xDSL 0.74's private attributes.

mini-iree's fast paths (the incremental verifier, the format printer, IR walks
over the linked lists) read a few of xDSL's internals instead of the public
properties, which build a fresh view object per call. Every such read goes
through a name defined here, so an xDSL upgrade that renames one breaks here,
and `test/ir/test_xdsl_internals.py` (the canary) fails loudly naming it,
instead of the fast paths silently falling back to slow ones.

The accessors are `operator.attrgetter`s: a C-level call, cheap enough for the
verifier's inner loops.

What reads or changes xDSL's internals, by what it is for:

- the linked lists and tuples behind ops, blocks, regions and values (the
  accessors; ``nested_ops`` and ``nested_ops_post_order``, the walks
  ``compiler/ir/queries.py`` offers);
- what ``irdl_op_definition`` keeps only in closures: the ``FormatProgram`` of
  a generated printer, the op definition and custom verifier of a generated
  ``verify_``; the op classes ``op_type_rewrite_pattern`` declines all others
  for (``op_type_pattern_types``, what the selective pattern walker visits);
- the pattern walker's worklist (``SweepPopulatingWalker``: a public
  ``sweep_ops`` over xDSL's private ``_populate_worklist``);
- the lexer's string literals, a value's raw name hint, and the builtin
  dialect's table of resource handles (``compiler/ir/parsing.py`` uses these).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from operator import attrgetter
from typing import Any

from xdsl.ir import Block, Operation, Region, SSAValue
from xdsl.pattern_rewriter import PatternRewriteWalker

# --- the linked lists and tuples behind Operation, Block, Region and SSAValue ---

#: ``op.operands`` without the view object: the tuple of operand values.
operand_tuple = attrgetter("_operands")
#: ``op.successors`` as the stored tuple.
successor_tuple = attrgetter("_successors")
#: ``block.args`` as the stored tuple.
block_arg_tuple = attrgetter("_args")
#: ``value.type`` without the property.
value_type = attrgetter("_type")
#: Region -> its first / last block (None when empty).
first_block = attrgetter("_first_block")
last_block = attrgetter("_last_block")
#: Block -> the next / previous block in its region.
next_block = attrgetter("_next_block")
prev_block = attrgetter("_prev_block")
#: Block -> its first / last op (None when empty).
first_op = attrgetter("_first_op")
last_op = attrgetter("_last_op")
#: Operation -> the next / previous op in its block.
next_op = attrgetter("_next_op")
prev_op = attrgetter("_prev_op")
#: SSAValue -> the head of its use list; Use -> the next use and the using op.
first_use = attrgetter("first_use")
next_use = attrgetter("_next_use")
use_operation = attrgetter("_operation")


# --- what irdl_op_definition keeps only in closures ---


def generated_format_program(cls: type[Operation]) -> Any | None:
    """The ``FormatProgram`` xDSL made for ``cls`` from its ``assembly_format``, or None.

    ``irdl_op_definition`` keeps it only in the closure of the ``print`` it
    generates (named ``print_with_format``); a class with a ``print`` of its own
    has none.
    """
    from xdsl.irdl.declarative_assembly_format import FormatProgram

    fn = cls.__dict__.get("print")
    if fn is None or getattr(fn, "__name__", "") != "print_with_format":
        return None
    for cell in getattr(fn, "__closure__", None) or ():
        if isinstance(cell.cell_contents, FormatProgram):
            return cell.cell_contents
    return None


def has_generated_printer(cls: type[Operation]) -> bool:
    """Whether ``cls`` prints with the printer xDSL generated from its ``assembly_format``."""
    return getattr(cls.__dict__.get("print"), "__name__", "") == "print_with_format"


def generated_verifier_parts(cls: type[Operation]) -> tuple[Any, Any] | None:
    """``(op_def, custom_verify)`` of the ``verify_`` IRDL generated for ``cls``, or None.

    IRDL's ``verify_`` is ``op_def.verify(op)`` followed by the class's own
    ``verify_`` (``custom_verify``, None when the class has none), a closure over
    both. A class that replaced it gives None: leave it to xDSL.
    """
    verify_ = cls.verify_
    code = getattr(verify_, "__code__", None)
    if code is None or set(code.co_freevars) not in ({"op_def"}, {"op_def", "custom_verify"}):
        return None
    cells = {name: cell.cell_contents for name, cell in zip(code.co_freevars, verify_.__closure__ or ())}
    op_def = cls.get_irdl_definition()
    if cells.get("op_def") is not op_def:
        return None
    return op_def, cells.get("custom_verify")


def op_type_pattern_types(match_and_rewrite: Any) -> tuple[type[Operation], ...] | None:
    """The op classes an ``op_type_rewrite_pattern`` method is called on, or None.

    The decorator turns the type hint of the op parameter into ``expected_type``
    (a class or a union of classes), held only in the closure of the ``impl``
    it returns, which declines every op that is not an instance of it. A method
    not made by the decorator gives None: it may rewrite any op.
    """
    code = getattr(match_and_rewrite, "__code__", None)
    if code is None or "expected_type" not in code.co_freevars or "func" not in code.co_freevars:
        return None
    cells = dict(zip(code.co_freevars, match_and_rewrite.__closure__ or ()))
    expected = cells["expected_type"].cell_contents
    from typing import Union, get_args, get_origin
    from types import UnionType

    classes = get_args(expected) if get_origin(expected) in (Union, UnionType) else (expected,)
    if not all(isinstance(c, type) and issubclass(c, Operation) for c in classes):
        return None
    return tuple(classes)


# --- walks over the linked lists of ops and blocks ---
#
# xDSL's ``Operation.walk`` nests a generator per op, region and block: each op
# it yields passes through every level above it. These read the linked lists
# directly and return a list (``queries.nested_ops`` and
# ``queries.nested_ops_post_order`` are these).


def nested_ops(op: Operation) -> list[Operation]:
    """``op`` and every op nested in it, in ``op.walk()`` order (pre-order).

    A snapshot: ops inserted or erased afterwards are not reflected.
    """
    found: list[Operation] = []
    append = found.append

    def visit(current: Operation) -> None:
        append(current)
        for region in current.regions:
            block = region._first_block
            while block is not None:
                child = block._first_op
                while child is not None:
                    if child.regions:
                        visit(child)
                    else:
                        append(child)
                    child = child._next_op
                block = block._next_block

    visit(op)
    return found


def nested_ops_post_order(op: Operation, reverse: bool = False) -> list[Operation]:
    """``op`` and every op nested in it, in ``op.walk(region_first=True, reverse=reverse)`` order.

    Nested ops come before the op holding them; with ``reverse``, regions,
    blocks and ops are visited last to first (users before producers). A
    snapshot, as :func:`nested_ops`.
    """
    found: list[Operation] = []
    append = found.append

    def visit(current: Operation) -> None:
        for region in reversed(current.regions) if reverse else current.regions:
            block = region._last_block if reverse else region._first_block
            while block is not None:
                child = block._last_op if reverse else block._first_op
                while child is not None:
                    if child.regions:
                        visit(child)
                    else:
                        append(child)
                    child = child._prev_op if reverse else child._next_op
                block = block._prev_block if reverse else block._next_block
        append(current)

    visit(op)
    return found


# --- the pattern walker's worklist ---


@dataclass(eq=False, repr=False)
class SweepPopulatingWalker(PatternRewriteWalker):
    """A ``PatternRewriteWalker`` whose sweeps start from the ops ``sweep_ops`` lists.

    xDSL's walker fills its worklist at the start of each sweep in the private
    ``_populate_worklist`` (every nested op, pushed so that they pop in walk
    order). A subclass overrides the public ``sweep_ops`` instead: the ops to
    pop first to last, or None for xDSL's own population.
    """

    def sweep_ops(self, op: Operation | Region | Block) -> Sequence[Operation] | None:
        return None

    def _populate_worklist(self, op: Operation | Region | Block) -> None:
        ops = self.sweep_ops(op)
        if ops is None:
            super()._populate_worklist(op)
            return
        push = self._worklist.push
        # The worklist is a stack: pushed last to first, the ops pop in order.
        for sub_op in reversed(ops):
            push(sub_op)


# --- the lexer, the value names and the resource table ---


def patch_string_literal_lexing(pattern: re.Pattern[str], refine: Callable[[Any], Any]) -> None:
    """``MLIRLexer`` matches string literals with ``pattern``, and passes each token it makes through ``refine``.

    xDSL's ``_lex_string_literal`` matches its class attribute
    ``_unescaped_characters_regex`` and makes a string or bytes token.
    """
    from xdsl.utils.mlir_lexer import MLIRLexer

    MLIRLexer._unescaped_characters_regex = pattern
    xdsl_lex = MLIRLexer._lex_string_literal

    def _lex_string_literal(self: MLIRLexer, start_pos: int):
        return refine(xdsl_lex(self, start_pos))

    MLIRLexer._lex_string_literal = _lex_string_literal


def set_name_hint_unchecked(value: SSAValue, name: str | None) -> None:
    """Set ``value.name_hint`` as given.

    The property's setter strips a ``_N`` suffix and refuses "" (so cannot
    clear a name the parser left empty, nor keep a suffix that is part of it).
    """
    value._name = name


def forget_unbacked_resources(interface: Any) -> None:
    """Drop the resource handles without a blob that the builtin dialect's ``OpAsmDialectInterface`` holds.

    xDSL keeps declared handles (``_blob_storage``, handle -> blob) for the
    whole process and exposes no way to forget one.
    """
    storage = interface._blob_storage
    for key in [k for k, v in storage.items() if not v]:
        del storage[key]
