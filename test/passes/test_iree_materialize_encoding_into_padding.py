"""IREE's own lit cases for padding materialization, run case by case with mini-iree-opt.

IREE's `Codegen/Common/test/materialize_encoding_into_padding.mlir` is read from an
IREE checkout named by the `IREE_SRC` environment variable (at the walkthrough's
commit it runs `iree-codegen-materialize-encoding-into-padding`; later IREE runs
`iree-codegen-materialize-device-encoding{test-gpu-encoding-resolver=gpu_padding}`;
both RUN lines work here). Its RUN line is used as written with `iree-opt` replaced
by `mini-iree-opt`; each `// -----` piece runs on its own and FileCheck checks its
output against that piece's CHECK lines.
"""

from __future__ import annotations

import os
import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import run_opt

RELATIVE = Path("compiler/src/iree/compiler/Codegen/Common/test/materialize_encoding_into_padding.mlir")
SPLIT = re.compile(r"^// -----[ \t]*$", re.MULTILINE)


def _source() -> Path | None:
    root = os.environ.get("IREE_SRC")
    path = Path(root) / RELATIVE if root else None
    return path if path is not None and path.is_file() else None


def _run_line(text: str) -> str:
    lines = [line[len("// RUN:") :].strip() for line in text.splitlines() if line.startswith("// RUN:")]
    return " ".join(line.rstrip("\\").strip() for line in lines)


def _cases() -> list[str]:
    path = _source()
    return SPLIT.split(path.read_text()) if path is not None else []


def _case_id(case: str) -> str:
    match = re.search(r"func\.func @(\w+)", case)
    return match.group(1) if match else "case"


# Cases of the walkthrough-era file (its RUN line names the separate pass) that fail, and why.
KNOWN_FAILURES_WALKTHROUGH_ERA: dict[str, str] = {}


@pytest.mark.skipif(_source() is None, reason="needs an IREE checkout: set IREE_SRC to its root")
@pytest.mark.parametrize("case", _cases(), ids=_case_id)
def test_iree_case(case: str, tmp_path: Path, request) -> None:
    command = _run_line(_source().read_text())
    reason = KNOWN_FAILURES_WALKTHROUGH_ERA.get(_case_id(case))
    if reason and "iree-codegen-materialize-encoding-into-padding" in command:
        request.applymarker(pytest.mark.xfail(reason=reason, strict=True))
    opt_part, _, check_part = command.partition("|")
    opt_args = shlex.split(opt_part)
    assert opt_args[0] == "iree-opt"
    piece = tmp_path / "case.mlir"
    piece.write_text(case)
    args = [str(piece) if a == "%s" else a for a in opt_args[1:] if a != "--split-input-file"]
    result = run_opt(args)
    assert result.returncode == 0, result.stderr
    check_args = shlex.split(check_part)
    assert check_args[0] == "FileCheck"
    check = subprocess.run(
        [sys.executable, "-m", "filecheck", str(piece), *check_args[2:]],
        input=result.stdout,
        capture_output=True,
        text=True,
    )
    assert check.returncode == 0, check.stderr
