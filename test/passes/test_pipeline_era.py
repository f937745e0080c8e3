"""`era=walkthrough|3.13` (and `encoding=data-tiling|padding`) on the data-tiling pipelines: one switch each
for the pass options they stand for."""

from __future__ import annotations

import pytest
from conftest import REPO, run_opt

from mini_iree.compiler.tools.pipeline import build_passes, parse_pipeline_text
from mini_iree.passes import get_all_passes, get_all_pipelines

# IREE 3.13's behaviour, pass by pass (what the era switch stands for).
PASSES_313 = {
    # A pipeline whose era is not the run's names it on each target, so that devices are described as that IREE does.
    "iree-hal-assign-target-devices": {"targetDevices": "gfx942:era=3.13"},
    # Bit extends on x86_64/aarch64 CPUs get dispatches of their own.
    "iree-dispatch-creation-form-dispatch-regions": {"era": "3.13"},
    "iree-dispatch-creation-set-encoding": {"encoding_dims": True},
    "iree-stream-conversion": {"async_cast": True},
    "iree-stream-specialize-encodings": {"gpu_era": "3.13"},
    "iree-stream-encode-host-tensors": {"era": "3.13"},
    "iree-stream-fold-uniform-operands": {"era": "3.13"},
    "iree-codegen-materialize-device-encoding": {"gpu_era": "3.13"},
}


def _value(value):
    # An era option reads `3.13` as a number (its type is str | float, as the pass spec gives it).
    return f"{value:g}" if isinstance(value, float) else value


def _passes(text: str):
    return build_passes(parse_pipeline_text(text, mlir_syntax=False), get_all_passes(), get_all_pipelines())


def test_era_sets_every_per_pass_option_and_nothing_else():
    walkthrough = _passes("data-tiling{target=gfx942}")
    iree313 = _passes("data-tiling{target=gfx942 era=3.13}")
    assert [p.name for p in walkthrough] == [p.name for p in iree313]
    changed = {}
    for before, after in zip(walkthrough, iree313):
        diff = {
            f: _value(getattr(after, f)) for f in before.__dataclass_fields__ if getattr(before, f) != getattr(after, f)
        }
        if diff:
            changed[after.name] = diff
    assert changed == PASSES_313


def test_default_era_is_the_walkthrough():
    assert [p.pipeline_pass_spec() for p in _passes("data-tiling{target=gfx942}")] == [
        p.pipeline_pass_spec() for p in _passes("data-tiling{target=gfx942 era=walkthrough}")
    ]


@pytest.mark.parametrize("pipeline", ["data-tiling-dispatch-creation", "data-tiling-stream", "data-tiling-codegen"])
def test_each_half_takes_the_era(pipeline):
    names = {p.name: p for p in _passes(f"{pipeline}{{era=3.13}}")}
    for name, options in PASSES_313.items():
        if name in names:
            assert {f: _value(getattr(names[name], f)) for f in options} == options


def test_an_unknown_era_is_a_command_line_error():
    result = run_opt([str(REPO / "examples" / "matmul.mlir"), "-p", "data-tiling{target=gfx942 era=3.14}"])
    assert result.returncode == 1
    assert result.stderr.startswith("<cmdline>:1:1: error: invalid options for pipeline 'data-tiling': option 'era' "
                                    "takes walkthrough or 3.13, not '3.14'")  # fmt: skip


@pytest.mark.parametrize("target", ["gfx942", "x86_64:+avx512f"])
def test_both_eras_keep_results(target):
    result = run_opt([str(REPO / "examples" / "matmul.mlir"), "-p", f"data-tiling{{target={target} era=3.13}}",
                      "--verify-each-with-interpreter", "-o", "/dev/null"])  # fmt: skip
    assert result.returncode == 0, result.stderr


def test_padding_sets_the_encoding_option_and_the_gpu_resolver():
    plain = _passes("data-tiling{target=x86_64:+avx512f,gfx942}")
    padded = _passes("data-tiling{target=x86_64:+avx512f,gfx942 encoding=padding}")
    changed = {}
    for before, after in zip(plain, padded, strict=True):
        diff = {f: getattr(after, f) for f in before.__dataclass_fields__ if getattr(before, f) != getattr(after, f)}
        if diff:
            changed[after.name] = diff
    assert changed == {
        "iree-hal-assign-target-devices": {"targetDevices": "x86_64:+avx512f,gfx942:encoding-layout-resolver=pad"},
        "iree-dispatch-creation-set-encoding": {"encoding_option": "padding"},
    }
