"""Executable targets from short names and IR text."""

from __future__ import annotations

import sys
import types
from io import StringIO

import pytest
from conftest import require_reference
from xdsl.dialects.builtin import StringAttr

from mini_iree.compiler.ir.printer import MLIRPrinter
from mini_iree.compiler.resolvers.targets import parse_target
from mini_iree.dialects import hal
from mini_iree.dialects.iree_cpu import CPUEncodingResolverAttr, VMVXEncodingResolverAttr


def print_attr(attr) -> str:
    stream = StringIO()
    MLIRPrinter(stream=stream, local_scope=True).print_attribute(attr)
    return stream.getvalue()


X86_LAYOUT = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"


@pytest.mark.parametrize(
    ("name", "text"),
    [
        (
            "x86_64:+avx,+avx2,+fma",
            '#hal.executable.target<"llvm-cpu", "embedded-elf-x86_64", {cpu_features = "+avx,+avx2,+fma", '
            f'data_layout = "{X86_LAYOUT}", iree.encoding.resolver = #iree_cpu.cpu_encoding_resolver<>, '
            "max_stack_allocation_size = 32768 : i64, native_vector_size = 32 : i64, "
            'target_triple = "x86_64-unknown-unknown-eabi-elf"}>',
        ),
        (
            "x86_64",
            '#hal.executable.target<"llvm-cpu", "embedded-elf-x86_64", {cpu_features = "", '
            f'data_layout = "{X86_LAYOUT}", iree.encoding.resolver = #iree_cpu.cpu_encoding_resolver<>, '
            "max_stack_allocation_size = 32768 : i64, native_vector_size = 16 : i64, "
            'target_triple = "x86_64-unknown-unknown-eabi-elf"}>',
        ),
        (
            "aarch64:+neon,+i8mm",
            '#hal.executable.target<"llvm-cpu", "embedded-elf-arm_64", {cpu_features = "+neon,+i8mm", '
            'data_layout = "e-m:e-i8:8:32-i16:16:32-i64:64-i128:128-n32:64-S128", '
            "iree.encoding.resolver = #iree_cpu.cpu_encoding_resolver<>, max_stack_allocation_size = 32768 : i64, "
            'native_vector_size = 16 : i64, target_triple = "aarch64-unknown-unknown-eabi-elf"}>',
        ),
        (
            "riscv64:+m,+a,+f,+d,+v,+zvl256b",
            '#hal.executable.target<"llvm-cpu", "embedded-elf-riscv_64", {cpu_features = "+m,+a,+f,+d,+v,+zvl256b", '
            'data_layout = "e-m:e-p:64:64-i64:64-i128:128-n32:64-S128", '
            "iree.encoding.resolver = #iree_cpu.cpu_encoding_resolver<>, max_stack_allocation_size = 32768 : i64, "
            'native_vector_size = 64 : i64, target_triple = "riscv64-unknown-unknown-eabi-elf"}>',
        ),
        (
            "riscv32:+m,+f,ukernels=all",
            '#hal.executable.target<"llvm-cpu", "embedded-elf-riscv_32", {cpu_features = "+m,+f", '
            'data_layout = "e-m:e-p:32:32-i64:64-n32-S128", '
            "iree.encoding.resolver = #iree_cpu.cpu_encoding_resolver<>, max_stack_allocation_size = 32768 : i64, "
            'native_vector_size = 16 : i64, target_triple = "riscv32-unknown-unknown-eabi-elf", ukernels = "all"}>',
        ),
        (
            "vmvx",
            '#hal.executable.target<"vmvx", "vmvx-bytecode-fb", {iree.encoding.resolver = #iree_cpu.vmvx_encoding_resolver<>}>',
        ),
        (
            "vmvx:ukernels=all",
            '#hal.executable.target<"vmvx", "vmvx-bytecode-fb", '
            '{iree.encoding.resolver = #iree_cpu.vmvx_encoding_resolver<>, ukernels = "all"}>',
        ),
    ],
)
def test_short_names_print_like_iree(name, text):
    target = parse_target(name)
    assert print_attr(target) == text
    assert parse_target(text) == target  # and the printed form reads back


@pytest.mark.parametrize(
    "name",
    ["x86_64:+avx512f", "aarch64:+sve", "riscv64:+v", "riscv32:+m", "vmvx", "  x86_64:+avx  "],
)
def test_round_trip(name):
    target = parse_target(name)
    assert parse_target(print_attr(target)) == target
    assert parse_target(str(target)) == target


def test_resolver_kind():
    assert isinstance(parse_target("x86_64").get_config("iree.encoding.resolver"), CPUEncodingResolverAttr)
    assert isinstance(parse_target("vmvx").get_config("iree.encoding.resolver"), VMVXEncodingResolverAttr)


def test_features_are_kept_verbatim():
    target = parse_target("x86_64:+avx2,-avx512f,+sse4.2")
    assert target.get_config("cpu_features") == StringAttr("+avx2,-avx512f,+sse4.2")


def test_ir_text_from_the_walkthrough():
    # The multi-device example mixes VMVX with hand-written llvm-cpu targets.
    ref = require_reference() / "seed-walkthrough" / "11-specialize-encodings.sizeof-multi-device.example.mlir"
    lines = [x for x in ref.read_text().splitlines() if x.startswith("#executable_target_")]
    targets = [parse_target(x.split(" = ", 1)[1]) for x in lines]
    assert [t.backend.data for t in targets] == ["vmvx", "llvm-cpu", "llvm-cpu"]
    assert targets[0] == parse_target("vmvx")
    assert targets[1].get_config("cpu_features") == StringAttr("+avx512f")


def test_gpu_names_go_to_the_gpu_module(monkeypatch):
    seen: list[str] = []
    fake = types.ModuleType("mini_iree.compiler.resolvers.gpu")

    def rocm_target(arch: str, resolver: str = "data-tiling", era: str | None = None) -> hal.ExecutableTargetAttr:
        seen.append(f"{arch}/{resolver}" + (f"/{era}" if era else ""))
        return hal.ExecutableTargetAttr("rocm", "rocm-hsaco-fb", {})

    fake.rocm_target = rocm_target  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "mini_iree.compiler.resolvers.gpu", fake)
    for arch in ("gfx942", "gfx90a", "gfx950"):
        assert parse_target(arch).backend.data == "rocm"
    assert parse_target("gfx942:encoding-layout-resolver=pad").backend.data == "rocm"
    assert parse_target("gfx942:era=3.13,encoding-layout-resolver=pad").backend.data == "rocm"
    assert seen == ["gfx942/data-tiling", "gfx90a/data-tiling", "gfx950/data-tiling", "gfx942/pad", "gfx942/pad/3.13"]


@pytest.mark.parametrize(
    ("name", "resolver"),
    [
        ("gfx942", "#iree_gpu.gpu_encoding_resolver<>"),
        ("gfx942:encoding-layout-resolver=data-tiling", "#iree_gpu.gpu_encoding_resolver<>"),
        ("gfx90a:encoding-layout-resolver=pad", "#iree_gpu.gpu_padding_resolver<>"),
        ("gfx942:encoding-layout-resolver=none", None),
    ],
)
def test_gpu_encoding_layout_resolver_option(name, resolver):
    """IREE's `--iree-hip-encoding-layout-resolver`, spelled on the target name."""
    got = parse_target(name).get_config("iree.encoding.resolver")
    assert (None if got is None else str(got)) == resolver


@pytest.mark.parametrize("name", ["gfx942:", "gfx942:+avx", "gfx942:encoding-layout-resolver=packed"])
def test_bad_gpu_options_are_rejected(name):
    with pytest.raises(ValueError, match="accepted targets"):
        parse_target(name)


@pytest.mark.parametrize(
    "name",
    [
        "",
        "x86",
        "arm64:+neon",
        "x86_64:avx2",  # features need a + or - sign
        "x86_64:",
        "x86_64:+avx,,+fma",
        "x86_64:+avx;+fma",
        "vmvx:+avx",
        "gfx",
        "#hal.executable.target<",
        "#iree_cpu.cpu_encoding_resolver<>",
        '#hal.executable.target<"vmvx", "vmvx-bytecode-fb"> trailing',
    ],
)
def test_bad_names_are_rejected(name):
    with pytest.raises(ValueError, match="accepted targets") as err:
        parse_target(name)
    assert "x86_64:+avx,+avx2,+fma" in str(err.value) and "gfx942" in str(err.value)


@pytest.mark.parametrize(
    ("name", "first_mma", "subgroup_sizes"),
    [
        # CDNA1: only wave64, the first MFMA generation (no bf16 or f64 MFMA yet).
        ("gfx908", "MFMA_F32_16x16x4_F32", "[64]"),
        # RDNA3: wave32 or wave64, WMMA only.
        ("gfx1100", "WMMAR3_F32_16x16x16_F16", "[32, 64]"),
    ],
)
def test_older_amd_gpus(name, first_mma, subgroup_sizes):
    """gfx908 and gfx1100 as IREE's KnownTargets.cpp lists them (half gfx942's VGPRs)."""
    text = str(parse_target(f"{name}:era=3.13"))
    assert f'arch = "{name}"' in text
    assert f"mma = [<{first_mma}>" in text
    assert f"subgroup_size_choices = {subgroup_sizes}" in text
    assert "vgpr_space_bits = 8192" in text
    assert "dma_sizes" not in text
