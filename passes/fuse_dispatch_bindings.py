"""``iree-stream-fuse-dispatch-bindings``: one binding per resource, offsets as operands.

For each export, the pass looks at all its ``stream.cmd.dispatch`` sites and
fuses the bindings that are the same resource at every site into one binding
over the whole resource; each original binding's byte offset becomes a new
index operand (inserted before the other operands) and is added to the
offset of its ``stream.binding.subspan`` ops in the function. The
walkthrough's matmul reads its LHS and RHS from one transient allocation:

    stream.cmd.dispatch @matmul...(%0, %1, %6, %7 : ...) {
      ro %arg3[%c0 for %17] : ..., ro %arg3[%17 for %23] : ..., wo %arg2[%c0 for %25] : ...
    }
  ->
    stream.cmd.dispatch @matmul...(%c0, %17, %c0, %0, %1, %6, %7 : ...) {
      ro %arg3[%c0 for %26] : !stream.resource<transient>{%26}, wo %arg2[%c0 for %25] : ...
    }

    func.func @matmul...(%arg0: !stream.binding, %arg1: !stream.binding, %arg2: index, %arg3: index,
                         %arg4: index, ...)   // binding(0) at offset %arg2 and %arg3

Bindings written by the dispatch are never fused with others (IREE's default
``alias-mutable-bindings = false``); a fused binding's access is the union of
its parts' (``ro`` + ``wo`` = ``rw``). Every binding is rebased to offset 0
(and its range widened to the whole resource) even when nothing fuses, as in
IREE. Left alone: exports without ``stream.cmd.dispatch`` sites or functions.

Source: IREE ``compiler/src/iree/compiler/Dialect/Stream/Transforms/FuseDispatchBindings.cpp``.
"""

from __future__ import annotations

from dataclasses import dataclass

from mini_iree.compiler.analysis.dispatch_sites import (
    export_dispatch_sites,
    exported_function,
)
from mini_iree.compiler.ir.constants import is_constant_int
from mini_iree.compiler.ir.locations import fused_location
from mini_iree.dialects import stream
from xdsl.context import Context
from xdsl.dialects import arith, func
from xdsl.dialects.builtin import (
    ArrayAttr,
    DictionaryAttr,
    FunctionType,
    IndexType,
    IntegerAttr,
    ModuleOp,
)
from xdsl.ir import Operation, SSAValue
from xdsl.passes import ModulePass
from xdsl.rewriter import InsertPoint, Rewriter

__all__ = ["FuseDispatchBindingsPass"]

_ACCESS_BITS = {"ro": 1, "wo": 2, "rw": 3}
_ACCESS_NAMES = {1: "ro", 2: "wo", 3: "rw"}


def _correlated_bindings(sites: list[stream.CmdDispatchOp], alias_mutable: bool) -> list[list[int]]:
    """IREE's ``findCorrelatedBindings``: groups of binding indices that are one resource at every site."""
    count = len(sites[0].resources)
    # Per site, each binding's class: the first binding of the same (aliasable) resource.
    classes: list[list[int]] = []
    for site in sites:
        leaders: dict[SSAValue, int] = {}
        site_classes: list[int] = []
        for index, (resource, access) in enumerate(zip(site.resources, site.accesses)):
            if not alias_mutable and _ACCESS_BITS[access] & 2:
                site_classes.append(index)
                continue
            site_classes.append(leaders.setdefault(resource, index))
        classes.append(site_classes)
    groups: list[list[int]] = []
    handled: set[int] = set()
    for i in range(count):
        if i in handled:
            continue
        group = [j for j in range(count) if all(c[j] == c[i] for c in classes)]
        handled.update(group)
        groups.append(group)
    return groups


def _update_function(function: func.FuncOp, groups: list[list[int]]) -> None:
    """IREE's ``updateExecutableSignature``: new bindings first, then one offset per old binding."""
    block = function.body.block
    old_bindings = [a for a in block.args if isinstance(a.type, stream.BindingType)]
    old_attrs = function.arg_attrs.data if function.arg_attrs is not None else None
    old_types = list(function.function_type.inputs.data)
    new_bindings = []
    for position, group in enumerate(groups):
        arg = block.insert_arg(stream.BindingType(), position)
        arg.location = fused_location(old_bindings[i].location for i in group)
        new_bindings.append(arg)
    offset_position = len(groups)
    for binding, group in zip(new_bindings, groups):
        for old_index in group:
            old = old_bindings[old_index]
            offset = block.insert_arg(IndexType(), offset_position)
            offset.location = binding.location
            offset_position += 1
            for use in list(old.uses):
                subspan = use.operation
                if isinstance(subspan, stream.BindingSubspanOp):
                    total: SSAValue = offset
                    if not is_constant_int(subspan.byte_offset, 0):
                        add = arith.AddiOp(subspan.byte_offset, offset)
                        add.location = binding.location
                        Rewriter.insert_op(add, InsertPoint.before(subspan))
                        total = add.result
                    subspan.operands = [subspan.binding, total, *subspan.dynamic_dims]
                use.operation.operands = [binding if v is old else v for v in use.operation.operands]
    for old in old_bindings:
        block.erase_arg(old)
    for arg in block.args:
        arg.name_hint = None
    function.function_type = FunctionType.from_lists(list(block.arg_types), function.function_type.outputs.data)
    if old_attrs is not None:
        # Scalar arguments keep their attributes; the new bindings and offsets have none.
        scalar_attrs = [a for a, t in zip(old_attrs, old_types) if not isinstance(t, stream.BindingType)]
        new_attrs = [DictionaryAttr({})] * offset_position + scalar_attrs
        function.arg_attrs = ArrayAttr(new_attrs) if any(a.data for a in new_attrs) else None


def _update_site(site: stream.CmdDispatchOp, groups: list[list[int]], zeros: dict[Operation, SSAValue]) -> None:
    """IREE's ``updateDispatchSite``: whole-resource bindings, the old offsets as leading operands."""
    execute = site.parent_op()
    while execute is not None and not isinstance(execute, stream.CmdExecuteOp):
        execute = execute.parent_op()
    anchor = execute if execute is not None else site
    if anchor not in zeros:
        zero = arith.ConstantOp(IntegerAttr(0, IndexType()))
        zero.location = site.location
        Rewriter.insert_op(zero, InsertPoint.before(anchor))
        zeros[anchor] = zero.result
    zero = zeros[anchor]
    accesses = site.accesses
    resources, sizes, offsets, lengths, new_accesses, operands = [], [], [], [], [], []
    for group in groups:
        first = group[0]
        resources.append(site.resources[first])
        sizes.append(site.resource_sizes[first])
        bits = 0
        for index in group:
            bits |= _ACCESS_BITS[accesses[index]]
            operands.append(site.resource_offsets[index])
        new_accesses.append(_ACCESS_NAMES[bits])
        offsets.append(zero)
        lengths.append(site.resource_sizes[first])
    operands += list(site.uniform_operands)
    new = stream.CmdDispatchOp(
        list(site.entry_points.data), site.workload, operands, resources, sizes, offsets, lengths, new_accesses
    )
    new.attributes |= site.attributes
    new.location = site.location
    Rewriter.replace_op(site, new)


@dataclass(frozen=True)
class FuseDispatchBindingsPass(ModulePass):
    """Fuses bindings of one resource into one binding per resource, passing their offsets as operands.

    ``alias-mutable-bindings``: also fuse bindings the dispatch writes (IREE's
    ``--iree-stream-resource-alias-mutable-bindings``, false by default).
    """

    name = "iree-stream-fuse-dispatch-bindings"

    alias_mutable_bindings: bool = False

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        sites = export_dispatch_sites(op, lambda o: isinstance(o, stream.CmdDispatchOp))
        zeros: dict[Operation, SSAValue] = {}
        for executable in op.ops:
            if not isinstance(executable, stream.ExecutableOp):
                continue
            for export in executable.body.block.ops:
                if not isinstance(export, stream.ExecutableExportOp) or export not in sites:
                    continue
                function = exported_function(export)
                dispatches: list[stream.CmdDispatchOp] = sites[export]  # type: ignore[assignment]
                if function is None or not function.body.blocks:
                    continue
                bindings = sum(1 for t in function.function_type.inputs.data if isinstance(t, stream.BindingType))
                if any(len(d.resources) != bindings or len(d.entry_points.data) != 1 for d in dispatches):
                    continue
                groups = _correlated_bindings(dispatches, self.alias_mutable_bindings)
                _update_function(function, groups)
                for dispatch in dispatches:
                    _update_site(dispatch, groups, zeros)
