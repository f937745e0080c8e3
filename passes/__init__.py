"""Passes mini-iree-opt knows, registered lazily under IREE's flag names.

Each pass lives in its own module named after it (``set_encoding.py`` for
``iree-dispatch-creation-set-encoding``). Add an entry to ``_PASSES`` and the pass
is available to ``-p`` and ``--pass-pipeline``; its module is imported only when a
pipeline names it. A pass module imports no other pass module: helpers passes
share live in ``compiler/analysis``, and a pass that runs another pass whole
gets it by its flag (:func:`pass_class`).

The "materialize" names, told apart (host = stream level, device = codegen):

* ``materialize_encodings.py``: ``iree-stream-materialize-encodings``
  (Stream/Transforms/MaterializeEncodings.cpp); each host ``stream.tensor.encode``
  becomes a dispatch of a generated ``@_encoding_N`` executable.
* ``materialize_device_encoding.py``: ``iree-codegen-materialize-device-encoding``
  (Codegen/Common/MaterializeEncoding.cpp); in dispatch code, encoded tensors become
  packed ones for the target's resolver (pack/unpack, mmt4d or inner_tiled), or
  padded ones for a padding layout.
* ``materialize_encoding_into_padding.py``: ``iree-codegen-materialize-encoding-into-padding``
  (the walkthrough era's Codegen/Common/MaterializeEncodingIntoPadding.cpp); the
  device pass above with the GPU padding resolver for functions without a target.
* ``materialize_encoding_into_nop.py``: ``iree-codegen-materialize-encoding-into-nop``
  (Codegen/Common/MaterializeEncodingIntoNop.cpp); the device conversion with the
  identity resolver: every encoding dropped, nothing packed.
* ``compiler/materialize_encoding/``: the library under the device passes
  (IREE's Codegen/Common/EncodingUtils and MaterializeEncodingPatterns.cpp): a
  function's target and each tensor's ``MaterializeEncodingInfo``, the IR for
  packed sizes and the pack chains, contractions on packed operands.
* ``compiler/layout/materialization.py``: plain data, no IR; the pack /
  expand_shape / transpose records a layout materializes into (and their
  inverse), which the device library builds IR from and the interpreter checks.
"""

import re
from collections.abc import Callable
from dataclasses import dataclass
from importlib import import_module

from xdsl.passes import ModulePass

# flag name -> "module:Class"
_PASSES: dict[str, str] = {
    "canonicalize": "mini_iree.passes.canonicalize:CanonicalizePass",
    # MLIR's lowering of affine.linearize_index / delinearize_index, which IREE's tests run.
    "affine-expand-index-ops": "mini_iree.passes.affine_expand_index_ops:AffineExpandIndexOpsPass",
    "iree-flow-canonicalize": "mini_iree.passes.flow_canonicalize:FlowCanonicalizePass",
    "iree-abi-wrap-entry-points": "mini_iree.passes.wrap_entry_points:WrapEntryPointsPass",
    # MLIR's inliner, which IREE's ABI pipeline runs right after wrapping entry points.
    "inline": "mini_iree.passes.inline:InlinePass",
    "iree-dispatch-creation-elementwise-op-fusion": "mini_iree.passes.elementwise_op_fusion:ElementwiseOpFusionPass",
    "iree-dispatch-creation-form-dispatch-regions": "mini_iree.passes.form_dispatch_regions:FormDispatchRegionsPass",
    "iree-dispatch-creation-clone-producers-into-dispatch-regions": (
        "mini_iree.passes.clone_producers_into_dispatch_regions:CloneProducersIntoDispatchRegionsPass"
    ),
    "iree-dispatch-creation-collapse-dimensions": "mini_iree.passes.collapse_dimensions:CollapseDimensionsPass",
    "iree-dispatch-creation-convert-tensor-to-flow": "mini_iree.passes.convert_tensor_to_flow:ConvertTensorToFlowPass",
    "iree-dispatch-creation-materialize-default-workgroup-count-region": (
        "mini_iree.passes.materialize_default_workgroup_count_region:MaterializeDefaultWorkgroupCountRegionPass"
    ),
    "iree-dispatch-creation-annotate-data-tiling-hints": (
        "mini_iree.passes.annotate_data_tiling_hints:AnnotateDataTilingHintsPass"
    ),
    "iree-dispatch-creation-set-encoding": "mini_iree.passes.set_encoding:SetEncodingPass",
    "iree-dispatch-creation-hoist-encoding-ops": "mini_iree.passes.hoist_encoding_ops:HoistEncodingOpsPass",
    "iree-dispatch-creation-fold-unit-extent-dims": "mini_iree.passes.fold_unit_extent_dims:FoldUnitExtentDimsPass",
    "iree-dispatch-creation-propagate-encodings": "mini_iree.passes.propagate_encodings:PropagateEncodingsPass",
    "iree-dispatch-creation-remove-tensor-barriers": "mini_iree.passes.remove_tensor_barriers:RemoveTensorBarriersPass",
    "iree-dispatch-creation-fuse-encoding-ops-into-dispatch-regions-pass": (
        "mini_iree.passes.fuse_encoding_ops_into_dispatch_regions:FuseEncodingOpsIntoDispatchRegionsPass"
    ),
    "iree-dispatch-creation-convert-encoding-to-flow": (
        "mini_iree.passes.convert_encoding_to_flow:ConvertEncodingToFlowPass"
    ),
    "iree-util-hoist-into-globals": "mini_iree.passes.hoist_into_globals:HoistIntoGlobalsPass",
    "iree-preprocessing-attr-based-pipeline": "mini_iree.passes.attr_based_pipeline:AttrBasedPipelinePass",
    # Target devices and outlining (walkthrough dump 09).
    "iree-hal-assign-target-devices": "mini_iree.passes.assign_target_devices:AssignTargetDevicesPass",
    "iree-hal-materialize-target-devices": (
        "mini_iree.passes.materialize_target_devices:MaterializeTargetDevicesPass"
    ),
    "iree-dispatch-creation-convert-dispatch-regions-to-workgroups": (
        "mini_iree.passes.convert_dispatch_regions_to_workgroups:ConvertDispatchRegionsToWorkgroupsPass"
    ),
    "iree-flow-capture-dynamic-dims": "mini_iree.passes.capture_dynamic_dims:CaptureDynamicDimsPass",
    "iree-flow-outline-dispatch-regions": "mini_iree.passes.outline_dispatch_regions:OutlineDispatchRegionsPass",
    "iree-flow-annotate-dispatches": "mini_iree.passes.annotate_dispatches:AnnotateDispatchesPass",
    "iree-flow-deduplicate-executables": "mini_iree.passes.deduplicate_executables:DeduplicateExecutablesPass",
    # The stream half of data tiling (walkthrough dumps 10-17).
    "iree-stream-conversion": "mini_iree.passes.convert_to_stream:ConvertToStreamPass",
    "iree-stream-specialize-encodings": "mini_iree.passes.specialize_encodings:SpecializeEncodingsPass",
    "iree-stream-encode-host-tensors": "mini_iree.passes.encode_host_tensors:EncodeHostTensorsPass",
    "iree-stream-encode-device-tensors": "mini_iree.passes.encode_device_tensors:EncodeDeviceTensorsPass",
    "iree-stream-materialize-encodings": "mini_iree.passes.materialize_encodings:MaterializeEncodingsPass",
    # Stream scheduling and allocation: execution regions, resources allocated with offsets.
    "iree-stream-materialize-copy-on-write": (
        "mini_iree.passes.materialize_copy_on_write:MaterializeCopyOnWritePass"
    ),
    "iree-stream-schedule-execution": "mini_iree.passes.schedule_execution:ScheduleExecutionPass",
    "iree-stream-schedule-allocation": "mini_iree.passes.schedule_allocation:ScheduleAllocationPass",
    "iree-stream-layout-slices": "mini_iree.passes.layout_slices:LayoutSlicesPass",
    "iree-stream-fuse-dispatch-bindings": "mini_iree.passes.fuse_dispatch_bindings:FuseDispatchBindingsPass",
    "iree-stream-annotate-dispatch-arguments": (
        "mini_iree.passes.annotate_dispatch_arguments:AnnotateDispatchArgumentsPass"
    ),
    # Dispatch operands and HAL interfaces (the form walkthrough dumps 18/19 start from).
    "iree-stream-annotate-dispatch-assumptions": (
        "mini_iree.passes.annotate_dispatch_assumptions:AnnotateDispatchAssumptionsPass"
    ),
    "iree-stream-pack-dispatch-operands": "mini_iree.passes.pack_dispatch_operands:PackDispatchOperandsPass",
    "iree-stream-fold-uniform-operands": "mini_iree.passes.fold_uniform_operands:FoldUniformOperandsPass",
    "iree-hal-materialize-interfaces": "mini_iree.passes.materialize_interfaces:MaterializeInterfacesPass",
    # The codegen half of data tiling (walkthrough dumps 18-23).
    "iree-codegen-materialize-device-encoding": (
        "mini_iree.passes.materialize_device_encoding:MaterializeDeviceEncodingPass"
    ),
    # IREE's materialization with the identity resolver: every encoding dropped.
    "iree-codegen-materialize-encoding-into-nop": (
        "mini_iree.passes.materialize_encoding_into_nop:MaterializeEncodingIntoNopPass"
    ),
    # The walkthrough era's separate pass for padding layouts.
    "iree-codegen-materialize-encoding-into-padding": (
        "mini_iree.passes.materialize_encoding_into_padding:MaterializeEncodingIntoPaddingPass"
    ),
    "iree-codegen-bufferize-dispatch-tensor-load-store": (
        "mini_iree.passes.bufferize_dispatch_tensor_load_store:BufferizeDispatchTensorLoadStorePass"
    ),
    "iree-codegen-combine-layout-transformation": (
        "mini_iree.passes.combine_layout_transformation:CombineLayoutTransformationPass"
    ),
    # Runs a pass on the executables of some target backends only (IREE's per-target codegen pipelines).
    "for-target-backends": "mini_iree.passes.for_target_backends:ForTargetBackendsPass",
    # The LLVMGPU pipeline's generalization of named ops (dumps 20/21 print transposes as linalg.generic).
    "iree-codegen-gpu-generalize-named-ops": "mini_iree.passes.gpu_generalize_named_ops:GPUGeneralizeNamedOpsPass",
    # The LLVMGPU pipeline's variant: padding loops distributed to workgroups, then threads (dump 23).
    "iree-codegen-gpu-combine-layout-transformation": (
        "mini_iree.passes.combine_layout_transformation:GPUCombineLayoutTransformationPass"
    ),
    # IREE 3.13's name for the same pass (its `scope` option selects where chains end).
    "iree-codegen-combine-result-layout-transformation": (
        "mini_iree.passes.combine_layout_transformation:CombineResultLayoutTransformationPass"
    ),
    # IREE 2026's mirror for relayouts read at a dispatch's start: one iree_linalg_ext.map_load.
    "iree-codegen-combine-source-layout-transformation": (
        "mini_iree.passes.combine_source_layout_transformation:CombineSourceLayoutTransformationPass"
    ),
}

# Upstream passes that make pipelines and tests pleasant.
_XDSL_PASSES: dict[str, str] = {
    "cse": "xdsl.transforms.common_subexpression_elimination:CommonSubexpressionElimination",
    "dce": "xdsl.transforms.dead_code_elimination:DeadCodeElimination",
}


def _factory(spec: str) -> Callable[[], type[ModulePass]]:
    module_name, cls = spec.split(":")

    def load() -> type[ModulePass]:
        return getattr(import_module(module_name), cls)

    return load


def get_all_passes() -> dict[str, Callable[[], type[ModulePass]]]:
    """Every pass flag, mapped to a loader of its pass class."""
    return {name: _factory(spec) for name, spec in {**_XDSL_PASSES, **_PASSES}.items()}


def pass_class(flag: str) -> type[ModulePass]:
    """The pass registered under ``flag``, its module imported now.

    How a pass runs another pass as a whole (MLIR's dynamic pass pipelines,
    ``OpPassManager::addPass`` + ``runPipeline``): by its flag, so that no pass
    module imports another one. Helpers passes share live in compiler/analysis.
    """
    return _factory({**_XDSL_PASSES, **_PASSES}[flag])()


@dataclass(frozen=True)
class Pipeline:
    """A named pipeline: passes in ``-p`` syntax, where ``{option}`` stands for an option's value.

    ``options`` maps each option to its default; an entry of ``passes`` written
    ``?option:TEXT`` is kept only when that option has a non-empty value (and,
    for a boolean option, one whose default is ``true`` or ``false``, when it is
    true; written bare, ``{data-tiling}``, it is true, as in MLIR); one written
    ``?option=VALUE:TEXT`` only when the option has that value. An option listed
    in ``choices`` takes only the values given there; ``derive`` computes more
    ``{fields}`` from the chosen values (the pass options an option stands for).
    """

    summary: str
    passes: tuple[str, ...]
    options: tuple[tuple[str, str, str], ...] = ()  # (name, default, help)
    choices: tuple[tuple[str, tuple[str, ...]], ...] = ()  # (name, the values it takes)
    derive: Callable[[dict[str, str]], dict[str, str]] | None = None

    def expand(self, values: dict[str, str] | None = None) -> str:
        """The pipeline text with the given option values (defaults elsewhere)."""
        given = dict(values or {})
        unknown = sorted(set(given) - {name for name, _, _ in self.options})
        if unknown:
            known = ", ".join(name for name, _, _ in self.options) or "none"
            raise ValueError(f"no such option '{unknown[0]}' (options: {known})")
        chosen = {name: given.get(name, default) for name, default, _ in self.options}
        booleans = {name for name, default, _ in self.options if default in ("true", "false")}
        for name in booleans:
            chosen[name] = {"": "true", "1": "true", "0": "false"}.get(chosen[name], chosen[name])
            if chosen[name] not in ("true", "false"):
                raise ValueError(f"option '{name}' takes true or false, not '{chosen[name]}'")
        for name, values in self.choices:
            if chosen[name] not in values:
                raise ValueError(f"option '{name}' takes {' or '.join(values)}, not '{chosen[name]}'")
        if self.derive is not None:
            chosen |= self.derive(chosen)
        entries = []
        for entry in self.passes:
            if entry.startswith("?"):
                condition, _, entry = entry[1:].partition(":")
                condition, equals, value = condition.partition("=")
                if equals:
                    if chosen.get(condition) != value:
                        continue
                elif not chosen.get(condition) or chosen.get(condition) == "false" and condition in booleans:
                    continue
            entries.append(entry.format(**chosen) if "{" in entry else entry)
        return ",".join(entries)


_TARGET_OPTION = (
    "target",
    "",
    "the devices to compile for, as iree-hal-assign-target-devices' targetDevices: "
    "gfx942, 'x86_64:+avx,+avx2,+fma', 'aarch64:+neon,+i8mm', vmvx, or several separated by commas "
    "(every spelling: 'Targets' at the end of --list-passes); the stream passes need one unless the input "
    "declares its devices",
)

ERAS = ("walkthrough", "3.13")  # compiler/era.py's ERA_NAMES, spelled here so that --help imports nothing


class _RunEra(str):
    """The `era` option's default: the run's era (`--iree-era`, `compiler/era.py`), the walkthrough's unless set.

    It reads as `walkthrough` wherever a default is shown; `_encoding_fields`
    replaces it by the run's era when the pipeline is expanded.
    """


_ERA_OPTION = (
    "era",
    _RunEra("walkthrough"),
    "whose IREE to follow: 'walkthrough' (the data-tiling walkthrough's dumps, September 2025) or '3.13' "
    "(IREE 3.13: encoding_dims operands, stream.async.cast at imports and exports, the 3.13 GPU heuristics, "
    "nsw size arithmetic)",
)
_ERA_CHOICES = (("era", ERAS),)
ENCODINGS = ("data-tiling", "padding")
_ENCODING_OPTION = (
    "encoding",
    "data-tiling",
    "what the encodings do: 'data-tiling' (pack into tiles, the walkthrough) or 'padding' (pad the rows of "
    "tensors handed between dispatches: set-encoding's encoding-option=padding, and each GPU target's "
    "encoding-layout-resolver=pad, as IREE's --iree-hip-encoding-layout-resolver=pad)",
)


def _encoding_fields(chosen: dict[str, str]) -> dict[str, str]:
    """The pass options that `era` and `encoding` stand for.

    The era is the given one, else the run's. Its profile says which pass
    options differ (set-encoding's `encoding-dims`; the others take the era's
    name). A pipeline whose era is not the run's also names it on each target
    (`gfx942:era=3.13`), so that the devices are described as that IREE does.
    """
    from mini_iree.compiler.era import era_profile, run_era

    era = run_era() if isinstance(chosen.get("era"), _RunEra) else era_profile(chosen.get("era", "walkthrough"))
    padding = chosen.get("encoding") == "padding"
    # Padding encodings carry no iteration sizes, in any era.
    fields = {"era": era.name, "encoding-dims": "true" if era.encoding_dims and not padding else "false"}
    fields["encoding-option"] = "padding" if padding else "default"
    target = chosen.get("target", "")
    if (padding or era != run_era()) and target:
        from mini_iree.compiler.analysis.target_devices import split_target_list

        targets = split_target_list(target)
        if padding:
            # A GPU resolves padding encodings with its padding resolver; CPU targets have one resolver.
            targets = [t + ":encoding-layout-resolver=pad" if re.fullmatch(r"gfx[0-9a-f]+", t) else t for t in targets]
        if era != run_era():
            targets = [_with_era(t, era.name) for t in targets]
        target = ",".join(targets)
    fields["devices"] = target
    return fields


def _with_era(target: str, era: str) -> str:
    """A target short name with an `era=` token (IR text and names that carry one stay as they are)."""
    if target.startswith("#") or re.search(r"[:,]era=", target):
        return target
    return f"{target}{',' if ':' in target else ':'}era={era}"

# Named pipelines, expanded in place wherever the name appears in -p or --pass-pipeline.
_PIPELINES: dict[str, Pipeline] = {
    # The first half of the data-tiling walkthrough, from a plain func.func on
    # tensors to hoisted, flow-level encodings (walkthrough dumps 00-08).
    # `canonicalize` after convert-encoding-to-flow, as the walkthrough prints it.
    "data-tiling-dispatch-creation": Pipeline(
        "the walkthrough's first half: wrap entry points, form dispatch regions, set and hoist encodings, "
        "convert them to flow, hoist constant encodings into globals (dumps 00-08)",
        (
            "?target:iree-hal-assign-target-devices{{targetDevices={devices}}}",
            "?target:iree-hal-materialize-target-devices",
            "iree-abi-wrap-entry-points",
            # IREE inlines right after wrapping, then cleans up (its symbol-dce changes
            # nothing the walkthrough prints). Canonicalization reads sizes off where they
            # came from (`tensor.dim` of a matmul result is that of its init), so that a
            # result feeding the next matmul has that matmul as its only user.
            "inline{{default-pipeline=}}",
            "canonicalize",
            "cse",
            # IREE's dispatch-creation preprocessing: elementwise producers fuse into
            # their generic consumers before regions are formed.
            "iree-dispatch-creation-elementwise-op-fusion",
            "canonicalize",
            "cse",
            # IREE 3.13 gives bit extends on x86_64/aarch64 CPUs dispatches of their own.
            "iree-dispatch-creation-form-dispatch-regions{{era={era}}}",
            "iree-dispatch-creation-clone-producers-into-dispatch-regions",
            # Loops every op of a dispatch reads together become one; the reshapes land outside.
            "iree-dispatch-creation-collapse-dimensions",
            "iree-dispatch-creation-annotate-data-tiling-hints",
            # IREE 3.13 passes the dynamic iteration sizes along with the encodings.
            "iree-dispatch-creation-set-encoding{{encoding-option={encoding-option} encoding-dims={encoding-dims}}}",
            "iree-dispatch-creation-hoist-encoding-ops",
            "iree-dispatch-creation-propagate-encodings",
            "iree-dispatch-creation-fuse-encoding-ops-into-dispatch-regions-pass",
            "iree-dispatch-creation-convert-encoding-to-flow",
            "canonicalize",
            # IREE hoists with a zero size-increase threshold here: broadcasts of constants stay.
            "iree-util-hoist-into-globals{{max-size-increase-threshold=0}}",
        ),
        (_TARGET_OPTION, _ERA_OPTION, _ENCODING_OPTION),
        (*_ERA_CHOICES, ("encoding", ENCODINGS)),
        _encoding_fields,
    ),
    # The second half of the walkthrough's host side: devices, outlined executables,
    # stream, per-device layouts, storage sizes and encoding dispatches (dumps 09-17).
    # `canonicalize,cse` after conversion, as IREE's stream pipeline runs them
    # (dump 13 has one `hal.element_type` where dump 10 has two).
    "data-tiling-stream": Pipeline(
        "the walkthrough's stream half: target devices, outline dispatches, convert to stream, specialize "
        "encodings per device, encode host and device tensors, materialize encodings (dumps 09-17)",
        (
            "?target:iree-hal-assign-target-devices{{targetDevices={devices}}}",
            "?target:iree-hal-materialize-target-devices",
            "iree-dispatch-creation-convert-dispatch-regions-to-workgroups",
            # Reshapes between dispatches become flow.tensor.reshape.
            "iree-dispatch-creation-convert-tensor-to-flow",
            # IREE's flow pipeline starts by tying dispatch tensors to their sizes.
            "iree-flow-capture-dynamic-dims",
            "canonicalize",
            "cse",
            "iree-flow-outline-dispatch-regions",
            "iree-flow-annotate-dispatches",
            "iree-flow-deduplicate-executables",
            "?era=walkthrough:iree-stream-conversion",
            "?era=3.13:iree-stream-conversion{{async-cast=true}}",
            "canonicalize",
            "cse",
            "iree-stream-specialize-encodings{{gpu-era={era}}}",
            "iree-stream-encode-host-tensors{{era={era}}}",
            "iree-stream-encode-device-tensors",
            "iree-stream-materialize-encodings",
        ),
        (_TARGET_OPTION, _ERA_OPTION, _ENCODING_OPTION),
        (*_ERA_CHOICES, ("encoding", ENCODINGS)),
        _encoding_fields,
    ),
    # The device side: dispatch operands and HAL interfaces, then codegen's
    # materialization of encodings and relayout folding (dumps 18-23).
    "data-tiling-codegen": Pipeline(
        "the walkthrough's codegen half: schedule and allocate stream work, fuse bindings, dispatch arguments, "
        "assumptions and operands, HAL interfaces, materialize device encodings, bufferize dispatch loads/stores, "
        "combine relayouts into map_scatter (dumps 18-23)",
        (
            # IREE's stream scheduling (async -> cmd) as far as the dispatch ABI needs it:
            # resources allocated with offsets, then one binding per resource.
            "iree-stream-materialize-copy-on-write",
            "iree-stream-schedule-execution",
            "iree-stream-schedule-allocation",
            "iree-stream-layout-slices",
            # IREE's clean-up after layout: the results' subviews fold into the commands' ranges.
            "canonicalize",
            "iree-stream-fuse-dispatch-bindings",
            "iree-stream-annotate-dispatch-arguments",
            "iree-stream-annotate-dispatch-assumptions",
            "iree-stream-pack-dispatch-operands",
            # IREE's stream cleanup (its CSE makes repeated operands one SSA value;
            # its canonicalizer drops the assumptions of constant offsets), then the
            # folding that compares operands; the CSE after it merges the functions'
            # rebuilt duplicates (dump 19's `%8, %13, %8, %13`).
            "canonicalize",
            "cse",
            "iree-stream-fold-uniform-operands{{era={era}}}",
            "cse",
            "iree-hal-materialize-interfaces",
            "iree-codegen-materialize-device-encoding{{gpu-era={era}}}",
            # GPU executables get the LLVMGPU pipeline's steps (IREE builds one codegen
            # pipeline per target backend): the canonicalizer after encoding materialization
            # (dump 21's deduplicated assumptions), named ops generalized (dumps 20/21), and
            # relayouts combined with the padding loops distributed to workgroups, then
            # threads (dump 23). CPU and VMVX executables keep the plain combine pass, which
            # finds nothing left to fold in the GPU ones.
            "for-target-backends{{backends=rocm pass-name=canonicalize}}",
            "for-target-backends{{backends=rocm pass-name=iree-codegen-gpu-generalize-named-ops}}",
            "iree-codegen-bufferize-dispatch-tensor-load-store",
            "for-target-backends{{backends=rocm pass-name=iree-codegen-gpu-combine-layout-transformation}}",
            "iree-codegen-combine-layout-transformation",
        ),
        (_ERA_OPTION,),
        _ERA_CHOICES,
        _encoding_fields,
    ),
    # IREE's DispatchCreation pipeline (buildDispatchCreationPassPipeline), its
    # passes in IREE's order. Passes mini-iree does not have are left out where
    # they would run; on the inputs this pipeline is meant for (contractions and
    # elementwise ops already fused, no tensor.pad, no tracing) they change nothing:
    #   iree-flow-inject-tensor-tracing, iree-dispatch-creation-tensor-pad-to-tensor-insert-slice,
    #   in the IPO fixed point iree-util-simplify-global-accesses, iree-util-apply-patterns,
    #   iree-util-fold-globals, iree-util-fuse-globals, iree-util-ipo;
    #   iree-dispatch-creation-fusion-preprocessing, elementwise-op-fusion (twice),
    #   bubble-up-expand-shapes, sink-reshapes, fuse-multi-use-elementwise-producer,
    #   split-reduction, form-split-reduction-dispatches, transpose-generic-ops;
    #   form-scalar-dispatches; elementwise-op-fusion{intra-dispatch} and
    #   fuse-multi-use-elementwise-producer{intra-dispatch}; hoist-uniform-scalar-compute;
    #   materialize-default-workgroup-count-region and bitcast-unsupported-element-types.
    #   IREE's iree-flow-canonicalize is `canonicalize`.
    "iree-dispatch-creation-pipeline": Pipeline(
        "IREE's dispatch creation: form dispatch regions (and, with data-tiling, set and hoist encodings), "
        "then convert them to flow.dispatch.workgroups",
        (
            # The IPO clean-up's fixed point, then fusion preprocessing's clean-up.
            "canonicalize",
            "cse",
            "canonicalize",
            "cse",
            # End of the preprocessing passes: hoist constant expressions, clean up.
            "iree-util-hoist-into-globals{{max-size-increase-threshold=0}}",
            "canonicalize",
            "cse",
            # Dispatch region creation.
            "iree-dispatch-creation-form-dispatch-regions{{aggressive-fusion={aggressive-fusion}}}",
            "iree-dispatch-creation-clone-producers-into-dispatch-regions{{aggressive={aggressive-fusion}}}",
            "iree-dispatch-creation-collapse-dimensions",
            # Data tiling (IREE's canonicalize here keeps constants un-CSE'd).
            "?data-tiling:canonicalize",
            "?data-tiling:iree-dispatch-creation-annotate-data-tiling-hints",
            "?data-tiling:iree-dispatch-creation-set-encoding",
            "?data-tiling:iree-dispatch-creation-hoist-encoding-ops",
            "?data-tiling:iree-dispatch-creation-propagate-encodings",
            "?data-tiling:iree-dispatch-creation-fuse-encoding-ops-into-dispatch-regions-pass",
            "iree-dispatch-creation-convert-encoding-to-flow",
            "iree-util-hoist-into-globals{{max-size-increase-threshold=0}}",
            # Regions to workgroups, with IREE's clean-ups around the passes left out.
            "iree-dispatch-creation-convert-dispatch-regions-to-workgroups",
            "iree-dispatch-creation-convert-tensor-to-flow",
            "cse",
            "canonicalize",
            "cse",
            "canonicalize",
        ),
        (
            ("aggressive-fusion", "false", "IREE's enableAggressiveFusion: aggressive fusion and cloning"),
            ("fuse-multi-use", "true", "IREE's enableFuseMultiUse (its pass is not in mini-iree; accepted)"),
            ("data-tiling", "false", "IREE's dataTiling: set encodings on data-tiled ops after fusion"),
        ),
    ),
    # All of it: a plain func.func on tensors to materialized, executable HAL dispatches.
    "data-tiling": Pipeline(
        "the whole walkthrough: data-tiling-dispatch-creation, data-tiling-stream and data-tiling-codegen",
        (
            "?target:iree-hal-assign-target-devices{{targetDevices={devices}}}",
            "?target:iree-hal-materialize-target-devices",
            "data-tiling-dispatch-creation{{era={era} encoding={encoding}}}",
            "data-tiling-stream{{era={era}}}",
            "data-tiling-codegen{{era={era}}}",
        ),
        (_TARGET_OPTION, _ERA_OPTION, _ENCODING_OPTION),
        (*_ERA_CHOICES, ("encoding", ENCODINGS)),
        _encoding_fields,
    ),
}


def get_all_pipelines() -> dict[str, Pipeline]:
    """Every named pipeline by name."""
    return dict(_PIPELINES)
