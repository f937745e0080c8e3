"""The one place that reads xDSL 0.74's private attributes.

mini-iree's fast paths (the incremental verifier, the format printer, IR walks
over the linked lists) read a few of xDSL's internals instead of the public
properties, which build a fresh view object per call. Every such read goes
through a name defined here, so an xDSL upgrade that renames one breaks here,
and `test/ir/test_xdsl_internals.py` (the canary) fails loudly naming it,
instead of the fast paths silently falling back to slow ones.

The accessors are `operator.attrgetter`s: a C-level call, cheap enough for the
verifier's inner loops.
"""

from __future__ import annotations

from operator import attrgetter
from typing import Any

from xdsl.ir import Operation

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
