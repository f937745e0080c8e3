"""Where each pass is in IREE's data-tiling walkthrough (the blog post): its IR dumps and its section.

The walkthrough shows the IR at 24 points (dumps 00-23, the files of
``reference/seed-walkthrough/``) and explains the passes in sections headed by
their names. This table was written by reading the post and its dumps; the
package ships it, so the page never needs the post itself.

A dump is the IR after the pass it is listed under (``before`` dumps are the IR
after the pass that precedes it in the pipeline); the ``example`` dumps are the
post's own multi-device or local-propagation examples about that pass.
"""

from __future__ import annotations

from dataclasses import dataclass

POST_TITLE = "Data-Tiling Walkthrough"


@dataclass(frozen=True)
class BlogPlace:
    section: str  # the heading of the post's section, as the post spells it
    dumps: tuple[str, ...] = ()  # the dump files this pass's IR corresponds to
    note: str = ""  # why the pass has no dump, or what its dumps show

    @property
    def dump_numbers(self) -> list[str]:
        return [name[:2] for name in self.dumps]


SETUP = "Setup"
TARGET_INDEPENDENT = "Target-Independent Optimizations"
CODEGEN = "Code Generation (Target-Dependent)"
STREAM = "ConvertToStreamPass"

PLACES: dict[str, BlogPlace] = {
    "iree-hal-assign-target-devices": BlogPlace(SETUP, note="the post's --iree-hal-target-device=hip"),
    "iree-hal-materialize-target-devices": BlogPlace(SETUP, note="the #device_target_hip global of every dump"),
    "iree-abi-wrap-entry-points": BlogPlace(TARGET_INDEPENDENT, note="the util.func on !hal.buffer_view of dump 00"),
    "inline": BlogPlace(TARGET_INDEPENDENT),
    "iree-dispatch-creation-elementwise-op-fusion": BlogPlace(
        TARGET_INDEPENDENT, note="fusion preprocessing the post passes over (the matmul has no elementwise producer)"
    ),
    "iree-dispatch-creation-form-dispatch-regions": BlogPlace(TARGET_INDEPENDENT),
    "iree-dispatch-creation-clone-producers-into-dispatch-regions": BlogPlace(TARGET_INDEPENDENT),
    "iree-dispatch-creation-collapse-dimensions": BlogPlace(
        TARGET_INDEPENDENT,
        ("00-annotate-data-tiling-hints.before.mlir",),
        "the IR before the hints (the matmul's loops stay as they are: each map reads them in its own order)",
    ),
    "iree-dispatch-creation-annotate-data-tiling-hints": BlogPlace(
        "AnnotateDataTilingHintsPass (DispatchCreation)", ("01-annotate-data-tiling-hints.after.mlir",)
    ),
    "iree-dispatch-creation-set-encoding": BlogPlace(
        "SetEncodingPass (DispatchCreation)", ("02-set-encoding.after.mlir",)
    ),
    "iree-dispatch-creation-hoist-encoding-ops": BlogPlace(
        "HoistEncodingOpsPass (DispatchCreation)",
        (
            "03-hoist-encoding-ops.after.mlir",
            "04-hoist-encoding-ops.local-propagation.before.mlir",
            "05-hoist-encoding-ops.local-propagation.after.mlir",
        ),
        "04 and 05: the post's example with local propagation",
    ),
    "iree-dispatch-creation-propagate-encodings": BlogPlace(
        "PropagateEncodingsPass (DispatchCreation)", note="the post shows no dump of it"
    ),
    "iree-dispatch-creation-fuse-encoding-ops-into-dispatch-regions-pass": BlogPlace(
        "FuseEncodingOpsIntoDispatchRegionsPass (DispatchCreation)", note="the post shows no dump of it"
    ),
    "iree-dispatch-creation-convert-encoding-to-flow": BlogPlace(
        "ConvertEncodingToFlowPass (DispatchCreation)", ("06-convert-encoding-to-flow.after.mlir",)
    ),
    "iree-util-hoist-into-globals": BlogPlace(
        "HoistIntoGlobalsPass (DispatchCreation)",
        ("07-hoist-into-globals.before.mlir", "08-hoist-into-globals.after.mlir"),
        "the post's example with a constant weight",
    ),
    "iree-dispatch-creation-convert-dispatch-regions-to-workgroups": BlogPlace(
        STREAM, note="dispatch regions to workgroup ops, which the post passes over"
    ),
    "iree-dispatch-creation-convert-tensor-to-flow": BlogPlace(
        STREAM, note="host reshapes to flow.tensor.reshape; the post's matmul has none"
    ),
    "iree-flow-capture-dynamic-dims": BlogPlace(
        STREAM, note="dispatch tensors tied to their sizes (dump 09's tie_shape)"
    ),
    "iree-flow-outline-dispatch-regions": BlogPlace(STREAM, note="outlined to executables"),
    "iree-flow-annotate-dispatches": BlogPlace(STREAM, note="the dispatch names of dump 09"),
    "iree-flow-deduplicate-executables": BlogPlace(
        STREAM, ("09-convert-to-stream.before.mlir",), "the IR before the stream conversion"
    ),
    "iree-stream-conversion": BlogPlace(STREAM, ("10-convert-to-stream.after.mlir",)),
    "iree-stream-specialize-encodings": BlogPlace(
        "SpecializeEncodingsPass (Stream)",
        (
            "11-specialize-encodings.sizeof-multi-device.example.mlir",
            "12-specialize-encodings.binding.example.mlir",
            "13-specialize-encodings.after.mlir",
            "14-specialize-encodings.multi-device.before.mlir",
            "15-specialize-encodings.multi-device.after.mlir",
        ),
        "11, 12, 14 and 15: the post's multi-device examples",
    ),
    "iree-stream-encode-host-tensors": BlogPlace(
        "EncodeHostTensorsPass (Stream)", ("16-encode-host-tensors.after.mlir",)
    ),
    "iree-stream-encode-device-tensors": BlogPlace(
        "EncodeHostTensorsPass (Stream)", note="its device-side twin; a no-op on f32"
    ),
    "iree-stream-materialize-encodings": BlogPlace(
        "MaterializeEncodingsPass (Stream)", ("17-materialize-encodings.after.mlir",)
    ),
    "iree-stream-materialize-copy-on-write": BlogPlace(CODEGEN, note="stream scheduling the post passes over"),
    "iree-stream-schedule-execution": BlogPlace(CODEGEN, note="stream scheduling the post passes over"),
    "iree-stream-schedule-allocation": BlogPlace(
        CODEGEN, note="one allocation for the encoded operands: the offset binding of dump 18"
    ),
    "iree-stream-layout-slices": BlogPlace(CODEGEN, note="the offsets inside that allocation"),
    "iree-stream-fuse-dispatch-bindings": BlogPlace(CODEGEN, note="one binding per resource: the 2 bindings of dump 18"),
    "iree-stream-annotate-dispatch-arguments": BlogPlace(CODEGEN, note="the offset facts (udiv) of dump 18"),
    "iree-stream-fold-uniform-operands": BlogPlace(CODEGEN, note="repeated operands folded: the 4 push constants of dump 19"),
    "iree-stream-annotate-dispatch-assumptions": BlogPlace(CODEGEN, note="HAL preparation the post passes over"),
    "iree-stream-pack-dispatch-operands": BlogPlace(CODEGEN, note="HAL preparation the post passes over"),
    "iree-hal-materialize-interfaces": BlogPlace(CODEGEN, note="the bindings and push constants of dumps 18-23"),
    "iree-codegen-materialize-device-encoding": BlogPlace(
        "MaterializeDeviceEncodingPass",
        ("18-materialize-device-encoding.gemm.after.mlir", "19-materialize-device-encoding.relayout.after.mlir"),
        "18: the matmul dispatch; 19: a relayout dispatch",
    ),
    "iree-codegen-bufferize-dispatch-tensor-load-store": BlogPlace(
        "BufferizeDispatchTensorLoadStorePass",
        (
            "20-bufferize-dispatch-tensor-load-store.gemm.after.mlir",
            "21-bufferize-dispatch-tensor-load-store.relayout.after.mlir",
        ),
    ),
    "iree-codegen-combine-layout-transformation": BlogPlace(
        "Challenge: Code Generation for Index Remapping",
        ("22-combine-layout-transformation.gemm.after.mlir", "23-combine-layout-transformation.relayout.after.mlir"),
    ),
}
# Passes mini-iree also knows under IREE 3.13's names, and the GPU pipeline's variant.
PLACES["iree-codegen-combine-result-layout-transformation"] = PLACES["iree-codegen-combine-layout-transformation"]
PLACES["iree-codegen-gpu-combine-layout-transformation"] = PLACES["iree-codegen-combine-layout-transformation"]
PLACES["iree-codegen-gpu-generalize-named-ops"] = BlogPlace(
    CODEGEN, note="the GPU pipeline's generalization: dumps 20 and 21 print transposes as linalg.generic"
)
PLACES["for-target-backends"] = BlogPlace(CODEGEN, note="a pass for the executables of some targets only")


def place_of(flag: str) -> BlogPlace | None:
    """Where the pass ``flag`` is in the post; None for passes the post does not show (cleanups: cse, ...)."""
    return PLACES.get(flag)
