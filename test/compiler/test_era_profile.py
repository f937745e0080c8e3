"""The era profile: one switch, set once per run, that every era-dependent pass and target reads.

A pass option that stands for an era fact (`gpu-era=`, `era=`, `encoding-dims=`,
`async-cast=`) follows the run's era when it is not given; a named pipeline's
`era=` defaults to it; target short names are described as the era's IREE
describes them.
"""

from __future__ import annotations

import dataclasses

import pytest
from conftest import REFERENCE, REPO, or_skip, require_reference

from mini_iree.compiler.era import (
    ERA_NAMES,
    ERA_PROFILES,
    IREE_3_13,
    WALKTHROUGH,
    era_profile,
    option_era,
    run_era,
    set_run_era,
    using_era,
)
from mini_iree.compiler.tools.opt_main import main
from mini_iree.compiler.tools.pipeline import build_passes, parse_pipeline_text
from mini_iree.passes import get_all_passes, get_all_pipelines

MATMUL = REPO / "examples" / "matmul.mlir"

# The passes whose options stand for era facts, with the option each takes.
ERA_OPTIONS = {
    "iree-dispatch-creation-set-encoding": ("encoding_dims", "encoding-dims"),
    "iree-stream-conversion": ("async_cast", "async-cast"),
    "iree-stream-specialize-encodings": ("gpu_era", "gpu-era"),
    "iree-stream-encode-host-tensors": ("era", "era"),
    "iree-codegen-materialize-device-encoding": ("gpu_era", "gpu-era"),
}


def _passes(text: str):
    return build_passes(parse_pipeline_text(text, mlir_syntax=False), get_all_passes(), get_all_pipelines())


def _option_value(era_name: str, field: str) -> str:
    profile = ERA_PROFILES[era_name]
    if field == "encoding_dims":
        return "true" if profile.encoding_dims else "false"
    if field == "async_cast":
        return "true" if profile.async_cast else "false"
    return era_name


def _normalized(value):
    return f"{value:g}" if isinstance(value, float) else value


# -- the profiles ---------------------------------------------------------------


def test_the_walkthrough_is_the_default_era():
    assert ERA_NAMES == ("walkthrough", "3.13")
    assert run_era() is WALKTHROUGH
    assert era_profile() is WALKTHROUGH


def test_the_eras_differ_in_every_fact():
    # Each field of the profile is one difference between the eras: none is the same in both.
    same = [
        f.name
        for f in dataclasses.fields(WALKTHROUGH)
        if getattr(WALKTHROUGH, f.name) == getattr(IREE_3_13, f.name) and f.name != "name"
    ]
    assert same == []


def test_an_era_is_named_by_string_number_or_profile():
    assert era_profile("3.13") is IREE_3_13
    assert era_profile(3.13) is IREE_3_13  # `gpu-era=3.13` reads as a number
    assert era_profile(IREE_3_13) is IREE_3_13
    with pytest.raises(ValueError, match=r"unknown era '3.14' \(expected one of: walkthrough, 3.13\)"):
        era_profile("3.14")


def test_using_era_scopes_the_run_era_and_set_run_era_sets_it():
    with using_era("3.13") as profile:
        assert profile is IREE_3_13 and run_era() is IREE_3_13
        with using_era("walkthrough"):
            assert run_era() is WALKTHROUGH
        assert run_era() is IREE_3_13
    assert run_era() is WALKTHROUGH
    with using_era(WALKTHROUGH):
        assert set_run_era("3.13") is IREE_3_13
        assert run_era() is IREE_3_13
    assert run_era() is WALKTHROUGH


def test_an_unset_option_follows_the_run_and_a_bad_one_names_the_option():
    from xdsl.utils.exceptions import PassFailedException

    with using_era("3.13"):
        assert option_era("", "gpu-era") is IREE_3_13
        assert option_era("walkthrough", "gpu-era") is WALKTHROUGH
    with pytest.raises(PassFailedException, match=r"unknown gpu-era '2024' \(expected one of: walkthrough, 3.13\)"):
        option_era(2024, "gpu-era")


# -- pass options ---------------------------------------------------------------


@pytest.mark.parametrize("era", ERA_NAMES)
@pytest.mark.parametrize("name", sorted(ERA_OPTIONS))
def test_a_pass_built_in_a_run_takes_the_run_era_as_its_default(name, era):
    field, option = ERA_OPTIONS[name]
    explicit = _passes(f"{name}{{{option}={_option_value(era, field)}}}")[0]
    with using_era(era):
        implicit = _passes(name)[0]
    assert _normalized(getattr(implicit, field)) == _normalized(getattr(explicit, field))
    # An option given on the command line wins over the run's era.
    other = f"{name}{{{option}={_option_value(next(e for e in ERA_NAMES if e != era), field)}}}"
    with using_era(era):
        given = _passes(other)[0]
    assert _normalized(getattr(given, field)) == _normalized(getattr(_passes(other)[0], field))
    assert _normalized(getattr(given, field)) != _normalized(getattr(implicit, field))


def test_padding_encodings_carry_no_sizes_in_a_3_13_run_but_asking_for_them_is_an_error():
    with using_era("3.13"):
        (padded,) = _passes("iree-dispatch-creation-set-encoding{encoding-option=padding}")
        assert padded.encoding_dims is False
    result = main_result(["-p", "iree-dispatch-creation-set-encoding{encoding-option=padding encoding-dims=true}"])
    assert result[0] == 1
    assert "encoding-dims=true needs encoding-option=default" in result[2]


def main_result(args: list[str], era: str | None = None, path=MATMUL) -> tuple[int, str, str]:
    """mini-iree-opt in this process (so that a run era applies), with its status, stdout and stderr."""
    import contextlib
    import io

    out, err = io.StringIO(), io.StringIO()
    scope = using_era(era) if era is not None else contextlib.nullcontext()
    era_flag = [f"--iree-era={era}"] if era is not None else []
    with scope, contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        status = main([str(path), *args, *era_flag])
    return status, out.getvalue(), err.getvalue()


@pytest.mark.parametrize(
    ("dump", "passes", "options"),
    or_skip(
        [
            (
                REFERENCE / "seed-walkthrough" / "10-convert-to-stream.after.mlir",
                "iree-stream-specialize-encodings",
                "{gpu-era=3.13}",
            ),
            (
                REFERENCE / "iree-3.13" / "dynamic-matmul" / "10_SpecializeEncodingsPass.mlir",
                "iree-stream-encode-host-tensors",
                "{era=3.13}",
            ),
        ]
    ),
)
def test_passes_run_one_by_one_in_a_3_13_run_need_no_option(dump, passes, options):
    if not dump.is_file():
        pytest.skip(f"reference dump not found: {dump} (it lives in ../shared beside the checkout)")
    explicit = main_result(["-p", passes + options], path=dump)
    implicit = main_result(["-p", passes], era="3.13", path=dump)
    walkthrough = main_result(["-p", passes], path=dump)
    assert explicit[0] == implicit[0] == walkthrough[0] == 0, (explicit[2], implicit[2])
    assert implicit[1] == explicit[1]
    assert implicit[1] != walkthrough[1]


# -- named pipelines ------------------------------------------------------------


def test_a_pipeline_without_era_follows_the_run():
    with using_era("3.13"):
        implicit = _passes("data-tiling{target=gfx942}")
    explicit = _passes("data-tiling{target=gfx942 era=3.13}")
    assert [p.name for p in implicit] == [p.name for p in explicit]
    differ = {
        p.name: {f: getattr(p, f) for f in p.__dataclass_fields__ if getattr(p, f) != getattr(q, f)}
        for p, q in zip(implicit, explicit)
        if p != q
    }
    # The same passes; only the targets are named differently: with their era when it is not the run's.
    assert differ == {"iree-hal-assign-target-devices": {"target_era": "3.13", "targetDevices": "gfx942"}}
    assert explicit[0].targetDevices == "gfx942:era=3.13"


def test_a_pipeline_era_other_than_the_run_is_spelled_on_each_target():
    with using_era("3.13"):
        passes = _passes("data-tiling{target='gfx942,x86_64:+avx512f' era=walkthrough encoding=padding}")
    names = {p.name: p for p in passes}
    assert names["iree-hal-assign-target-devices"].targetDevices == (
        "gfx942:encoding-layout-resolver=pad,era=walkthrough,x86_64:+avx512f,era=walkthrough"
    )
    assert names["iree-stream-specialize-encodings"].gpu_era == "walkthrough"
    assert names["iree-dispatch-creation-set-encoding"].encoding_dims is False


def test_padding_with_the_3_13_era_builds():
    names = {p.name: p for p in _passes("data-tiling{target=gfx942 era=3.13 encoding=padding}")}
    assert names["iree-dispatch-creation-set-encoding"].encoding_option == "padding"
    assert names["iree-dispatch-creation-set-encoding"].encoding_dims is False
    assert names["iree-stream-conversion"].async_cast is True


# -- targets --------------------------------------------------------------------


def _reference_target(dump):
    from xdsl.parser import Parser

    from mini_iree.compiler.resolvers.gpu import _context

    line = next(l for l in dump.read_text().splitlines() if l.startswith("#executable_target_rocm_hsaco_fb = "))
    return Parser(_context(), line.split(" = ", 1)[1]).parse_attribute()


def test_gfx942_in_the_3_13_era_is_iree_3_13s_target():
    from mini_iree.compiler.analysis.target_devices import device_targets
    from mini_iree.compiler.resolvers.targets import parse_target

    reference = require_reference()
    expected = _reference_target(reference / "iree-3.13" / "gfx942-dynamic-matmul" / "09_HoistIntoGlobalsPass.mlir")
    walkthrough = _reference_target(reference / "seed-walkthrough" / "08-hoist-into-globals.after.mlir")
    (device,) = device_targets(["gfx942:era=3.13"])
    assert device.executable_targets.data[0] == expected
    with using_era("3.13"):
        (in_run,) = device_targets(["gfx942"])
    assert in_run == device
    (default,) = device_targets(["gfx942"])
    assert default.executable_targets.data[0] != expected
    # The walkthrough's own gfx942 (its dump 08 prints it before the tuning spec is attached).
    assert parse_target("gfx942") == walkthrough
    assert parse_target("gfx942:era=walkthrough") == walkthrough


def test_the_3_13_pipeline_prints_3_13s_gfx942_target_and_keeps_results():
    reference = require_reference()
    dump = reference / "iree-3.13" / "gfx942-dynamic-matmul" / "09_HoistIntoGlobalsPass.mlir"
    line = next(l for l in dump.read_text().splitlines() if l.startswith("#executable_target_rocm_hsaco_fb = "))
    status, out, err = main_result(
        ["-p", "data-tiling-dispatch-creation{target=gfx942}", "--verify-each-with-interpreter"], era="3.13"
    )
    assert status == 0, err
    assert line in out
    status, out, err = main_result(["-p", "data-tiling-dispatch-creation{target=gfx942 era=3.13}"])
    assert status == 0, err
    assert line in out


def test_cpu_and_vmvx_targets_in_the_3_13_era_have_its_fields():
    from mini_iree.compiler.resolvers.targets import parse_target

    cpu = parse_target("x86_64:+avx512f,era=3.13")
    assert list(cpu.config)[:2] == ["cpu", "cpu_features"] and cpu.get_config("cpu").data == ""
    assert "cpu" not in parse_target("x86_64:+avx512f").config
    assert parse_target("vmvx:era=3.13").get_config("ukernels").data == "none"
    assert parse_target("vmvx:ukernels=all,era=3.13").get_config("ukernels").data == "all"
    assert parse_target("vmvx").get_config("ukernels") is None
    with pytest.raises(ValueError, match=r"unknown era '2' .* in target 'vmvx:era=2'"):
        parse_target("vmvx:era=2")


def test_padding_in_the_3_13_era_keeps_results():
    program = REPO / "test" / "e2e" / "Inputs" / "padding" / "matmul_chain.mlir"
    status, out, err = main_result(
        ["-p", "data-tiling{target=gfx942 era=3.13 encoding=padding}", "--verify-each-with-interpreter"], path=program
    )
    assert status == 0, err
    assert "gpu_padding_resolver" in out and "stream.async.cast" in out
