"""mini-iree-opt's command line: output files, bad flags, and mlir-opt's printing/timing flags."""

from __future__ import annotations

import os
import re
import stat
import subprocess
import sys

import pytest

from conftest import REPO, run_opt

MATMUL = str(REPO / "examples" / "matmul.mlir")
ERROR_LINE = re.compile(r"^error: \S.*\(see 'mini-iree-opt --help'\)$")


def write(tmp_path, name: str, text: str) -> str:
    path = tmp_path / name
    path.write_text(text)
    return str(path)


# -- -o ---------------------------------------------------------------------


@pytest.mark.skipif(not os.path.exists("/dev/null"), reason="needs /dev/null")
def test_output_to_dev_null_keeps_the_device():
    # Run as a subprocess: as root, a rename over /dev/null would replace the device node.
    before = os.stat("/dev/null")
    result = subprocess.run(
        [sys.executable, "-m", "mini_iree.compiler.tools.opt_main", MATMUL, "-o", "/dev/null"], capture_output=True, text=True
    )
    assert result.returncode == 0, result.stderr
    after = os.stat("/dev/null")
    assert stat.S_ISCHR(after.st_mode) and after.st_rdev == before.st_rdev


def test_output_dash_is_stdout(tmp_path):
    result = run_opt([write(tmp_path, "in.mlir", ""), "-o", "-"])
    assert result.returncode == 0, result.stderr
    assert result.stdout == "module {\n}\n"
    assert not (tmp_path / "-").exists()


def test_output_keeps_an_existing_files_mode(tmp_path):
    out = tmp_path / "out.mlir"
    out.write_text("old\n")
    out.chmod(0o640)
    assert run_opt([write(tmp_path, "in.mlir", ""), "-o", str(out)]).returncode == 0
    assert out.read_text() == "module {\n}\n"
    assert stat.S_IMODE(out.stat().st_mode) == 0o640


def test_new_output_file_gets_the_umask_mode(tmp_path):
    out = tmp_path / "new.mlir"
    old = os.umask(0o022)
    try:
        assert run_opt([write(tmp_path, "in.mlir", ""), "-o", str(out)]).returncode == 0
    finally:
        os.umask(old)
    assert stat.S_IMODE(out.stat().st_mode) == 0o644


def test_output_through_a_symlink_writes_the_target(tmp_path):
    target = tmp_path / "target.mlir"
    target.write_text("old\n")
    link = tmp_path / "link.mlir"
    link.symlink_to(target)
    assert run_opt([write(tmp_path, "in.mlir", ""), "-o", str(link)]).returncode == 0
    assert link.is_symlink()
    assert target.read_text() == "module {\n}\n"


def test_output_into_a_missing_directory(tmp_path):
    out = tmp_path / "missing" / "out.mlir"
    result = run_opt([write(tmp_path, "in.mlir", ""), "-o", str(out)])
    assert result.returncode == 1
    assert result.stderr == f"error: cannot open output file '{out}': No such file or directory\n"


def test_failed_run_leaves_a_special_output_alone(tmp_path):
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    # Opening a FIFO for writing would block: a failed run must not even open it.
    result = run_opt([write(tmp_path, "bad.mlir", "%0 = ???\n"), "-o", str(fifo)])
    assert result.returncode == 1
    assert stat.S_ISFIFO(fifo.stat().st_mode)


# -- bad flags ----------------------------------------------------------------


@pytest.mark.parametrize(
    "args, message",
    [
        (["--no-such-flag"], "unknown command line argument '--no-such-flag'"),
        (["--mlir-print-ir-aftr-all"], "did you mean '--mlir-print-ir-after-all'?"),
        (["--interpreter-dynamic-size=abc"], "'abc' value invalid for integer argument"),
        (["--mlir-elide-elementsattrs-if-larger=-1"], "must not be negative"),
        (["--verify-each=maybe"], "'maybe' is invalid value for boolean argument"),
        (["-o"], "expected one argument"),
        (["a.mlir", "b.mlir"], "unexpected positional argument 'b.mlir'"),
        # xDSL's flags that mean nothing here are gone.
        (["--time-passes"], "unknown command line argument '--time-passes'"),
        (["--print-between-passes"], "unknown command line argument"),
        (["-t", "mlir"], "unknown command line argument '-t'"),
        # No abbreviations, as in LLVM's tools.
        (["--mlir-print-ir-after"], "expected one argument"),
    ],
)
def test_bad_flag_is_one_error_line(args, message):
    result = run_opt(args)
    assert result.returncode == 1
    lines = result.stderr.splitlines()
    assert len(lines) == 1, result.stderr
    assert ERROR_LINE.match(lines[0]), lines[0]
    assert message in lines[0]
    assert "usage:" not in result.stderr


def test_print_ir_flag_names_an_unknown_pass(tmp_path):
    result = run_opt([write(tmp_path, "in.mlir", ""), "--mlir-print-ir-after=nope"])
    assert result.returncode == 1
    assert result.stderr == "<cmdline>:1:1: error: --mlir-print-ir-after: 'nope' does not refer to a registered pass\n"


# -- --help and --list-passes ---------------------------------------------------


def test_help_lists_passes_and_pipelines_without_breaking_names():
    result = run_opt(["--help"])
    assert result.returncode == 0
    assert "iree-dispatch-creation-fuse-encoding-ops-into-dispatch-regions-pass," in result.stdout
    pipelines = " ".join(result.stdout.split()).split("Pipelines: ", 1)[1]
    assert "data-tiling-dispatch-creation" in pipelines.split(". See --list-passes")[0]
    # No line ends in a hyphen (a name broken across lines).
    assert not [line for line in result.stdout.splitlines() if line.rstrip().endswith("-")]


def test_list_passes():
    result = run_opt(["--list-passes"])
    assert result.returncode == 0, result.stderr
    out = result.stdout
    assert "\n  cse - Eliminate common sub-expressions\n" in out
    assert re.search(r"\n  iree-dispatch-creation-set-encoding - \S.*\n    encoding-option=<str> \(default: default\)\n", out)
    assert "\n  data-tiling-dispatch-creation - " in out.split("Pass pipelines:\n", 1)[1]


# -- IR printing ------------------------------------------------------------------

CONSTANTS = """func.func @f() -> (tensor<4xf32>, tensor<4xf32>) {
  %0 = arith.constant dense<[1.0, 2.0, 3.0, 4.0]> : tensor<4xf32>
  %1 = arith.constant dense<1.0> : tensor<4xf32>
  %2 = arith.constant dense<[1.0, 2.0, 3.0, 4.0]> : tensor<4xf32>
  return %0, %2 : tensor<4xf32>, tensor<4xf32>
}
"""


def test_print_ir_before_and_after_selected_passes(tmp_path):
    path = write(tmp_path, "c.mlir", CONSTANTS)
    result = run_opt([path, "-p", "cse,dce", "--mlir-print-ir-before=dce", "--mlir-print-ir-after=cse"])
    assert result.returncode == 0, result.stderr
    headers = [line for line in result.stderr.splitlines() if "IR Dump" in line]
    assert headers == [
        "// -----// IR Dump After CommonSubexpressionElimination: cse //----- //",
        "// -----// IR Dump Before DeadCodeElimination: dce //----- //",
    ]


def test_print_ir_before_all(tmp_path):
    path = write(tmp_path, "c.mlir", CONSTANTS)
    result = run_opt([path, "-p", "cse,dce", "--mlir-print-ir-before-all"])
    assert [line.split(":")[0] for line in result.stderr.splitlines() if "IR Dump" in line] == [
        "// -----// IR Dump Before CommonSubexpressionElimination",
        "// -----// IR Dump Before DeadCodeElimination",
    ]


def test_print_ir_after_change(tmp_path):
    # cse merges the two equal constants; dce then has nothing left to remove... except the unused splat.
    path = write(tmp_path, "c.mlir", CONSTANTS)
    result = run_opt([path, "-p", "cse,cse", "--mlir-print-ir-after-change"])
    assert result.returncode == 0, result.stderr
    assert result.stderr.count("IR Dump After") == 1


def test_elide_elements_attrs(tmp_path):
    path = write(tmp_path, "c.mlir", CONSTANTS)
    result = run_opt([path, "--mlir-elide-elementsattrs-if-larger=2"])
    assert result.returncode == 0, result.stderr
    assert "arith.constant dense_resource<__elided__> : tensor<4xf32>" in result.stdout
    assert "dense<1.000000e+00> : tensor<4xf32>" in result.stdout  # a splat is never elided
    # The output parses again, to the same text.
    again = run_opt([write(tmp_path, "again.mlir", result.stdout)])
    assert again.returncode == 0 and again.stdout == result.stdout


def test_print_debuginfo(tmp_path):
    path = write(tmp_path, "c.mlir", CONSTANTS)
    result = run_opt([path, "--mlir-print-debuginfo", "--mlir-print-local-scope"])
    assert result.returncode == 0, result.stderr
    assert f'%cst = arith.constant dense<[1.000000e+00, 2.000000e+00, 3.000000e+00, 4.000000e+00]> : tensor<4xf32> loc("{path}":2:8)' in result.stdout
    assert f'}} loc("{path}":0:0)' in result.stdout


def test_split_chunks_locate_their_module_after_the_marker(tmp_path):
    """MLIR locates the module it wraps a chunk's ops in at 0:0 in the first chunk, and in each later
    one where the chunk starts: right after its `// -----` marker (as iree-opt prints it)."""
    path = write(tmp_path, "s.mlir", "func.func @a() {\n  return\n}\n// -----\n\nfunc.func @b() {\n  return\n}\n")
    result = run_opt([path, "--split-input-file", "--mlir-print-debuginfo", "--mlir-print-local-scope"])
    assert result.returncode == 0, result.stderr
    first, second = result.stdout.split("// -----\n")
    assert first.rstrip().endswith(f'}} loc("{path}":0:0)')
    assert second.rstrip().endswith(f'}} loc("{path}":4:9)')
    assert 'func.func @b() {' in second and f'}} loc("{path}":6:1)' in second


def test_timing_report(tmp_path):
    path = write(tmp_path, "c.mlir", CONSTANTS)
    result = run_opt([path, "-p", "cse", "--mlir-timing"])
    assert result.returncode == 0, result.stderr
    lines = result.stderr.splitlines()
    assert "... Execution time report ..." in lines[1]
    assert re.fullmatch(r"  Total Execution Time: \d+\.\d{4} seconds", lines[3])
    assert lines[5] == "  ----Wall Time----  ----Name----"
    names = [line.split(")  ", 1)[1] for line in lines[6:]]
    assert names[0] == "Parser" and "CommonSubexpressionElimination" in names and names[-2:] == ["Rest", "Total"]
    assert re.fullmatch(r"  +\d+\.\d{4} \(100\.0%\)  Total", lines[-1])


def test_verify_each_with_interpreter_prints_a_line_per_pass():
    result = run_opt([MATMUL, "-p", "cse,canonicalize", "--verify-each-with-interpreter"])
    assert result.returncode == 0, result.stderr
    assert result.stderr.splitlines() == [
        "verify-each-with-interpreter: pass 'cse' kept the results of 1 function (largest error 0)",
        "verify-each-with-interpreter: pass 'canonicalize' kept the results of 1 function (largest error 0)",
    ]


def test_bare_boolean_pass_option_means_true(tmp_path):
    """MLIR's `{flag}` sets a boolean option, as `{flag=true}` does."""
    path = tmp_path / "f.mlir"
    path.write_text("func.func @f() {\n  return\n}\n")
    option = "iree-dispatch-creation-fuse-encoding-ops-into-dispatch-regions-pass{enable-aggressive-fusion}"
    bare = run_opt([str(path), f"--pass-pipeline=builtin.module({option})"])
    assert bare.returncode == 0, bare.stderr
    from mini_iree.compiler.tools.pipeline import build_passes, parse_pipeline_text
    from mini_iree.passes import get_all_passes, get_all_pipelines

    (pass_,) = build_passes(parse_pipeline_text(option, mlir_syntax=False), get_all_passes(), get_all_pipelines())
    assert pass_.enable_aggressive_fusion is True
    # A value-less option that is not a boolean is still an error.
    bad = run_opt([str(path), "-p", "iree-util-hoist-into-globals{max-size-increase-threshold}"])
    assert bad.returncode == 1 and "invalid options for pass 'iree-util-hoist-into-globals'" in bad.stderr
