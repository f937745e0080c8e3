"""`for-target-backends{backends=rocm pass-name=P}`: run pass P on the executables of some target backends only.

IREE compiles each `hal.executable.variant` with its target backend's own
codegen pipeline (`iree-hal-configure-target-executable-variants{target=rocm}`
runs the LLVMGPU one, `{target=llvm-cpu}` the LLVMCPU one): the GPU pipeline
canonicalizes after encoding materialization, generalizes named ops and combines
relayouts with padding loops distributed to workgroups and threads, while CPU
and VMVX executables never see those passes. mini-iree's pipelines are flat
lists of module passes, so this step says where such a pass runs: P is applied
to the `builtin.module` of every variant whose `#hal.executable.target` backend
is one of `backends`, and nothing else (host code and other targets' executables
stay byte-identical). It is what MLIR's textual pipelines spell as nesting,
`hal.executable(hal.executable.variant(builtin.module(P)))`, restricted to the
variants IREE would give that pipeline.

P is a registered pass name, with its default options. A module without any
matching variant is left as it is.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.passes import ModulePass
from xdsl.utils.exceptions import PassFailedException

from mini_iree.dialects import hal


def variant_modules(module: ModuleOp, backends: tuple[str, ...]) -> list[ModuleOp]:
    """The inner `builtin.module` of each `hal.executable.variant` whose target backend is in `backends`."""
    found: list[ModuleOp] = []
    for op in module.walk():
        if op.name != "hal.executable.variant":
            continue
        target = op.properties.get("target") or op.attributes.get("target")
        if not isinstance(target, hal.ExecutableTargetAttr) or target.backend.data not in backends:
            continue
        found.extend(inner for region in op.regions for inner in region.ops if isinstance(inner, ModuleOp))
    return found


@dataclass(frozen=True)
class ForTargetBackendsPass(ModulePass):
    """Runs one pass on the executables compiled for the given target backends (IREE's per-target pipelines)."""

    name = "for-target-backends"

    backends: tuple[str, ...] = ()
    pass_name: str = ""

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        from mini_iree.passes import get_all_passes

        available = get_all_passes()
        if self.pass_name not in available or self.pass_name == self.name:
            raise PassFailedException(f"pass-name '{self.pass_name}' does not name a registered pass")
        inner = available[self.pass_name]()()
        for module in variant_modules(op, self.backends):
            inner.apply(ctx, module)
