"""``iree-hal-materialize-interfaces``: stream executables become HAL executables with explicit interfaces.

Each ``stream.executable`` becomes a ``hal.executable`` with one
``hal.executable.variant`` per executable target of the devices that dispatch
it (the dispatch sites' affinities name ``util.global @__device_N =
#hal.device.target<...>``; variants are named after the target format and
sorted by that name). Each export becomes a ``hal.executable.export`` with an
ordinal, a ``#hal.pipeline.layout`` and its workgroup count region (which gains
a leading ``!hal.device`` argument and ends in ``hal.return``); its function,
cloned into every variant, loses its arguments:

* each ``i32`` argument becomes ``hal.interface.constant.load layout(...)
  ordinal(N) : i32`` (N counts the non-binding arguments);
* each ``!stream.binding`` argument's ``stream.binding.subspan`` becomes
  ``hal.interface.binding.subspan layout(...) binding(N) alignment(A)
  offset(%off) flags(F)`` with the same result type and dynamic dims.

The layout has one constant per i32 argument and one ``storage_buffer``
binding per binding argument, flagged ``ReadOnly`` when some dispatch site
does not write it and ``Indirect`` when the bound resource is a dynamic value
(not a constant or an immutable global load); the layout is ``flags =
Indirect`` when any binding is. Dispatch sites then name the variant exports:
``@ex::@rocm_hsaco_fb::@fn`` (one entry per variant the site's device runs).

Dispatch sites are ``stream.cmd.dispatch`` ops, as in IREE, after stream
allocation and ``iree-stream-fuse-dispatch-bindings`` (walkthrough dump 18: the
matmul's LHS and RHS share ``binding(0)``, the RHS at ``offset(%35#0)``), or the
``stream.async.dispatch`` ops of a program not yet allocated, whose resources
each get their own binding. A binding's ``alignment`` comes from the function
argument's ``stream.alignment`` (``iree-stream-annotate-dispatch-arguments``) as
in IREE; a binding without one gets the alignment that pass would annotate:
the resource offsets' common power-of-two alignment at all dispatch sites, 64
(IREE's minimum buffer offset alignment) when every offset is 0.

Refused with an error: dispatch sites without any device global in the module,
function arguments other than ``!stream.binding``/``i32`` (run
``iree-stream-pack-dispatch-operands`` first), bindings used by anything but
``stream.binding.subspan``, executables still dispatched by
``stream.tensor.dispatch``. Left alone: executables without exports, and
private executables without dispatch sites on a known device (public ones get
a variant for every target of every device, as in IREE).

Source: IREE ``compiler/src/iree/compiler/Dialect/HAL/Transforms/MaterializeInterfaces.cpp`` and
``Dialect/HAL/Analysis/BindingLayout.cpp``.
"""

from __future__ import annotations

from dataclasses import dataclass

from mini_iree.compiler.analysis.device_analysis import DeviceAnalysis
from mini_iree.compiler.analysis.dispatch_sites import (
    DispatchResource,
    dispatch_ops,
    export_dispatch_sites,
    exported_function,
    resources,
)
from mini_iree.compiler.analysis.integer_facts import IntegerFacts
from mini_iree.compiler.ir.diagnostics import OpError
from mini_iree.compiler.ir.locations import give_location, is_unknown
from mini_iree.dialects import hal, stream, util
from xdsl.context import Context
from xdsl.dialects import func
from xdsl.dialects.builtin import (
    ArrayAttr,
    FunctionType,
    IntegerAttr,
    IntegerType,
    ModuleOp,
    SymbolRefAttr,
)
from xdsl.ir import Attribute, Operation, OpResult, Region, SSAValue
from xdsl.passes import ModulePass
from xdsl.rewriter import InsertPoint, Rewriter
from xdsl.traits import ConstantLike
from mini_iree.dialects.symbols import lookup_symbol

__all__ = ["MaterializeInterfacesPass", "derive_pipeline_layout"]

_NO_DEVICES = (
    "no HAL devices defined in the module; use the module-level hal.device.targets attribute, "
    "the --iree-hal-target-device= flag, or provide inputs with global !hal.devices defined"
)

# IREE's default `#stream.resource_config`: `--iree-stream-resource-min-offset-alignment=64`.
_MIN_BUFFER_OFFSET_ALIGNMENT = 64
# Alignment of an offset known to be 0 ("natural"; IREE's kMaximumAlignment).
_NATURAL = 1 << 32


# ---------------------------------------------------------------------------
# Pipeline layouts (IREE's BindingLayoutAnalysis)
# ---------------------------------------------------------------------------


def _is_static_origin(value: SSAValue) -> bool:
    """IREE's ``categorizeValue``: a local constant or an immutable global load (else the binding is Indirect)."""
    if not isinstance(value, OpResult):
        return False
    op = value.op
    if op.has_trait(ConstantLike):
        return True
    if isinstance(op, util.GlobalLoadOp):
        global_op = lookup_symbol(op, op.global_)
        return isinstance(global_op, util.GlobalOp) and global_op.is_mutable is None
    return False


def _resources(site: Operation) -> list[DispatchResource]:
    """The resources a dispatch site binds, in binding order (``stream.cmd.dispatch``: as it lists them)."""
    if isinstance(site, stream.CmdDispatchOp):
        return [DispatchResource(value, access) for value, access in zip(site.resources, site.accesses)]
    return resources(site)  # type: ignore[arg-type]


def _resource_offsets(site: Operation) -> list[SSAValue | None]:
    """Each binding's byte offset at a site (results of ``stream.async.dispatch`` are bound at 0: None)."""
    if isinstance(site, stream.CmdDispatchOp):
        return list(site.resource_offsets)
    offsets = iter(site.resource_operand_offsets)  # type: ignore[attr-defined]
    return [next(offsets) if r.access != "wo" else None for r in resources(site)]  # type: ignore[arg-type]


def _site_resources(export: Operation, site: Operation, count: int) -> list[DispatchResource]:
    bound = _resources(site)
    if len(bound) != count:
        name = export.sym_name.data  # type: ignore[attr-defined]
        raise OpError(site, f"binds {len(bound)} resources but @{name} takes {count} bindings")
    return bound


def derive_pipeline_layout(
    export: stream.ExecutableExportOp, function: func.FuncOp, sites: list[Operation]
) -> hal.PipelineLayoutAttr:
    """The layout of an export: an explicit ``hal.interface.layout``, else derived from its function and sites."""
    forced = export.attributes.get("hal.interface.layout")
    if isinstance(forced, hal.PipelineLayoutAttr):
        return forced
    arg_types = function.function_type.inputs.data
    binding_count = sum(1 for t in arg_types if isinstance(t, stream.BindingType))
    constant_count = len(arg_types) - binding_count
    flags = [hal.DescriptorFlags.NONE] * binding_count
    for site in sites:
        for index, resource in enumerate(_site_resources(export, site, binding_count)):
            # A dispatch in a region that may run more than once binds dynamic
            # resources indirectly; mini-iree has no once-only execution regions.
            if not _is_static_origin(resource.value):
                flags[index] |= hal.DescriptorFlags.INDIRECT
            if not resource.is_written:
                flags[index] |= hal.DescriptorFlags.READ_ONLY
    layout_flags = hal.PipelineLayoutFlags.NONE
    if any(f & hal.DescriptorFlags.INDIRECT for f in flags):
        layout_flags = hal.PipelineLayoutFlags.INDIRECT
    bindings = [hal.PipelineBindingAttr(hal.DescriptorType.STORAGE_BUFFER, f) for f in flags]
    return hal.PipelineLayoutAttr(bindings, constant_count, layout_flags)


def _offset_alignment(facts: IntegerFacts, offset: SSAValue | None) -> int | None:
    """The power-of-two alignment of a resource offset (``_NATURAL`` for 0), or None if unknown."""
    if offset is None:
        return _NATURAL
    divisor = facts.divisor(offset)
    if divisor == 0:
        return _NATURAL
    if divisor == 1 and (known := facts.range(offset)) is not None and known.umax == 0:
        return _NATURAL
    alignment = divisor & -divisor  # the lowest set bit
    return alignment if alignment > 1 else None


def _binding_alignments(facts: IntegerFacts, sites: list[Operation], count: int) -> list[int | None]:
    """What ``iree-stream-annotate-dispatch-arguments`` would put in each binding's ``stream.alignment``."""
    alignments: list[int | None] = [_NATURAL] * count
    for site in sites:
        for index, offset in enumerate(_resource_offsets(site)):
            alignment = _offset_alignment(facts, offset)
            current = alignments[index]
            alignments[index] = None if alignment is None or current is None else min(current, alignment)
    return [_MIN_BUFFER_OFFSET_ALIGNMENT if a == _NATURAL else a for a in alignments]


# ---------------------------------------------------------------------------
# Interface functions
# ---------------------------------------------------------------------------


def _verify_entry_point_types(function: func.FuncOp) -> None:
    for index, type_ in enumerate(function.function_type.inputs.data):
        if isinstance(type_, stream.BindingType) or type_ == IntegerType(32):
            continue
        raise OpError(
            function,
            f"unsupported interface function argument {index} type {type_}; "
            "requires !stream.binding or i32 operands only",
            prefix_op_name=False,
        )


def _arg_attr(function: func.FuncOp, index: int, name: str) -> Attribute | None:
    if function.arg_attrs is None:
        return None
    return function.arg_attrs.data[index].data.get(name)


def _clone_function_with_interface(
    function: func.FuncOp, layout: hal.PipelineLayoutAttr, fallback_alignments: list[int | None]
) -> func.FuncOp:
    """IREE's ``cloneFuncWithInterface``: the function with its arguments turned into interface ops."""
    clone = function.clone()
    block = clone.body.block
    point = InsertPoint.at_start(block)
    # Push constants first so that binding offsets and sizes may use them.
    constant_ordinal = 0
    for arg in block.args:
        if isinstance(arg.type, stream.BindingType):
            continue
        alignment = _arg_attr(function, arg.index, "stream.alignment")
        values = _arg_attr(function, arg.index, "stream.values")
        load = hal.InterfaceConstantLoadOp(
            layout,
            constant_ordinal,
            arg.type,
            alignment=alignment.value.data if isinstance(alignment, IntegerAttr) else None,
            values=values if isinstance(values, ArrayAttr) else None,
        )
        load.location = arg.location if not is_unknown(arg.location) else function.location
        Rewriter.insert_op(load, point)
        arg.replace_all_uses_with(load.result)
        load.result.name_hint = None
        constant_ordinal += 1
    binding_ordinal = 0
    for arg in block.args:
        if not isinstance(arg.type, stream.BindingType):
            continue
        alignment_attr = _arg_attr(function, arg.index, "stream.alignment")
        alignment = (
            alignment_attr.value.data
            if isinstance(alignment_attr, IntegerAttr)
            else fallback_alignments[binding_ordinal]
        )
        flags = layout.bindings.data[binding_ordinal].descriptor_flags
        for use in list(arg.uses):
            old = use.operation
            if not isinstance(old, stream.BindingSubspanOp):
                raise OpError(old, "uses a !stream.binding; bindings are only usable by stream.binding.subspan")
            new = hal.InterfaceBindingSubspanOp(
                old.result.type,
                layout,
                binding_ordinal,
                old.byte_offset,
                list(old.dynamic_dims),
                alignment=alignment,
                flags=flags,
            )
            new.location = old.location
            Rewriter.replace_op(old, new)
            new.result.name_hint = None
        binding_ordinal += 1
    for arg in list(block.args):
        block.erase_arg(arg)
    clone.function_type = FunctionType.from_lists([], clone.function_type.outputs.data)
    clone.arg_attrs = None
    return clone


def _clone_workgroup_count(export: stream.ExecutableExportOp) -> Region:
    """The export's workgroup count region with a leading ``!hal.device`` and ``hal.return``."""
    if not export.workgroup_count.blocks:
        return Region()
    region = export.workgroup_count.clone()
    block = region.block
    for arg in block.args:
        arg.name_hint = None  # renumbered with the new device argument
    if not any(isinstance(t, hal.DeviceType) for t in block.arg_types):
        block.insert_arg(hal.DeviceType(), 0).location = export.location
    for op in list(region.walk()):
        if isinstance(op, stream.ReturnOp):
            new_return = hal.ReturnOp(list(op.values))
            new_return.location = op.location
            Rewriter.replace_op(op, new_return)
    return region


# ---------------------------------------------------------------------------
# Executables
# ---------------------------------------------------------------------------


def _sort_targets(targets: list[hal.ExecutableTargetAttr]) -> list[hal.ExecutableTargetAttr]:
    return sorted(targets, key=lambda t: t.symbol_name_fragment())


def _unique_name(name: str, taken: set[str]) -> str:
    """MLIR's ``SymbolTable::insert`` renaming: ``name``, else ``name_0``, ``name_1``, ..."""
    if name not in taken:
        return name
    counter = 0
    while f"{name}_{counter}" in taken:
        counter += 1
    return f"{name}_{counter}"


@dataclass
class _Materializer:
    module: ModuleOp
    devices: DeviceAnalysis
    sites: dict[Operation, list[Operation]]
    facts: IntegerFacts

    def required_targets(self, executable: stream.ExecutableOp) -> list[hal.ExecutableTargetAttr]:
        targets: list[hal.ExecutableTargetAttr] = []
        for export in executable.body.block.ops:
            for site in self.sites.get(export, []):
                for target in self.devices.required_executable_targets(site):
                    if target not in targets:
                        targets.append(target)
        if executable.sym_visibility is None or executable.sym_visibility.data == "public":
            # Public executables need all possible targets.
            targets += [t for t in self.devices.all_executable_targets() if t not in targets]
        return targets

    def materialize(self, executable: stream.ExecutableOp) -> None:
        exports = [op for op in executable.body.block.ops if isinstance(op, stream.ExecutableExportOp)]
        if not exports:
            return
        targets = self.required_targets(executable)
        if not targets:
            return
        name = executable.sym_name.data
        visibility = executable.sym_visibility.data if executable.sym_visibility is not None else None
        hal_executable = hal.ExecutableOp(name, visibility)
        give_location(hal_executable, executable)
        Rewriter.insert_op(hal_executable, InsertPoint.after(executable))
        inner_module = next((op for op in executable.body.block.ops if op.name == "builtin.module"), None)
        variants: list[hal.ExecutableVariantOp] = []
        taken: set[str] = set()
        for target in _sort_targets(targets):
            variant_name = _unique_name(target.symbol_name_fragment(), taken)
            taken.add(variant_name)
            variant = hal.ExecutableVariantOp(variant_name, target, "public")
            if inner_module is not None:
                variant.add_op(ModuleOp([]))
            give_location(variant, executable)
            hal_executable.add_op(variant)
            variants.append(variant)

        interface_functions: dict[Operation, func.FuncOp] = {}
        for ordinal, export in enumerate(exports):
            function = exported_function(export)
            if function is None:
                raise OpError(export, f"refers to a function @{export.function_ref.root_reference.data} it cannot find")
            _verify_entry_point_types(function)
            sites = self.sites.get(export, [])
            layout = derive_pipeline_layout(export, function, sites)
            alignments = _binding_alignments(self.facts, sites, len(layout.bindings.data))
            function_name = export.function_ref.root_reference.data
            expansions: list[tuple[SymbolRefAttr, hal.ExecutableTargetAttr]] = []
            for variant in variants:
                new_export = hal.ExecutableExportOp(function_name, layout, ordinal, _clone_workgroup_count(export))
                give_location(new_export, export)
                # IREE builds each export at the start of the variant, so several
                # exports end up in reverse order (ordinals keep the source order).
                Rewriter.insert_op(new_export, InsertPoint.at_start(variant.body.block))
                ref = SymbolRefAttr(name, [variant.sym_name.data, function_name])
                expansions.append((ref, variant.target))
            interface_functions[function] = _clone_function_with_interface(function, layout, alignments)
            old_ref = SymbolRefAttr(name, [export.sym_name.data])
            for site in sites:
                self.update_dispatch_targets(site, old_ref, expansions)

        # Every variant gets the inner module's ops in order, exported
        # functions in their interface form.
        if inner_module is not None:
            for variant in variants:
                target_module = variant.inner_module
                assert target_module is not None
                for op in inner_module.regions[0].block.ops:
                    replacement = interface_functions.get(op, op)
                    target_module.regions[0].block.add_op(replacement.clone())
        Rewriter.erase_op(executable)

    def update_dispatch_targets(
        self, site: Operation, old_ref: SymbolRefAttr, expansions: list[tuple[SymbolRefAttr, hal.ExecutableTargetAttr]]
    ) -> None:
        """IREE's ``updateDispatchTargets``: the old entry point becomes the variants the site's device runs."""
        required = self.devices.required_executable_targets(site)
        new_refs: list[SymbolRefAttr] = []
        for ref in site.entry_points.data:  # type: ignore[attr-defined]
            if ref != old_ref:
                new_refs.append(ref)
                continue
            new_refs += [new for new, target in expansions if not required or target in required]
        site.entry_points = ArrayAttr(new_refs)  # type: ignore[attr-defined]


def _check_only_async_dispatches(module: ModuleOp, executables: set[str]) -> None:
    """Executables must be reached through ``stream.cmd.dispatch`` or ``stream.async.dispatch`` only."""
    for op in module.walk():
        if isinstance(op, stream.AsyncDispatchOp | stream.CmdDispatchOp):
            continue
        refs = op.properties.get("entry_points")
        if not isinstance(refs, ArrayAttr):
            continue
        for ref in refs.data:
            if isinstance(ref, SymbolRefAttr) and ref.root_reference.data in executables:
                raise OpError(
                    op,
                    f"dispatches {ref}; iree-hal-materialize-interfaces only rewrites stream.async.dispatch "
                    "and stream.cmd.dispatch (run iree-stream-encode-host-tensors first)",
                )


@dataclass(frozen=True)
class MaterializeInterfacesPass(ModulePass):
    """Replaces each dispatched ``stream.executable`` by a ``hal.executable`` with one variant per target."""

    name = "iree-hal-materialize-interfaces"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        devices = DeviceAnalysis(op)
        has_dispatches = next(dispatch_ops(op), None) is not None or any(
            isinstance(o, stream.CmdDispatchOp) for o in op.walk()
        )
        if has_dispatches and not devices.device_globals:
            raise OpError(op, _NO_DEVICES, prefix_op_name=False)
        executables = [e for e in op.ops if isinstance(e, stream.ExecutableOp)]
        _check_only_async_dispatches(op, {e.sym_name.data for e in executables})
        materializer = _Materializer(op, devices, export_dispatch_sites(op), IntegerFacts())
        for executable in executables:
            materializer.materialize(executable)
