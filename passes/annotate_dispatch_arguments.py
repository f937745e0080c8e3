"""``iree-stream-annotate-dispatch-arguments``: what every dispatch site passes, as argument attributes.

For each export, the pass looks at the operands and resource offsets of all
its ``stream.cmd.dispatch`` sites and annotates the function's arguments:

* an operand that is a constant (or a choice of constants) at every site gets
  ``stream.values = [...]`` with the values, sorted; an ``index`` operand whose
  potential values have a common power-of-two alignment also gets
  ``stream.alignment`` (a value of 0 says nothing about alignment);
* each binding gets ``stream.alignment``: the common alignment of its offsets
  at all sites, which for offsets nothing is known about (or 0) is the
  natural alignment of a resource, IREE's minimum buffer offset alignment (64).

After ``iree-stream-fuse-dispatch-bindings`` the walkthrough's matmul gets
``%arg0: !stream.binding {stream.alignment = 64 : index}`` and
``%arg2: index {stream.values = [0 : index]}`` for the LHS offset, which is 0
at its only site. Potential values are found as IREE's ``ValuePVS`` finds
them: constants, ``arith.select`` of known values, and loads of immutable
``util.global``s with an integer initial value; anything else may be any value.

Left alone: exports without ``stream.cmd.dispatch`` sites or functions.

Source: IREE ``compiler/src/iree/compiler/Dialect/Stream/Transforms/AnnotateDispatchArguments.cpp``.
"""

from __future__ import annotations

from dataclasses import dataclass

from mini_iree.compiler.analysis.dispatch_sites import (
    export_dispatch_sites,
    exported_function,
)
from mini_iree.dialects import stream, util
from xdsl.context import Context
from xdsl.dialects import arith, func
from xdsl.dialects.builtin import (
    ArrayAttr,
    DictionaryAttr,
    IndexType,
    IntegerAttr,
    IntegerType,
    ModuleOp,
)
from xdsl.ir import Attribute, OpResult, SSAValue
from xdsl.passes import ModulePass
from mini_iree.dialects.symbols import lookup_symbol

__all__ = ["AnnotateDispatchArgumentsPass", "potential_values"]

# IREE's default `#stream.resource_config`: the natural alignment of a resource.
_MIN_BUFFER_OFFSET_ALIGNMENT = 64


def potential_values(value: SSAValue, seen: frozenset[SSAValue] = frozenset()) -> set[int] | None:
    """IREE's ``ValuePVS``: the constants ``value`` may be, or None when it may be anything."""
    if not isinstance(value, OpResult) or value in seen:
        return None
    op = value.op
    if isinstance(op, arith.ConstantOp):
        attr = op.value
        return {attr.value.data} if isinstance(attr, IntegerAttr) else None
    if isinstance(op, arith.SelectOp):
        lhs = potential_values(op.lhs, seen | {value})
        rhs = potential_values(op.rhs, seen | {value})
        return lhs | rhs if lhs is not None and rhs is not None else None
    if isinstance(op, util.GlobalLoadOp):
        global_op = lookup_symbol(op, op.global_)
        if isinstance(global_op, util.GlobalOp) and global_op.is_mutable is None:
            initial = global_op.initial_value
            return {initial.value.data} if isinstance(initial, IntegerAttr) else None
    return None


def _alignment(values: set[int] | None) -> int | None:
    """The common power-of-two alignment of potential values (None: nothing known or only zeros)."""
    if values is None:
        return None
    alignments = [v & -v for v in values if v != 0]
    return min(alignments) if alignments else None


def _set_arg_attr(function: func.FuncOp, index: int, name: str, value: Attribute) -> None:
    count = len(function.function_type.inputs.data)
    attrs = list(function.arg_attrs.data) if function.arg_attrs is not None else [DictionaryAttr({})] * count
    attrs[index] = DictionaryAttr({**attrs[index].data, name: value})
    function.arg_attrs = ArrayAttr(attrs)


def _annotate(function: func.FuncOp, sites: list[stream.CmdDispatchOp]) -> None:
    types = function.function_type.inputs.data
    operand_args = [i for i, t in enumerate(types) if not isinstance(t, stream.BindingType)]
    resource_args = [i for i, t in enumerate(types) if isinstance(t, stream.BindingType)]
    if any(len(s.uniform_operands) != len(operand_args) or len(s.resources) != len(resource_args) for s in sites):
        return  # a malformed site; the dispatch verifier and materialize-interfaces report it
    for operand_index, arg_index in enumerate(operand_args):
        arg_type = types[arg_index]
        union: set[int] | None = set()
        for site in sites:
            values = potential_values(site.uniform_operands[operand_index])
            union = union | values if union is not None and values is not None else None
        if union is not None and isinstance(arg_type, IndexType | IntegerType):
            # Sorted as unsigned numbers, as IREE sorts them (`ult`).
            attrs = [IntegerAttr(v, arg_type) for v in sorted(union, key=lambda v: v % (1 << 64))]
            _set_arg_attr(function, arg_index, "stream.values", ArrayAttr(attrs))
        if isinstance(arg_type, IndexType) and (alignment := _alignment(union)) is not None:
            _set_arg_attr(function, arg_index, "stream.alignment", IntegerAttr(alignment, IndexType()))
    for resource_index, arg_index in enumerate(resource_args):
        alignments = [_alignment(potential_values(s.resource_offsets[resource_index])) for s in sites]
        known = [a for a in alignments if a is not None]
        alignment = min(known) if known else _MIN_BUFFER_OFFSET_ALIGNMENT
        _set_arg_attr(function, arg_index, "stream.alignment", IntegerAttr(alignment, IndexType()))


@dataclass(frozen=True)
class AnnotateDispatchArgumentsPass(ModulePass):
    """Annotates dispatch function arguments with the values and alignments all dispatch sites pass."""

    name = "iree-stream-annotate-dispatch-arguments"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        sites = export_dispatch_sites(op, lambda o: isinstance(o, stream.CmdDispatchOp))
        for executable in op.ops:
            if not isinstance(executable, stream.ExecutableOp):
                continue
            for export in executable.body.block.ops:
                if not isinstance(export, stream.ExecutableExportOp) or export not in sites:
                    continue
                function = exported_function(export)
                if function is not None and function.body.blocks:
                    _annotate(function, sites[export])  # type: ignore[arg-type]
