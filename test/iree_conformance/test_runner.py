"""The IREE conformance runner's reading of RUN lines and ``// -----`` pieces.

Runs on a tiny fake IREE tree under ``tmp_path``: IREE's sources are not needed.
"""

from __future__ import annotations

import importlib.util
import json
import sys
from pathlib import Path

import pytest

RUNNER = Path(__file__).with_name("run.py")
TEST_DIR = "compiler/src/iree/compiler/DispatchCreation/test"


@pytest.fixture(scope="module")
def runner():
    spec = importlib.util.spec_from_file_location("iree_conformance_run", RUNNER)
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # its dataclasses look their module up
    spec.loader.exec_module(module)
    return module


def test_run_lines_join_continuations(runner):
    text = (
        "// RUN: iree-opt --split-input-file \\\n"
        "// RUN:   --pass-pipeline='builtin.module(cse)' %s | FileCheck %s\n"
        "// RUN: iree-opt %s | FileCheck %s --check-prefix=SKIP\n"
        "func.func @f() { return }\n"
    )
    assert [" ".join(c.split()) for c in runner.run_lines(text)] == [
        "iree-opt --split-input-file --pass-pipeline='builtin.module(cse)' %s | FileCheck %s",
        "iree-opt %s | FileCheck %s --check-prefix=SKIP",
    ]


def test_split_cases_keep_line_offsets(runner):
    text = "a\n// -----\nb\nc\n// -----  \nd\n"
    cases = runner.split_cases("x.mlir", text)
    assert [c.index for c in cases] == [1, 2, 3]
    # Prefixing a piece with `line_offset` newlines puts each line where it is in the file.
    assert [c.line_offset for c in cases] == [0, 1, 4]
    assert [c.text.strip() for c in cases] == ["a", "b\nc", "d"]
    # `// -----// IR Dump` headers are not split points.
    assert len(runner.split_cases("x.mlir", "a\n// -----// IR Dump After X //----- //\nb\n")) == 1


def test_translate(runner):
    passes = {"cse", "canonicalize", "iree-util-hoist-into-globals"}
    run = runner.translate(
        "iree-opt -split-input-file --iree-util-hoist-into-globals=max-size-increase-threshold=64 -cse "
        "--allow-unregistered-dialect %s | FileCheck %s --check-prefixes=CHECK,CHECK-X",
        passes,
    )
    assert run.unsupported is None
    assert run.opt_args == [
        "-p",
        "iree-util-hoist-into-globals{max-size-increase-threshold=64},cse",
        "--allow-unregistered-dialect",
        "%s",
    ]
    assert run.check_prefixes == ["CHECK", "CHECK-X"]

    pipeline = runner.translate("iree-opt --pass-pipeline='builtin.module(util.func(cse))' %s", passes)
    assert pipeline.opt_args == ["--pass-pipeline=builtin.module(util.func(cse))", "%s"]
    assert pipeline.check_prefixes is None

    assert runner.translate("iree-opt --iree-foo %s | FileCheck %s", passes).unsupported == (
        "unsupported flag: --iree-foo"
    )
    assert "unsupported FileCheck flag" in runner.translate(
        "iree-opt %s | FileCheck --implicit-check-not=x %s", passes
    ).unsupported


def _fake_tree(root: Path) -> Path:
    folder = root / TEST_DIR
    folder.mkdir(parents=True)
    (folder / "sample.mlir").write_text(
        "// RUN: iree-opt --split-input-file %s | FileCheck %s\n"
        "\n"
        "// CHECK-LABEL: func.func @first\n"
        "// CHECK: %[[C:.+]] = arith.constant 1 : i32\n"
        "func.func @first() -> i32 {\n"
        "  %c = arith.constant 1 : i32\n"
        "  return %c : i32\n"
        "}\n"
        "// -----\n"
        "// CHECK-LABEL: func.func @second\n"
        "// CHECK: arith.constant 3 : i32\n"
        "func.func @second() -> i32 {\n"
        "  %c = arith.constant 2 : i32\n"
        "  return %c : i32\n"
        "}\n"
        "// -----\n"
        "func.func @third() {\n"
        "  // expected-error @+1 {{never produced}}\n"
        "  return\n"
        "}\n"
    )
    (folder / "diag.mlir").write_text(
        "// RUN: iree-opt --split-input-file --verify-diagnostics %s\n"
        "func.func @bad(%a: i32) -> i32 {\n"
        "  // expected-error @+1 {{'arith.extui' op Destination bit-width must be larger than the input bit-width}}\n"
        "  %0 = arith.extui %a : i32 to i16\n"
        "  return %a : i32\n"
        "}\n"
    )
    (folder / "unsupported.mlir").write_text("// RUN: iree-opt --iree-no-such-pass %s | FileCheck %s\n")
    return root


def test_runner_counts_a_fake_tree(runner, tmp_path, capsys):
    root = _fake_tree(tmp_path / "iree")
    expected = tmp_path / "expected.txt"
    expected.write_text("sample.mlir:2  wrong constant on purpose\nsample.mlir:3  passes, listed by mistake\n")
    code = runner.main(["--iree-src", str(root), "--json", "--jobs", "1", "--expected", str(expected)])
    summary = json.loads(capsys.readouterr().out)
    assert summary["files"] == {
        "diag.mlir": {"pass": 1, "total": 1},
        "sample.mlir": {"pass": 2, "total": 3},
        "unsupported.mlir": {"pass": 0, "total": 1},
    }
    statuses = {f"{c['file']}:{c['index']}": c["status"] for c in summary["cases"]}
    assert statuses["sample.mlir:2"] == "fail"
    assert statuses["unsupported.mlir:1"] == "unsupported"
    # A piece without checks passes when the tool succeeds (its expected-error is not checked without
    # --verify-diagnostics); it is listed as known, so it shows up as an unexpected pass.
    assert summary["unexpected_passes"] == ["sample.mlir:3"]
    assert [f"{c['file']}:{c['index']}" for c in summary["new_failures"]] == ["unsupported.mlir:1"]
    assert code == 1


def test_write_expected_keeps_reasons(runner, tmp_path, capsys):
    root = _fake_tree(tmp_path / "iree")
    expected = tmp_path / "expected.txt"
    expected.write_text("sample.mlir:2  wrong constant on purpose\n")
    # Measured against the list it writes, the run succeeds.
    assert runner.main(["--iree-src", str(root), "--jobs", "1", "--expected", str(expected), "--write-expected"]) == 0
    capsys.readouterr()
    lines = [line for line in expected.read_text().splitlines() if not line.startswith("#")]
    assert lines[0] == "sample.mlir:2  wrong constant on purpose"
    # A new failure gets a one-line reason made from the runner's result.
    assert lines[1] == "unsupported.mlir:1  pass or option not in mini-iree: --iree-no-such-pass"
    # Now everything failing is known: the exit status is 0.
    assert runner.main(["--iree-src", str(root), "--jobs", "1", "--expected", str(expected)]) == 0
