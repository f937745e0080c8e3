"""``iree-codegen-materialize-device-encoding``: encoded tensors in dispatch code become packed tensors.

Every dispatch function (`func.func` inside a `stream.executable`,
`hal.executable.variant` or carrying a `hal.executable.target`) whose bindings,
loads/stores or ops carry tensor encodings is rewritten on the packed types the
target's encoding resolver chose: `set_encoding` -> `linalg.pack` (+
`tensor.expand_shape` + `linalg.transpose` for a GPU swizzle), `unset_encoding`
-> the inverse with `linalg.unpack`, contractions -> `linalg.mmt4d` /
`linalg.batch_mmt4d` (CPU, VMVX) or `iree_codegen.inner_tiled` (GPU), and
`tensor.empty`, `linalg.fill`, all-parallel `linalg.generic` (on the packed
tiles of its first output, swizzled ones included; several results and
permuted output maps, as IREE's lowerGenericOpWithResolvedLayouts), bindings and `dispatch.tensor.load/store` onto
the packed types (sizes from the layout algebra, as `affine.apply ceildiv`).
Identity layouts just drop the encoding. Padding layouts (`#iree_encoding.padding<[0, 64]>`, from the GPU
padding resolver; IREE's MaterializeEncodingIntoPadding) keep every tensor's
shape: a padded binding takes the padded type (`tensor<?x2112xf16>`), its
whole-tensor loads and stores become a slice at offset 0 of the logical sizes,
`set_encoding`/`unset_encoding` become their operand, and contractions and
other ops run on their tensors without encodings. Functions without encodings are left alone; an encoding without a
layout, or an op that cannot be materialized, is an error at that op, never
half-converted IR. Among what it refuses: partial loads/stores of encoded
bindings, matvec/vecmat on GPU, and all-parallel generics whose operands cannot
share the first output's packed iteration domain (IREE's `failed to legalize
operation 'linalg.generic'`, then `materialization failed` on the function).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import Operation
from xdsl.passes import ModulePass
from xdsl.utils.exceptions import PassFailedException

from mini_iree.compiler.analysis.encoded_functions import encoded_functions
from mini_iree.compiler.analysis.encoding_properties import has_encoding
from mini_iree.compiler.era import ERA_PROFILES, EraProfile, option_era, run_era
from mini_iree.compiler.ir.diagnostics import OpError
from mini_iree.compiler.materialize_encoding.layouts import LayoutSource, find_target
from mini_iree.compiler.materialize_encoding.patterns import materialize_function
from mini_iree.dialects import iree_tensor_ext

__all__ = ["MaterializeDeviceEncodingPass"]


@dataclass(frozen=True)
class MaterializeDeviceEncodingPass(ModulePass):
    """Materializes the encodings of every dispatch function for its target.

    `test-gpu-encoding-resolver` is IREE's option for functions the IR gives no
    target: `gpu_padding` materializes them with the GPU padding resolver,
    `gpu_data_tiling` with the GPU data-tiling resolver, both for the GPU of
    `--iree-gpu-test-target` (without it the padding resolver knows no cache
    and pads nothing); `none` (the default) leaves the target to the IR.
    `test-cl-gpu-target` is the walkthrough era's spelling of
    `test-gpu-encoding-resolver=gpu_data_tiling`.
    `gpu-era` picks the GPU heuristics when encodings are resolved:
    "walkthrough" (the data-tiling walkthrough's) or "3.13", by default the
    run's era (read when the pass is built); a function whose binding layouts
    were serialized by the other era's heuristics is resolved with that era
    instead, so both layouts agree.
    """

    name = "iree-codegen-materialize-device-encoding"

    test_gpu_encoding_resolver: str = "none"
    test_cl_gpu_target: bool = False
    # `3.13` reads as a number on the command line; quoted or not, it is accepted.
    gpu_era: str | int | float = field(default_factory=lambda: run_era().name)

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        preferred = option_era(self.gpu_era, "gpu-era")
        if self.test_gpu_encoding_resolver not in _TEST_RESOLVERS:
            raise PassFailedException(
                f"test-gpu-encoding-resolver: unknown value '{self.test_gpu_encoding_resolver}' "
                f"(expected one of: {', '.join(_TEST_RESOLVERS)})"
            )
        test_resolver = "gpu_data_tiling" if self.test_cl_gpu_target else self.test_gpu_encoding_resolver
        for func_op in encoded_functions(op):
            target = find_target(func_op) or _test_target(test_resolver, preferred)
            era = _era_matching_bindings(func_op, target, preferred)
            materialize_function(func_op, LayoutSource(target, era, _padding_resolver(target)))


# test-gpu-encoding-resolver values -> IREE's --iree-hip-encoding-layout-resolver spelling.
_TEST_RESOLVERS = {"none": None, "gpu_padding": "pad", "gpu_data_tiling": "data-tiling"}


def _test_target(option: str, era: EraProfile):
    """The `--iree-gpu-test-target` GPU with the test resolver, for a function the IR gives no target."""
    from mini_iree.compiler.resolvers.gpu import test_target

    resolver = _TEST_RESOLVERS[option]
    if resolver is None:
        return None
    target = test_target(resolver, era)
    if target is None and resolver == "pad":
        # IREE builds the resolver without a GPU then: no cache, so no padding.
        from mini_iree.dialects.hal import ExecutableTargetAttr
        from mini_iree.dialects.iree_gpu import GPUPaddingResolverAttr

        return ExecutableTargetAttr("rocm", "rocm-hsaco-fb", {"iree.encoding.resolver": GPUPaddingResolverAttr()})
    return target


def _padding_resolver(target):
    """The target's padding resolver configured with its L1 cache, if its resolver pads."""
    if target is None:
        return None
    from mini_iree.compiler.resolvers.padding import configured_padding_resolver, get_padding_resolver

    return configured_padding_resolver(target) if get_padding_resolver(target) is not None else None


def _era_matching_bindings(func_op: Operation, target, preferred: EraProfile) -> EraProfile:
    """The GPU era whose resolved layouts equal the layouts already on the bindings.

    A load reads a serialized binding layout into an op-level encoding; both must
    resolve alike, and only one era's heuristics make them agree.
    """
    if target is None:
        return preferred
    eras = [preferred] + [e for e in ERA_PROFILES.values() if e != preferred]
    for era in eras:
        source = LayoutSource(target, era)
        try:
            if all(
                source.info(load, load.result.type) == source.info(load, load.source.type.bound_type)
                for load in func_op.walk()
                if isinstance(load, iree_tensor_ext.DispatchTensorLoadOpBase) and has_encoding(load.result)
            ):
                return era
        except OpError:
            return preferred
    return preferred
