"""The IREE conformance runner: RUN-line reading, ``// -----`` pieces, which files and cases run, their
classification and counting.

Runs on a tiny fake IREE tree under ``tmp_path``: IREE's sources are not needed.
"""

from __future__ import annotations

import importlib.util
import json
import sys
from pathlib import Path

import pytest

RUNNER = Path(__file__).with_name("run.py")
ROOT = "compiler/src/iree/compiler"


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


@pytest.mark.parametrize(
    "text, kind",
    [
        ("%0 = iree_encoding.set_encoding %a : tensor<4xf32> -> tensor<4xf32, #enc>", "data-tiling"),
        ("// CHECK: linalg.mmt4d", "data-tiling"),
        ("%p = linalg.pack %a inner_dims_pos = [0] inner_tiles = [8] into %b", "data-tiling"),
        ("iree_codegen.inner_tiled ins(%a, %b) outs(%c)", "data-tiling"),
        ("#iree_gpu.data_tiled_mma_layout<intrinsic = MFMA_F32_16x16x4_F32>", "data-tiling"),
        ("%0 = stream.tensor.encode %r : tensor<?xf32> in !stream.resource<*>", "data-tiling"),
        ("#iree_cpu.cpu_encoding_resolver<>", "data-tiling"),
        ("iree_linalg_ext.map_scatter %in into %out", "data-tiling"),
        ("tensor<12xi1, #iree_encoding.packed_storage>", "data-tiling"),
        ("%0 = arith.addf %a, %b : f32\n// CHECK: arith.addf", "other"),
        # RUN lines name passes, not what a case is about.
        ("// RUN: iree-opt --iree-dispatch-creation-set-encoding %s\n%0 = arith.addf %a, %b : f32", "other"),
    ],
)
def test_classify(runner, text, kind):
    assert runner.classify(text) == kind


def test_translate_keeps_flags_as_written(runner):
    run = runner.translate(
        "iree-opt -split-input-file --iree-util-hoist-into-globals=max-size-increase-threshold=64 -cse "
        "--iree-dispatch-creation-test-set-scaled-matmul-encodings=true "
        "--allow-unregistered-dialect %s | FileCheck %s --check-prefixes=CHECK,CHECK-X"
    )
    assert run.unsupported is None
    # As IREE wrote them (the scaled-matmul development switch, always on in mini-iree, is left out).
    assert run.opt_args == [
        "-split-input-file",
        "--iree-util-hoist-into-globals=max-size-increase-threshold=64",
        "-cse",
        "--allow-unregistered-dialect",
        "%s",
    ]
    assert run.check_prefixes == ["CHECK", "CHECK-X"]

    pipeline = runner.translate("iree-opt --pass-pipeline='builtin.module(util.func(cse))' %s", era="3.13")
    assert pipeline.opt_args == ["--pass-pipeline=builtin.module(util.func(cse))", "%s", "--iree-era=3.13"]
    assert pipeline.check_prefixes is None

    # A round trip: the second iree-opt reads what the first printed.
    round_trip = runner.translate("iree-opt --split-input-file %s | iree-opt --split-input-file | FileCheck %s")
    assert round_trip.opt_args == ["--split-input-file", "%s"] and round_trip.then == [["--split-input-file"]]
    assert round_trip.check_prefixes == ["CHECK"]

    assert "unsupported FileCheck flag" in runner.translate("iree-opt %s | FileCheck --implicit-check-not=x %s").unsupported
    assert runner.translate("mlir-opt %s").unsupported == "RUN line does not start with iree-opt: mlir-opt"


def test_command_line_check_names_what_is_missing(runner):
    unknown = runner.translate("iree-opt --iree-util-hoist-into-globals --iree-no-such-flag %s")
    runner.check_command_line(unknown)
    assert unknown.unsupported == "flag not in mini-iree-opt: --iree-no-such-flag"
    pipeline = runner.translate("iree-opt --pass-pipeline='builtin.module(iree-no-such-pass)' %s")
    runner.check_command_line(pipeline)
    assert pipeline.unsupported == "unsupported pass: iree-no-such-pass"
    fine = runner.translate("iree-opt -split-input-file --cse --iree-dispatch-creation-set-encoding %s")
    runner.check_command_line(fine)
    assert fine.unsupported is None


def test_which_files_run(runner):
    passes, flags = runner.registered_passes(), runner.tool_flags()

    def select(path, *commands):
        return runner.select_reason(path, list(commands), passes, flags)

    assert select("DispatchCreation/test/a.mlir", "iree-opt --iree-dispatch-creation-set-encoding %s") == "pass"
    assert (
        select("Codegen/Common/test/a.mlir", "iree-opt --pass-pipeline='builtin.module(func.func("
               "iree-codegen-materialize-device-encoding{test-cl-gpu-target}))' %s")  # fmt: skip
        == "pass"
    )
    # Clean-up passes alone, or passes mini-iree lacks, are not what the runner measures.
    assert select("Dialect/Stream/IR/test/a_folding.mlir", "iree-opt --split-input-file --canonicalize %s") is None
    assert select("Dialect/Stream/Transforms/test/a.mlir", "iree-opt --iree-stream-no-such-pass %s") is None
    # A file that only parses (and verifies) runs when it tests a dialect.
    assert select("Dialect/Stream/IR/test/a.mlir", "iree-opt --split-input-file --verify-diagnostics %s") == "dialect"
    assert select("Codegen/ExternalInterfaces/test/invalid.mlir", "iree-opt --split-input-file %s") == "dialect"
    assert select("Codegen/Common/test/verify_specs.mlir", "iree-opt --verify-diagnostics %s") is None
    assert select("Dialect/Util/IR/test/a.mlir", "iree-opt --no-such-interpreter-pass %s") is None
    # No RUN line: a file other tests include.
    assert select("Dialect/Util/Transforms/test/link_module_a.mlir") is None


def _write(root: Path, rel: str, text: str) -> None:
    path = root / ROOT / rel
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)


def _fake_tree(root: Path) -> Path:
    _write(
        root,
        "DispatchCreation/test/sample.mlir",
        "// RUN: iree-opt --split-input-file --iree-dispatch-creation-set-encoding --cse %s | FileCheck %s\n"
        "\n"
        "// CHECK-LABEL: func.func @first\n"
        "// CHECK: %[[C:.+]] = arith.constant 1 : i32\n"
        "// CHECK-NOT: linalg.mmt4d\n"
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
        "}\n",
    )
    _write(
        root,
        "Dialect/Encoding/IR/test/invalid.mlir",
        "// RUN: iree-opt --split-input-file --verify-diagnostics %s\n"
        "func.func @bad(%a: i32) -> i32 {\n"
        "  // expected-error @+1 {{'arith.extui' op operand type 'i32' and result type 'i16' are cast incompatible}}\n"
        "  %0 = arith.extui %a : i32 to i16\n"
        "  return %a : i32\n"
        "}\n",
    )
    # A round trip, in a folder where only the map_scatter cases run.
    _write(
        root,
        "Dialect/LinalgExt/IR/test/roundtrip.mlir",
        "// RUN: iree-opt --split-input-file %s | iree-opt --split-input-file | FileCheck %s\n"
        "// CHECK-LABEL: func.func @not_map_scatter\n"
        "func.func @not_map_scatter() {\n  return\n}\n"
        "// -----\n"
        "// A map_scatter case (iree_linalg_ext.map_scatter), which here is only named.\n"
        "// CHECK-LABEL: func.func @named\n"
        "func.func @named() {\n  return\n}\n",
    )
    _write(root, "Dialect/Util/Transforms/test/flagged.mlir",
           "// RUN: iree-opt --iree-util-hoist-into-globals --iree-no-such-flag %s | FileCheck %s\n")  # fmt: skip
    # Left out: a pass mini-iree lacks; only clean-up passes; not a test folder.
    _write(root, "Dialect/Stream/Transforms/test/other_pass.mlir", "// RUN: iree-opt --iree-stream-nope %s\n")
    _write(root, "Dialect/Stream/IR/test/folding.mlir", "// RUN: iree-opt --canonicalize %s\n")
    _write(root, "Dialect/Stream/IR/not_a_test.mlir", "// RUN: iree-opt %s\n")
    return root


def _run(runner, capsys, *args: str) -> tuple[int, str]:
    code = runner.main(list(args))
    return code, capsys.readouterr().out


def test_runner_counts_a_fake_tree(runner, tmp_path, capsys):
    root = _fake_tree(tmp_path / "iree")
    expected = tmp_path / "expected.txt"
    expected.write_text(
        "DispatchCreation/test/sample.mlir:2  wrong constant on purpose\n"
        "DispatchCreation/test/sample.mlir:3  passes, listed by mistake\n"
    )
    code, out = _run(
        runner, capsys, "--iree-src", str(root), "--commit", "76efc5896b", "--json", "--jobs", "1",
        "--expected", str(expected),
    )  # fmt: skip
    summary = json.loads(out)
    assert summary["commit"] == "76efc5896b"
    assert summary["files"] == {
        "DispatchCreation/test/sample.mlir": {"pass": 2, "total": 3, "dt_pass": 1, "dt_total": 1},
        "Dialect/Encoding/IR/test/invalid.mlir": {"pass": 1, "total": 1, "dt_pass": 0, "dt_total": 0},
        "Dialect/LinalgExt/IR/test/roundtrip.mlir": {"pass": 1, "total": 1, "dt_pass": 1, "dt_total": 1},
        "Dialect/Util/Transforms/test/flagged.mlir": {"pass": 0, "total": 1, "dt_pass": 0, "dt_total": 0},
    }
    assert summary["kinds"] == {"data-tiling": {"pass": 2, "total": 2}, "other": {"pass": 2, "total": 4}}
    assert summary["files_left_out"] == 2
    statuses = {f"{c['file']}:{c['index']}": (c["status"], c["kind"]) for c in summary["cases"]}
    assert statuses["DispatchCreation/test/sample.mlir:2"] == ("fail", "other")
    assert statuses["Dialect/LinalgExt/IR/test/roundtrip.mlir:2"] == ("pass", "data-tiling")
    assert statuses["Dialect/Util/Transforms/test/flagged.mlir:1"][0] == "unsupported"
    # A piece without checks passes when the tool succeeds (its expected-error is not checked without
    # --verify-diagnostics); it is listed as known, so it shows up as an unexpected pass.
    assert summary["unexpected_passes"] == ["DispatchCreation/test/sample.mlir:3"]
    assert [f"{c['file']}:{c['index']}" for c in summary["new_failures"]] == ["Dialect/Util/Transforms/test/flagged.mlir:1"]
    assert code == 1


def test_write_expected_keeps_reasons_and_groups_them(runner, tmp_path, capsys):
    root = _fake_tree(tmp_path / "iree")
    _write(root, "Dialect/Util/Transforms/test/flagged_too.mlir",
           "// RUN: iree-opt --iree-util-hoist-into-globals --iree-no-such-flag %s | FileCheck %s\n")  # fmt: skip
    expected = tmp_path / "expected.txt"
    expected.write_text("DispatchCreation/test/sample.mlir:2  wrong constant on purpose\n")
    base = ["--iree-src", str(root), "--commit", "76efc5896b", "--jobs", "1", "--expected", str(expected)]
    # Measured against the list it writes, the run succeeds.
    assert _run(runner, capsys, *base, "--write-expected")[0] == 0
    text = expected.read_text()
    assert text.startswith("# IREE lit cases (76efc5896b, September 2025)")
    lines = [line for line in text.splitlines() if line and not line.startswith("#")]
    # The reason shared by most cases first; a new failure gets a one-line reason made from its result.
    reason = "flag not in mini-iree-opt (a pass or option mini-iree does not have): --iree-no-such-flag"
    assert lines == [
        f"Dialect/Util/Transforms/test/flagged.mlir:1  {reason}",
        f"Dialect/Util/Transforms/test/flagged_too.mlir:1  {reason}",
        "DispatchCreation/test/sample.mlir:2  wrong constant on purpose",
    ]
    assert "\n# 2 cases\n" in text
    # Now everything failing is known: the exit status is 0.
    assert _run(runner, capsys, *base)[0] == 0


def test_commit_must_be_known(runner, tmp_path, capsys):
    root = _fake_tree(tmp_path / "iree")
    with pytest.raises(SystemExit, match="not a git checkout"):
        runner.main(["--iree-src", str(root)])
    with pytest.raises(SystemExit, match="not at a commit this runner knows"):
        runner.main(["--iree-src", str(root), "--commit", "0123456789"])
    assert runner.detect_commit(root, "b48a595557").era == "3.13"


def test_markdown_table_of_two_commits(runner, tmp_path, capsys):
    root = _fake_tree(tmp_path / "iree")
    results = {}
    for commit in ("76efc5896b", "b48a595557"):
        args = ["--iree-src", str(root), "--commit", commit, "--json", "--jobs", "1", "--expected", str(tmp_path / "x")]
        results[commit] = tmp_path / f"{commit}.json"
        results[commit].write_text(_run(runner, capsys, *args)[1])
    code, table = _run(runner, capsys, "--combine", *(f"{c}={p}" for c, p in results.items()))
    assert code == 0
    rows = table.splitlines()
    assert rows[0] == (
        "| file | 76efc5896b data-tiling | 76efc5896b other | b48a595557 data-tiling | b48a595557 other |"
    )
    assert "| `DispatchCreation/test/sample.mlir` | 1 / 1 | 1 / 2 | 1 / 1 | 1 / 2 |" in rows
    assert rows[-1] == "| **total** | **2 / 2** | **2 / 4** | **2 / 2** | **2 / 4** |"


def test_has_checks_knows_directives_from_other_prefixes(runner):
    assert runner.has_checks("// CHECK-DAG: x", ["CHECK"])
    assert runner.has_checks("// CHECK-COUNT-2: x", ["CHECK"])
    assert runner.has_checks("// CHECK-ALL-LABEL: x", ["CHECK-ALL", "CHECK"])
    # Lines of another RUN line's prefix: this RUN line has nothing to check in the piece.
    assert not runner.has_checks("// CHECK-CONV-DAG: x\n// CHECK-CONV: y", ["CHECK-ALL", "CHECK"])


def test_checks_after_a_separator_read_the_output_before_it(runner, tmp_path, capsys):
    # IREE's x86_64 materialization test writes a function's CHECK lines after the `// -----`
    # that follows it: one FileCheck over the file reads the earlier piece's output first.
    root = tmp_path / "iree"
    _write(
        root,
        "Dialect/Util/Transforms/test/late_checks.mlir",
        "// RUN: iree-opt --split-input-file --iree-util-hoist-into-globals %s | FileCheck %s\n"
        "util.func @first() {\n  util.return\n}\n"
        "// -----\n"
        "// CHECK-LABEL: util.func public @first\n"
        "// CHECK-LABEL: util.func public @second\n"
        "util.func @second() {\n  util.return\n}\n"
        "// -----\n"
        "// CHECK-LABEL: util.func public @second\n"
        "util.func @third() {\n  util.return\n}\n",
    )
    code, out = _run(runner, capsys, "--iree-src", str(root), "--commit", "76efc5896b", "--json", "--jobs", "1")
    statuses = {c["index"]: c["status"] for c in json.loads(out)["cases"]}
    # The third piece's checks see only its own output (the second piece had checks): @second is not there.
    assert statuses == {1: "pass", 2: "pass", 3: "fail"}
