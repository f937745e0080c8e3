"""``iree-stream-specialize-encodings``: each device's resolver serializes the encodings of stream tensor ops.

After ``iree-stream-conversion`` every tensor-phase op says where it runs
(``on(#hal.device.affinity<@__device_0>)``) and still carries the verbose
``#iree_encoding.encoding<...>`` chosen at dispatch creation. This pass looks
the affinity's device up (``util.global @__device_0 = #hal.device.target<...>``),
asks the ``iree.encoding.resolver`` of each of its executable targets for a
layout and replaces the encoding with the serialized one,
``#iree_encoding.layout<[<one layout per target>]>``. Then the host knows how
many bytes an encoded tensor takes and which relayout to run.

What is rewritten (IREE's ``StreamTensorOpUpdater``):

* ``stream.tensor.sizeof`` and both sides of ``stream.tensor.encode``: by the
  op's own affinity;
* ``stream.tensor.dispatch``: each operand by the affinity of the resource it
  reads (where it was produced or transferred to), each result by the
  dispatch's affinity; then the ``stream.binding.subspan`` types of the
  executable take the operand/result layouts. Ops *inside* the executable
  (``dispatch.tensor.load`` results, ``set/unset_encoding``) keep the verbose
  encoding, which codegen materializes later. When one export is dispatched
  with different binding layouts (two devices), the executable is duplicated
  (``@ex``, ``@ex_dup0``, ...) and each dispatch site points at its copy;
* ``stream.tensor.constant`` (and clone/slice/update, when the dialect has
  them) must already be serialized or carry an encoding no interface knows;
  otherwise the pass fails, as IREE does.

Left alone: ops without an affinity, encodings that are not serializable
(``#iree_encoding.unknown``), encodings already serialized
(``#iree_encoding.layout``, ``testing<[...]>``), ``stream.tensor.import/export``
(IREE does not specialize them either), dispatches whose executable cannot be
updated (a binding used by something other than ``stream.binding.subspan``).

Resolvers, per executable target, as IREE's HAL interface gives them (each
asked through ``compiler/resolvers``' interface, ``registry.resolver_of``):

* ``#iree_cpu.cpu_encoding_resolver``/``vmvx_encoding_resolver``/
  ``#iree_gpu.gpu_encoding_resolver``: the CPU tile tables, the GPU
  data-tiled MMA; the option ``gpu-era`` picks the walkthrough's GPU
  heuristics or IREE 3.13's (``{gpu-era=3.13}``: 3.13's unrolling and
  swizzle, with the ``1 : i8`` distribution factor on every CrossThread dim);
  by default the run's era (``compiler/era.py``);
* no ``iree.encoding.resolver`` (or a value that is no resolver):
  ``#iree_encoding.identity_resolver``, i.e. ``#iree_encoding.identity``;
* ``#iree_encoding.specialization_resolver<N>``: ``specialized<N, type>``;
  ``#iree_encoding.unsupported_resolver``: no layout, an error
  ("failed to resolve recognized layout");
* ``#iree_gpu.gpu_padding_resolver``: ``compiler/resolvers/padding.py``,
  configured with the target's L1 cache; ``#iree_encoding.padding<[0, ?]>``
  becomes ``#iree_encoding.layout<[#iree_encoding.padding<[0, 64]>]>`` (the
  pad that moves each row to another cache set), a static padding stays as it
  is, and other encodings have no layout ("failed to resolve recognized
  layout") unless the target has no known L1 cache (then ``padding<[0, 0]>``).

Which implementation answers for a resolver attribute is the registry's
business (``compiler/resolvers/registry.py``); this pass only asks each
resolver for the layout of a type.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from xdsl.context import Context
from xdsl.dialects.builtin import ArrayAttr, ModuleOp, NoneAttr, StringAttr, SymbolRefAttr, TensorType
from xdsl.ir import Attribute, BlockArgument, Operation, SSAValue
from xdsl.passes import ModulePass
from xdsl.rewriter import Rewriter
from xdsl.traits import SymbolTable

from mini_iree.compiler.analysis.device_analysis import DeviceAnalysis
from mini_iree.compiler.analysis.dispatch_sites import exported_function
from mini_iree.compiler.analysis.functions import FUNCTION_LIKE, functions
from mini_iree.compiler.era import EraProfile, option_era, run_era
from mini_iree.compiler.ir.diagnostics import OpError
from mini_iree.compiler.resolvers.interface import LayoutResolver
from mini_iree.dialects import iree_encoding, stream, util
from mini_iree.dialects.iree_tensor_ext import DispatchTensorTypeBase

__all__ = ["SpecializeEncodingsPass"]


# ===----------------------------------------------------------------------=== #
# Encodings: recognized, serialized, resolved
# ===----------------------------------------------------------------------=== #


def _is_recognized(type_: Attribute) -> bool:
    """A ranked tensor whose encoding implements SerializableAttr (IREE's isRecognizedEncodingType)."""
    return isinstance(type_, TensorType) and iree_encoding.is_serializable_encoding(type_.encoding)


def _is_unrecognized_or_serialized(type_: Attribute) -> bool:
    if not _is_recognized(type_):
        return True
    assert isinstance(type_, TensorType)
    return iree_encoding.is_serialized_encoding(type_.encoding)


class _NoLayout(Exception):
    """A resolver that knows the encoding returned no layout for it."""


def resolve_type(type_: Attribute, resolvers: Sequence[LayoutResolver], era: EraProfile) -> Attribute:
    """`type_` with its encoding serialized for `resolvers` (IREE's getTypeWithResolvedEncodingLayouts).

    Unrecognized and already serialized encodings come back unchanged. Raises
    `_NoLayout` when a resolver has no layout for a recognized encoding.
    """
    if not _is_recognized(type_):
        return type_
    assert isinstance(type_, TensorType)
    encoding = type_.encoding
    if iree_encoding.is_serialized_encoding(encoding):
        return type_
    if not resolvers:
        raise _NoLayout
    layouts = [r.get_layout(type_, era) for r in resolvers]
    if any(layout is None for layout in layouts):
        raise _NoLayout
    clone = getattr(encoding, "clone_with_layouts", None)
    if clone is None:
        # A serializable encoding that cannot take layouts (e.g. a backend
        # resolver without its configuration) has nothing to be resolved into.
        raise _NoLayout
    return TensorType(type_.element_type, type_.get_shape(), clone(layouts))


# ===----------------------------------------------------------------------=== #
# Devices and affinities
# ===----------------------------------------------------------------------=== #


@dataclass
class _Devices:
    """Which layout resolvers each affinity stands for (IREE's HAL ``makeLayoutAttrResolver``)."""

    analysis: DeviceAnalysis

    def resolvers(self, affinity: Attribute) -> list[LayoutResolver]:
        """One resolver per distinct executable target of the affinity's devices, in order.

        A target without a resolver gets the identity resolver, as IREE's HAL interface gives it.
        """
        from mini_iree.compiler.resolvers.registry import resolver_of

        result: list[LayoutResolver] = []
        for target in self.analysis.executable_targets(affinity):
            resolver = resolver_of(target)
            if resolver not in result:
                result.append(resolver)
        return result


def _resource_affinity(value: SSAValue, fallback: Attribute) -> Attribute:
    """Where the resource `value` lives (IREE's tryLookupResourceAffinity, for straight-line code).

    A transfer puts its result on its target; an op with an affinity produces
    there; casts and clones without one keep their source's. Function
    arguments and other values the walk cannot see through take `fallback`,
    the affinity of the op that consumes them.
    """
    seen: set[SSAValue] = set()
    while value not in seen:
        seen.add(value)
        owner = value.owner
        if isinstance(value, BlockArgument) or not isinstance(owner, Operation):
            return fallback
        if isinstance(owner, stream.AsyncTransferOp):
            if owner.target_affinity is not None:
                return owner.target_affinity
            value = owner.source
            continue
        affinity = owner.properties.get("affinity") or owner.attributes.get("stream.affinity")
        if affinity is not None:
            return affinity
        if isinstance(owner, util.GlobalLoadOp):
            return fallback
        if isinstance(owner, stream.AsyncCastOp | stream.AsyncCloneOp):
            value = owner.source
            continue
        return fallback
    return fallback


# ===----------------------------------------------------------------------=== #
# Executables
# ===----------------------------------------------------------------------=== #


def _export_and_function(module: ModuleOp, entry: SymbolRefAttr) -> tuple[stream.ExecutableExportOp, Operation] | None:
    """The `stream.executable.export` an entry point names and the function it exports."""
    executable = SymbolTable.lookup_symbol(module, entry.root_reference.data)
    if not isinstance(executable, stream.ExecutableOp) or len(entry.nested_references.data) != 1:
        return None
    export = SymbolTable.lookup_symbol(executable, entry.nested_references.data[0].data)
    if not isinstance(export, stream.ExecutableExportOp):
        return None
    function = exported_function(export)
    return (export, function) if function is not None else None


def _recognize_entry_points(module: ModuleOp, op: stream.TensorDispatchOp) -> bool:
    """Every binding of every entry point is only viewed by `stream.binding.subspan` as a dispatch tensor."""
    for entry in op.entry_points.data:
        found = _export_and_function(module, entry)
        if found is None:
            return False
        function = found[1]
        for arg in function.regions[0].block.args:
            if not isinstance(arg.type, stream.BindingType):
                continue
            for use in arg.uses:
                user = use.operation
                if not isinstance(user, stream.BindingSubspanOp) or not isinstance(user.result.type, DispatchTensorTypeBase):
                    return False
    return True


def _binding_layouts(op: stream.TensorDispatchOp) -> list[Attribute]:
    """Operand encodings then untied result encodings: one entry per function argument (getBindingLayoutAttrs)."""
    tied = [t.value.data for t in op.tied_operands.data] if op.tied_operands is not None else []
    layouts = list(op.operand_encodings.data)
    for index, encoding in enumerate(op.result_encodings.data):
        if index < len(tied) and tied[index] >= 0:
            continue
        layouts.append(encoding)
    return layouts


def _update_binding_encodings(function: Operation, layouts: Sequence[Attribute], originals: Sequence[Attribute]) -> None:
    """Give each binding's subspan the bound type's new encoding (IREE's updateBindingEncodings).

    As in IREE only serializable encodings are written. A binding whose host
    type lost its encoding (a resolver without layouts dropped it) loses it
    here too, so host and device agree on a plain tensor.
    """
    for arg, layout, original in zip(function.regions[0].block.args, layouts, originals):
        if not isinstance(arg.type, stream.BindingType) or not isinstance(layout, TensorType):
            continue
        if iree_encoding.is_serializable_encoding(layout.encoding):
            new_encoding: Attribute | None = layout.encoding
        elif _is_recognized(original):
            new_encoding = None
        else:
            continue
        for use in list(arg.uses):
            subspan = use.operation
            assert isinstance(subspan, stream.BindingSubspanOp)
            dispatch_type = subspan.result.type
            assert isinstance(dispatch_type, DispatchTensorTypeBase)
            bound = dispatch_type.bound_type
            if not isinstance(bound, TensorType):
                continue
            new_bound = TensorType(bound.element_type, bound.get_shape(), new_encoding or NoneAttr())
            Rewriter.replace_value_with_new_type(subspan.result, type(dispatch_type)(dispatch_type.access.data, new_bound))


def _duplicate_executables_per_layout_variant(
    module: ModuleOp, dispatches: Sequence[stream.TensorDispatchOp], before: dict[int, list[Attribute]]
) -> None:
    """One executable per (export, binding layouts); each dispatch site points at its copy.

    The first variant keeps the original executable; the others are clones
    named `<name>_dup<N>`, each inserted right after the original (so, as in
    IREE, a later copy sits before an earlier one). `before` holds each
    dispatch's binding types before resolution, keyed by `id(dispatch)`.
    """
    variants: dict[tuple[int, ArrayAttr], Operation] = {}
    layouts_per_export: dict[int, list[ArrayAttr]] = {}
    exports: dict[int, Operation] = {}
    site_layouts: list[ArrayAttr] = []
    originals: dict[tuple[int, ArrayAttr], ArrayAttr] = {}
    for op in dispatches:
        layouts = ArrayAttr(_binding_layouts(op))
        site_layouts.append(layouts)
        for entry in op.entry_points.data:
            found = _export_and_function(module, entry)
            assert found is not None
            export = found[0]
            exports[id(export)] = export
            known = layouts_per_export.setdefault(id(export), [])
            if layouts not in known:
                known.append(layouts)
                originals[(id(export), layouts)] = ArrayAttr(before[id(op)])

    for key, layout_set in layouts_per_export.items():
        export = exports[key]
        executable = export.parent_op()
        assert isinstance(executable, stream.ExecutableOp)
        for dup_id, layouts in enumerate(layout_set, start=-1):
            copy: Operation = executable
            if dup_id >= 0:
                copy = executable.clone()
                copy.properties["sym_name"] = StringAttr(f"{executable.sym_name.data}_dup{dup_id}")
                parent = executable.parent_block()
                assert parent is not None
                parent.insert_op_after(copy, executable)
            copy_export = next(
                o
                for o in copy.regions[0].ops
                if isinstance(o, stream.ExecutableExportOp) and o.sym_name.data == export.sym_name.data
            )
            function = exported_function(copy_export)
            assert function is not None
            _update_binding_encodings(function, layouts.data, originals[(key, layouts)].data)
            variants[(key, layouts)] = copy

    for op, layouts in zip(dispatches, site_layouts):
        entries: list[SymbolRefAttr] = []
        for entry in op.entry_points.data:
            found = _export_and_function(module, entry)
            assert found is not None
            copy = variants[(id(found[0]), layouts)]
            assert isinstance(copy, stream.ExecutableOp)
            entries.append(SymbolRefAttr(copy.sym_name, entry.nested_references))
        op.properties["entry_points"] = ArrayAttr(entries)


# ===----------------------------------------------------------------------=== #
# The pass
# ===----------------------------------------------------------------------=== #

# Ops with encodings the pass must not leave unserialized but does not rewrite:
# (op name, names of their encoding properties).
_MUST_BE_SERIALIZED: dict[str, tuple[str, ...]] = {
    "stream.tensor.constant": ("result_encoding",),
    "stream.tensor.clone": ("source_encoding", "result_encoding"),
    "stream.tensor.slice": ("source_encoding", "result_encoding"),
    "stream.tensor.update": ("target_encoding", "update_encoding"),
}
# Ops whose encoding properties are resolved with the op's own affinity.
_RESOLVED_BY_AFFINITY: dict[str, tuple[str, ...]] = {
    "stream.tensor.sizeof": ("encoding",),
    "stream.tensor.encode": ("result_encoding", "source_encoding"),
    "stream.tensor.empty": ("result_encoding",),
    "stream.tensor.splat": ("result_encoding",),
    "stream.tensor.fill": ("target_encoding",),
}


@dataclass
class _Updater:
    """IREE's StreamTensorOpUpdater: collect the tensor-phase ops with recognized encodings, then update them."""

    module: ModuleOp
    era: EraProfile
    devices: _Devices = field(init=False)
    binding_types_before: dict[int, list[Attribute]] = field(default_factory=dict)
    """Each dispatch's binding types before resolution (by `id`): bindings whose encoding is dropped follow them."""

    def __post_init__(self) -> None:
        self.devices = _Devices(DeviceAnalysis(self.module))

    def _has_recognized_encoding(self, op: Operation) -> bool:
        if isinstance(op, stream.TensorDispatchOp):
            if not _recognize_entry_points(self.module, op):
                return False
            return any(_is_recognized(t) for t in (*op.operand_encodings.data, *op.result_encodings.data))
        names = _RESOLVED_BY_AFFINITY.get(op.name) or _MUST_BE_SERIALIZED.get(op.name) or ()
        return any(_is_recognized(op.properties.get(n, NoneAttr())) for n in names)

    def collect(self) -> list[Operation]:
        ops: list[Operation] = []
        for function in functions(self.module, kinds=FUNCTION_LIKE):
            for op in function.walk():
                if op.properties.get("affinity") is None:
                    continue
                if self._has_recognized_encoding(op):
                    ops.append(op)
        return ops

    def _resolve(self, op: Operation, type_: Attribute, affinity: Attribute) -> Attribute:
        resolvers = self.devices.resolvers(affinity)
        try:
            return resolve_type(type_, resolvers, self.era)
        except _NoLayout:
            message = "failed to resolve recognized layout"
            if not resolvers:
                # IREE finds the targets with its device analysis; say why there are none.
                message += f" (no executable target is known for {affinity})"
            raise OpError(op, message) from None

    def update(self, op: Operation) -> None:
        affinity = op.properties["affinity"]
        if isinstance(op, stream.TensorDispatchOp):
            self._update_dispatch(op, affinity)
            return
        if op.name in _MUST_BE_SERIALIZED:
            for name in _MUST_BE_SERIALIZED[op.name]:
                if not _is_unrecognized_or_serialized(op.properties.get(name, NoneAttr())):
                    raise OpError(op, "failed to convert unserialized encoding to serialized encoding")
            return
        for name in _RESOLVED_BY_AFFINITY[op.name]:
            op.properties[name] = self._resolve(op, op.properties[name], affinity)

    def _update_dispatch(self, op: stream.TensorDispatchOp, affinity: Attribute) -> None:
        self.binding_types_before[id(op)] = _binding_layouts(op)
        operand_encodings: list[Attribute] = []
        for operand, type_ in zip(op.mixed_operands, op.operand_encodings.data):
            if not isinstance(operand.type, stream.ResourceType):
                operand_encodings.append(type_)
                continue
            operand_affinity = _resource_affinity(operand, affinity)
            operand_encodings.append(self._resolve(op, type_, operand_affinity))
        op.properties["operand_encodings"] = ArrayAttr(operand_encodings)
        result_encodings = [
            self._resolve(op, t, affinity) if isinstance(r.type, stream.ResourceType) else t
            for r, t in zip(op.results, op.result_encodings.data)
        ]
        op.properties["result_encodings"] = ArrayAttr(result_encodings)


@dataclass(frozen=True)
class SpecializeEncodingsPass(ModulePass):
    """Serializes the encodings of stream tensor ops for the devices they run on, and the bindings that see them.

    Option ``gpu-era`` (as ``iree-codegen-materialize-device-encoding`` spells
    it): ``walkthrough`` = the data-tiling walkthrough's GPU unrolling and
    swizzle; ``3.13`` = IREE 3.13's; by default the run's era (read when the
    pass is built). CPU and VMVX layouts are the same in both.
    """

    name = "iree-stream-specialize-encodings"

    # `3.13` reads as a number on the command line; quoted or not, it is accepted.
    gpu_era: str | int | float = field(default_factory=lambda: run_era().name)

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        updater = _Updater(op, option_era(self.gpu_era, "gpu-era"))
        candidates = updater.collect()
        dispatches = [c for c in candidates if isinstance(c, stream.TensorDispatchOp)]
        for candidate in candidates:
            try:
                updater.update(candidate)
            except OpError as err:
                # As IREE: the op that cannot be resolved, that it was not converted, then the module.
                failed = [err, *err.more]
                if err.text.endswith("failed to resolve recognized layout") or " (no executable target" in err.text:
                    failed.append(OpError(err.op, "failed to convert unserialized encoding to serialized encoding"))
                failed.append(
                    OpError(op, "failed to add layouts to Stream::TensorPhaseOp with encodings", prefix_op_name=False)
                )
                raise OpError(err.op, err.text, prefix_op_name=False, more=tuple(failed[1:])) from None
        _duplicate_executables_per_layout_variant(op, dispatches, updater.binding_types_before)


