"""mini-iree-opt for a newcomer: a missing target, the target spellings, and mlir-opt's habits."""

from __future__ import annotations

import re

from conftest import REPO, run_opt

MATMUL = str(REPO / "examples" / "matmul.mlir")


def one_error_line(stderr: str) -> str:
    lines = stderr.splitlines()
    assert len(lines) == 1, stderr
    assert "internal error" not in stderr and "Traceback" not in stderr
    return lines[0]


# -- a pipeline that needs a target ------------------------------------------------


def test_data_tiling_without_a_target_says_a_target_is_needed():
    result = run_opt([MATMUL, "-p", "data-tiling"])
    assert result.returncode == 1
    line = one_error_line(result.stderr)
    assert line.startswith("<cmdline>:1:1: error: pipeline 'data-tiling' needs a target: the input declares no device")
    assert "unserialized" not in line
    # The spellings, so that the next try works.
    for spelling in ("data-tiling{target=gfx942}", "x86_64:+avx,+avx2,+fma", "riscv64", "vmvx:ukernels=all",
                     "gfx942:encoding-layout-resolver=pad"):
        assert spelling in line
    assert result.stdout == ""


def test_the_error_points_at_the_pipeline_that_needs_the_target():
    result = run_opt([MATMUL, "-p", "data-tiling-dispatch-creation,data-tiling-stream"])
    assert result.returncode == 1
    assert one_error_line(result.stderr).startswith(
        "<cmdline>:1:31: error: pipeline 'data-tiling-stream' needs a target"
    )


def test_a_target_given_earlier_in_the_pipeline_is_enough():
    result = run_opt([MATMUL, "-p", "data-tiling-dispatch-creation{target=vmvx},data-tiling-stream,data-tiling-codegen"])
    assert result.returncode == 0, result.stderr
    assert "iree_encoding" not in result.stdout


def test_dispatch_creation_needs_no_target():
    result = run_opt([MATMUL, "-p", "data-tiling-dispatch-creation"])
    assert result.returncode == 0, result.stderr


def test_an_input_that_declares_its_devices_needs_no_target(tmp_path):
    with_devices = run_opt(
        [MATMUL, "-p", "iree-hal-assign-target-devices{targetDevices=vmvx},iree-hal-materialize-target-devices"]
    )
    assert with_devices.returncode == 0, with_devices.stderr
    path = tmp_path / "with_devices.mlir"
    path.write_text(with_devices.stdout)
    result = run_opt([str(path), "-p", "data-tiling"])
    assert result.returncode == 0, result.stderr
    assert "iree_encoding" not in result.stdout


def test_list_passes_lists_the_target_spellings():
    result = run_opt(["--list-passes"])
    assert result.returncode == 0
    targets = result.stdout.split("\nTargets (", 1)[1]
    for spelling in ("x86_64", "aarch64", "riscv64", "'vmvx'", "gfx942", "ukernels=VALUE",
                     "encoding-layout-resolver=data-tiling|pad|none"):
        assert spelling in targets
    # The pipelines' own option says where to look.
    assert "'Targets' at the end of --list-passes" in result.stdout


# -- mlir-opt's flags ----------------------------------------------------------------


def test_disable_threading_is_accepted_and_changes_nothing():
    plain = run_opt([MATMUL, "-p", "data-tiling-dispatch-creation"])
    single = run_opt([MATMUL, "-p", "data-tiling-dispatch-creation", "--mlir-disable-threading"])
    assert single.returncode == 0, single.stderr
    assert single.stdout == plain.stdout and single.stderr == ""


def test_help_says_there_is_no_threading_to_disable():
    result = run_opt(["--help"])
    text = " ".join(result.stdout.split())
    assert "--mlir-disable-threading accepted for mlir-opt's sake: mini-iree-opt runs every pass on one thread" in text


def test_dump_pass_pipeline_prints_the_expanded_pipeline_that_parses_back(tmp_path):
    result = run_opt([MATMUL, "-p", "data-tiling{target=x86_64:+avx,+avx2,+fma}", "--dump-pass-pipeline"])
    assert result.returncode == 0, result.stderr
    header, dump = result.stderr.split("\n", 1)
    count = int(re.fullmatch(r"Pass Manager with (\d+) passes:", header).group(1))
    # MLIR's pretty form: one pass per line, then a blank line.
    assert dump.startswith('builtin.module(\n  iree-hal-assign-target-devices{targetDevices="x86_64:+avx,+avx2,+fma"},\n')
    assert dump.endswith("\n  iree-codegen-combine-layout-transformation{scope=dispatch}\n)\n\n")
    lines = dump.splitlines()
    assert len(lines) == count + 3  # builtin.module(, the passes, ), the blank line
    # Every option with its value, sorted by name, as MLIR prints them.
    assert "  iree-dispatch-creation-set-encoding{encoding-dims=false encoding-option=default}," in lines
    assert (
        "  iree-codegen-materialize-device-encoding{gpu-era=walkthrough test-cl-gpu-target=false "
        "test-gpu-encoding-resolver=none}," in lines
    )
    again = run_opt([MATMUL, f"--pass-pipeline={dump}"])
    assert again.returncode == 0, again.stderr
    assert again.stdout == result.stdout


def test_pass_statistics_count_created_and_erased_ops(tmp_path):
    path = tmp_path / "twice.mlir"
    path.write_text(
        "func.func @f() -> (index, index) {\n"
        "  %a = arith.constant 1 : index\n"
        "  %b = arith.constant 1 : index\n"
        "  return %a, %b : index, index\n"
        "}\n"
    )
    result = run_opt([str(path), "-p", "cse", "--mlir-pass-statistics"])
    assert result.returncode == 0, result.stderr
    assert result.stderr == (
        "===-------------------------------------------------------------------------===\n"
        "                         ... Pass statistics report ...\n"
        "===-------------------------------------------------------------------------===\n"
        "CommonSubexpressionElimination\n"
        "  (S) 0 num-ops-created - Number of operations created\n"
        "  (S) 1 num-ops-erased  - Number of operations erased\n"
    )


def test_pass_statistics_do_not_count_moved_ops():
    result = run_opt([MATMUL, "-p", "iree-dispatch-creation-form-dispatch-regions", "--mlir-pass-statistics"])
    assert result.returncode == 0, result.stderr
    # The matmul moves into the new flow.dispatch.region; only the region and its flow.return are new.
    assert "FormDispatchRegionsPass\n  (S) 2 num-ops-created - " in result.stderr
    assert "  (S) 0 num-ops-erased  - " in result.stderr


# -- the interpreter check's flags ----------------------------------------------------


def test_negative_seed_is_a_bad_flag():
    result = run_opt([MATMUL, "--verify-each-with-interpreter", "--interpreter-seed=-1"])
    assert result.returncode == 1
    assert one_error_line(result.stderr) == (
        "error: argument --interpreter-seed: '-1' must not be negative (see 'mini-iree-opt --help')"
    )


def test_a_dynamic_size_too_large_for_memory_is_refused():
    # Refused before any input is made: 2 x 100000^2 f32 would be 74.5 GiB.
    size = "100000"
    result = run_opt([MATMUL, "-p", "cse", "--verify-each-with-interpreter", f"--interpreter-dynamic-size={size}"])
    assert result.returncode == 1
    line = one_error_line(result.stderr)
    assert line.startswith(
        f"<cmdline>:1:1: error: --interpreter-dynamic-size={size} makes the random inputs of @matmul_f32f32f32 "
    )
    assert line.endswith("GiB, more than the 1 GiB the check allows")
