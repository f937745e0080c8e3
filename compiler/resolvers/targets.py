"""Executable targets, from IR text or the short names people type.

A resolver only reads a target's configuration, so a short name is enough to
build one:

    x86_64                      no CPU features: the SSE tiles
    x86_64:+avx,+avx2,+fma      features as LLVM spells them, matched token by token
    aarch64:+neon,+i8mm         (also riscv64:+m,+a,+f,+d,+v,+zvl256b and riscv32:...)
    vmvx                        the portable VMVX backend
    gfx942, gfx90a, gfx950      AMD GPUs (built by the GPU resolver's module;
    gfx908, gfx1100             also CDNA1 and RDNA3)
    gfx942:encoding-layout-resolver=pad
                                the GPU with IREE's `--iree-hip-encoding-layout-resolver`
                                (`data-tiling`, the default; `pad`; `none`)

A `ukernels=VALUE` token among the features (`riscv32:+m,ukernels=all`,
`vmvx:ukernels=all`) sets the `ukernels` entry: riscv32 only data-tiles with
microkernels, and VMVX then leaves its tile sizes to the runtime.

A target is described as the era's IREE describes it (`compiler/era.py`; the
run's era unless an `era=walkthrough|3.13` token says which:
`gfx942:era=3.13`, `x86_64:+avx512f,era=3.13`, `vmvx:era=3.13`). IREE 3.13
adds fields the walkthrough's targets do not print: the GPUs' block
intrinsics, DMA sizes and LDS bank count, the CPUs' `cpu` name, VMVX's
`ukernels`.

CPU targets carry what IREE's llvm-cpu backend records (`cpu_features`,
`data_layout`, `max_stack_allocation_size`, `native_vector_size`,
`target_triple`) and the CPU encoding resolver.
"""

from __future__ import annotations

import re

from xdsl.dialects.builtin import IntegerAttr, StringAttr, i64
from xdsl.ir import Attribute

from mini_iree.compiler.era import EraProfile, era_profile
from mini_iree.compiler.resolvers.cpu import vlen_from_features
from mini_iree.dialects import hal
from mini_iree.dialects.iree_cpu import CPUEncodingResolverAttr, VMVXEncodingResolverAttr

ACCEPTED_FORMS = (
    "accepted targets: '#hal.executable.target<...>' IR text; 'ARCH' or 'ARCH:+feat1,+feat2,...' "
    "with ARCH one of x86_64, aarch64, riscv64, riscv32 (e.g. 'x86_64:+avx,+avx2,+fma', "
    "'riscv64:+m,+a,+f,+d,+v,+zvl256b'); 'vmvx'; a GPU architecture (gfx942, gfx90a, gfx950, gfx908, gfx1100); "
    "a 'ukernels=VALUE' token may follow the features (e.g. 'vmvx:ukernels=all'); a GPU takes "
    "'encoding-layout-resolver=data-tiling|pad|none' (e.g. 'gfx942:encoding-layout-resolver=pad')"
)


# Per architecture: executable format suffix, triple, LLVM data layout.
_CPU_ARCHS: dict[str, tuple[str, str, str]] = {
    "x86_64": (
        "x86_64",
        "x86_64-unknown-unknown-eabi-elf",
        "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128",
    ),
    "aarch64": (
        "arm_64",
        "aarch64-unknown-unknown-eabi-elf",
        "e-m:e-i8:8:32-i16:16:32-i64:64-i128:128-n32:64-S128",
    ),
    "riscv64": (
        "riscv_64",
        "riscv64-unknown-unknown-eabi-elf",
        "e-m:e-p:64:64-i64:64-i128:128-n32:64-S128",
    ),
    "riscv32": (
        "riscv_32",
        "riscv32-unknown-unknown-eabi-elf",
        "e-m:e-p:32:32-i64:64-n32-S128",
    ),
}

_FEATURE = re.compile(r"[+-][A-Za-z0-9_.]+")
_OPTION = re.compile(r"ukernels=([A-Za-z0-9_]+)")
_ERA = re.compile(r"era=([A-Za-z0-9_.]+)")
_GPU_ARCH = re.compile(r"gfx[0-9a-f]+")
_GPU_RESOLVER = re.compile(r"encoding-layout-resolver=([A-Za-z0-9_-]+)")


def _native_vector_size(arch: str, features: list[str]) -> int:
    # The widest vector register, in bytes (what IREE's llvm-cpu target records).
    if arch == "x86_64":
        return 64 if "+avx512f" in features else 32 if "+avx" in features else 16
    if arch == "riscv64" and "+v" in features:
        return vlen_from_features(features) // 4  # LMUL=2 register groups
    return 16


def cpu_target(
    arch: str,
    features: list[str] | tuple[str, ...] = (),
    ukernels: str | None = None,
    era: str | EraProfile | None = None,
) -> hal.ExecutableTargetAttr:
    """An llvm-cpu embedded-ELF target for `arch` with these `cpu_features` tokens, as `era` prints it."""
    if arch not in _CPU_ARCHS:
        raise ValueError(f"unknown CPU architecture '{arch}'; {ACCEPTED_FORMS}")
    format_arch, triple, data_layout = _CPU_ARCHS[arch]
    config: dict[str, Attribute] = {}
    if era_profile(era).cpu_name_field:
        # No CPU is named: the features say everything the resolvers read.
        config["cpu"] = StringAttr("")
    config |= {
        "cpu_features": StringAttr(",".join(features)),
        "data_layout": StringAttr(data_layout),
        "iree.encoding.resolver": CPUEncodingResolverAttr(),
        "max_stack_allocation_size": IntegerAttr(32768, i64),
        "native_vector_size": IntegerAttr(_native_vector_size(arch, list(features)), i64),
        "target_triple": StringAttr(triple),
    }
    if ukernels is not None:
        config["ukernels"] = StringAttr(ukernels)
    return hal.ExecutableTargetAttr("llvm-cpu", f"embedded-elf-{format_arch}", config)


def vmvx_target(ukernels: str | None = None, era: str | EraProfile | None = None) -> hal.ExecutableTargetAttr:
    """The VMVX bytecode target with its encoding resolver, as `era` prints it."""
    config: dict[str, Attribute] = {"iree.encoding.resolver": VMVXEncodingResolverAttr()}
    if ukernels is None and era_profile(era).vmvx_ukernels_field:
        # IREE's --iree-vmvx-enable-microkernels is off by default.
        ukernels = "none"
    if ukernels is not None:
        config["ukernels"] = StringAttr(ukernels)
    return hal.ExecutableTargetAttr("vmvx", "vmvx-bytecode-fb", config)


def _parse_ir(text: str) -> hal.ExecutableTargetAttr:
    from xdsl.context import Context
    from xdsl.parser import Parser
    from xdsl.utils.exceptions import ParseError, VerifyException

    from mini_iree.dialects import get_all_dialects

    ctx = Context()
    for name, factory in get_all_dialects().items():
        ctx.register_dialect(name, factory)
    try:
        parser = Parser(ctx, text, "<target>")
        attr = parser.parse_attribute()
        # Nothing may follow the attribute.
        if parser.pos < len(text.rstrip()):
            parser.raise_error("unexpected text after the target attribute")
    except (ParseError, VerifyException) as err:
        lines = [line for line in str(err).strip().splitlines() if line.strip()]
        detail = lines[-1] if lines else str(err)
        raise ValueError(f"cannot parse target: {detail}; {ACCEPTED_FORMS}") from None
    if not isinstance(attr, hal.ExecutableTargetAttr):
        raise ValueError(f"expected a #hal.executable.target attribute, got {attr}; {ACCEPTED_FORMS}")
    return attr


def _split_options(name: str, tokens: list[str]) -> tuple[list[str], str | None, str | None]:
    features: list[str] = []
    ukernels: str | None = None
    era: str | None = None
    for token in tokens:
        if match := _OPTION.fullmatch(token):
            ukernels = match.group(1)
        elif match := _ERA.fullmatch(token):
            era = _era_name(name, match.group(1))
        elif _FEATURE.fullmatch(token):
            features.append(token)
        else:
            raise ValueError(f"bad feature '{token}' in target '{name}'; {ACCEPTED_FORMS}")
    return features, ukernels, era


def _era_name(name: str, era: str) -> str:
    try:
        return era_profile(era).name
    except ValueError as err:
        raise ValueError(f"{err} in target '{name}'; {ACCEPTED_FORMS}") from None


def parse_target(text: str, era: str | EraProfile | None = None) -> hal.ExecutableTargetAttr:
    """A target from `#hal.executable.target<...>` text or a short name (see the module doc).

    A short name is described as `era`'s IREE does (None: the run's era), unless
    its own `era=` token says otherwise. Raises ValueError, listing the accepted
    forms, for anything else.
    """
    name = text.strip()
    if name.startswith("#"):
        return _parse_ir(name)
    arch, _, rest = name.partition(":")
    if _GPU_ARCH.fullmatch(arch):
        return _gpu_target(name, arch, rest, era)
    tokens = [t.strip() for t in rest.split(",")] if rest else []
    if any(not t for t in tokens) or (rest == "" and name.endswith(":")):
        raise ValueError(f"empty feature in target '{name}'; {ACCEPTED_FORMS}")
    features, ukernels, named_era = _split_options(name, tokens)
    era = named_era or era
    if arch == "vmvx":
        if features:
            raise ValueError(f"vmvx takes no CPU features (got '{rest}'); {ACCEPTED_FORMS}")
        return vmvx_target(ukernels, era)
    if arch in _CPU_ARCHS:
        return cpu_target(arch, features, ukernels, era)
    raise ValueError(f"unknown target '{name}'; {ACCEPTED_FORMS}")


def _gpu_target(name: str, arch: str, rest: str, era: str | EraProfile | None) -> hal.ExecutableTargetAttr:
    """`gfx942`, `gfx942:encoding-layout-resolver=pad`, `gfx942:era=3.13` (or both, comma-separated)."""
    from mini_iree.compiler.resolvers.gpu import rocm_target

    resolver = "data-tiling"
    if rest or name.endswith(":"):
        for token in rest.split(","):
            token = token.strip()
            if match := _GPU_RESOLVER.fullmatch(token):
                resolver = match.group(1)
            elif match := _ERA.fullmatch(token):
                era = _era_name(name, match.group(1))
            else:
                raise ValueError(f"bad GPU option '{rest}' in target '{name}'; {ACCEPTED_FORMS}")
    try:
        return rocm_target(arch, resolver, era)
    except ValueError as err:
        raise ValueError(f"{err}; {ACCEPTED_FORMS}") from None
