#!/usr/bin/env python3
"""Run IREE's own lit tests against mini-iree-opt and count what passes.

    python test/iree_conformance/run.py --iree-src PATH/TO/iree [--only FILE] [--json] [--jobs 2]

Each test file's RUN lines are read, ``iree-opt`` becomes ``mini-iree-opt`` (flags
kept; IREE's ``--some-pass[=options]`` flags become a ``-p`` pipeline), and the file
is split at ``// -----`` as ``--split-input-file`` does. Every piece ("case") runs
on its own, and FileCheck (the ``filecheck`` package) checks its output against the
CHECK lines of that piece only, with the RUN line's prefixes; variables captured by
the checks of earlier pieces stay defined, as in one FileCheck run over the file.
A case passes when every RUN line of the file passes on it. ``--verify-diagnostics`` cases compare the
``expected-error`` comments of the piece with mini-iree-opt's diagnostics.

``expected_failures.txt`` beside this script lists the cases known to fail
(``file.mlir:N  reason``, N counted from 1). A failure it lists is "known"; one it
does not list is "new"; a listed case that passes is an "unexpected pass". The exit
status is 1 when there is a new failure or an unexpected pass, 0 otherwise.
``--write-expected`` rewrites the list from this run (keeping the reasons already
written for cases that still fail).

This is not part of the default test suite: it needs IREE's sources (see README.md).
"""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import multiprocessing
import os
import re
import shlex
import signal
import sys
import tempfile
from dataclasses import asdict, dataclass, field
from pathlib import Path

HERE = Path(__file__).resolve().parent
EXPECTED_FAILURES = HERE / "expected_failures.txt"

# The folders of IREE's sources whose tests this runner runs.
TEST_DIRS = (
    "compiler/src/iree/compiler/DispatchCreation/test",
    "compiler/src/iree/compiler/Dialect/Encoding/IR/test",
    "compiler/src/iree/compiler/Dialect/Util/Transforms/test",
    "compiler/src/iree/compiler/Bindings/Native/Transforms/test",
)

# The marker --split-input-file splits at: a line holding only `// -----`.
SPLIT_MARKER = re.compile(r"^// -----[ \t]*$", re.MULTILINE)

# iree-opt flags mini-iree-opt has under the same name (after `-x` -> `--x`).
PASSTHROUGH_FLAGS = {
    "--verify-diagnostics",
    "--allow-unregistered-dialect",
    "--mlir-print-local-scope",
    "--mlir-print-op-generic",
    "--mlir-print-debuginfo",
}

# IREE command-line options whose value in the RUN line is what mini-iree always does.
NO_OP_FLAGS = {
    # A development flag of AnnotateDataTilingHints that defaults to true; mini-iree
    # always sets scaled-matmul encodings.
    "--iree-dispatch-creation-test-set-scaled-matmul-encodings",
}

# FileCheck flags the runner understands; any other makes the RUN line unsupported.
FILECHECK_VALUE_FLAGS = {"--check-prefix", "--check-prefixes"}


class Unsupported(Exception):
    """A RUN line uses something mini-iree-opt or this runner does not have."""


@dataclass
class RunLine:
    """One RUN line, translated: mini-iree-opt's arguments (``%s`` for the input)
    and FileCheck's prefixes (None when the output is not piped to FileCheck)."""

    text: str
    opt_args: list[str] = field(default_factory=list)
    check_prefixes: list[str] | None = None
    unsupported: str | None = None


@dataclass
class Case:
    """One ``// -----`` piece of a test file."""

    file: str  # the file's name, e.g. set_encoding.mlir
    index: int  # from 1
    text: str
    line_offset: int  # lines of the file before the piece

    @property
    def key(self) -> str:
        return f"{self.file}:{self.index}"


@dataclass
class CaseResult:
    file: str
    index: int
    status: str  # pass | fail | error | unsupported | timeout
    reason: str = ""

    @property
    def key(self) -> str:
        return f"{self.file}:{self.index}"


# -- reading test files ------------------------------------------------------------


def run_lines(text: str) -> list[str]:
    """The commands of a file's ``// RUN:`` lines, continuation lines (``\\``) joined."""
    commands: list[str] = []
    current = ""
    continued = False
    for line in text.splitlines():
        m = re.match(r"^\s*//\s*RUN:(.*)$", line)
        if not m:
            if continued:  # a continuation must be another RUN line
                commands.append(current.strip())
                current, continued = "", False
            continue
        body = m.group(1).rstrip()
        continued = body.endswith("\\")
        current += " " + (body[:-1] if continued else body)
        if not continued:
            commands.append(current.strip())
            current = ""
    if current.strip():
        commands.append(current.strip())
    return commands


def split_cases(file: str, text: str) -> list[Case]:
    """The pieces ``--split-input-file`` runs one by one, with their line offsets."""
    cases: list[Case] = []
    start, line = 0, 0
    for m in SPLIT_MARKER.finditer(text):
        piece = text[start : m.start()]
        cases.append(Case(file, len(cases) + 1, piece, line))
        line += piece.count("\n")
        start = m.end()
    cases.append(Case(file, len(cases) + 1, text[start:], line))
    return cases


def _long_flag(token: str) -> str:
    """LLVM takes ``-flag`` and ``--flag`` alike; mini-iree-opt wants ``--flag``."""
    if token.startswith("-") and not token.startswith("--") and len(token) > 2:
        return "-" + token
    return token


def translate(command: str, passes: set[str]) -> RunLine:
    """Turn an ``iree-opt ... | FileCheck ...`` RUN line into mini-iree-opt's arguments."""
    run = RunLine(command)
    try:
        _translate(command, passes, run)
    except Unsupported as err:
        run.unsupported = str(err)
    except ValueError as err:  # shlex: unbalanced quotes
        run.unsupported = f"cannot read RUN line: {err}"
    return run


def _translate(command: str, passes: set[str], run: RunLine) -> None:
    stages = [stage.strip() for stage in _split_pipe(command)]
    if len(stages) > 2:
        raise Unsupported("RUN line with more than one pipe")
    opt_tokens = shlex.split(stages[0])
    if not opt_tokens or opt_tokens[0] != "iree-opt":
        raise Unsupported(f"RUN line does not start with iree-opt: {stages[0].split()[0] if stages[0] else ''}")
    pipeline: list[str] = []
    args: list[str] = []
    for raw in opt_tokens[1:]:
        token = _long_flag(raw)
        name, eq, value = token.partition("=")
        if token == "%s":
            args.append("%s")
        elif name == "--split-input-file":
            continue  # every piece runs on its own
        elif token in PASSTHROUGH_FLAGS:
            args.append(token)
        elif name == "--pass-pipeline":
            args.append(f"--pass-pipeline={value}")
        elif name in NO_OP_FLAGS:
            continue
        elif name.startswith("--") and name[2:] in passes:
            # iree-opt's `--pass` / `--pass=options` form of a pipeline.
            pipeline.append(f"{name[2:]}{{{value}}}" if eq else name[2:])
        else:
            raise Unsupported(f"unsupported flag: {raw}")
    if pipeline:
        if any(a.startswith("--pass-pipeline=") for a in args):
            raise Unsupported("pass flags together with --pass-pipeline")
        args[:0] = ["-p", ",".join(pipeline)]
    if "%s" not in args:
        raise Unsupported("RUN line without %s")
    run.opt_args = args
    if len(stages) == 2:
        run.check_prefixes = _filecheck_prefixes(stages[1])


def _split_pipe(command: str) -> list[str]:
    """Split at ``|`` outside quotes."""
    parts, current, quote = [], "", ""
    for ch in command:
        if quote:
            quote = "" if ch == quote else quote
        elif ch in "\"'":
            quote = ch
        elif ch == "|":
            parts.append(current)
            current = ""
            continue
        current += ch
    parts.append(current)
    return parts


def _filecheck_prefixes(stage: str) -> list[str]:
    tokens = shlex.split(stage)
    if not tokens or tokens[0] != "FileCheck":
        raise Unsupported(f"output piped to {tokens[0] if tokens else 'nothing'}, not FileCheck")
    prefixes: list[str] = []
    it = iter(tokens[1:])
    for raw in it:
        token = _long_flag(raw)
        name, eq, value = token.partition("=")
        if token == "%s":
            continue
        if name in FILECHECK_VALUE_FLAGS:
            value = value if eq else next(it, "")
            prefixes.extend(p for p in value.split(",") if p)
        else:
            raise Unsupported(f"unsupported FileCheck flag: {raw}")
    return prefixes or ["CHECK"]


def has_checks(text: str, prefixes: list[str]) -> bool:
    pattern = "|".join(re.escape(p) for p in prefixes)
    return re.search(rf"(?<![A-Za-z0-9_-])(?:{pattern})(?:-[A-Z]+)?\s*:", text) is not None


# -- running ----------------------------------------------------------------------


class CaseTimeout(BaseException):
    """Raised by the alarm; a BaseException so that the tool's own `except Exception`
    (which turns crashes into diagnostics) lets it through."""


def _on_alarm(signum, frame):
    raise CaseTimeout()


def _run_opt(args: list[str]) -> tuple[int, str, str]:
    from mini_iree.compiler.tools.opt_main import main

    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            code = main(args)
        except SystemExit as exc:
            code = exc.code if isinstance(exc.code, int) else 1
    return code, out.getvalue(), err.getvalue()


def _run_filecheck(
    check_file: str, output: str, prefixes: list[str], variables: dict[str, str | int]
) -> tuple[int, str]:
    """FileCheck ``output`` against ``check_file``; on success ``variables`` holds
    the variables the checks defined (FileCheck keeps them for the rest of the file)."""
    from filecheck.matcher import Matcher
    from filecheck.options import Options

    with tempfile.NamedTemporaryFile("w", suffix=".out", delete=False) as f:
        f.write(output)
        out_path = f.name
    err = io.StringIO()
    try:
        # The package prints progress notes on stdout; only its stderr says why it failed.
        with contextlib.redirect_stderr(err), contextlib.redirect_stdout(io.StringIO()):
            opts = Options(
                match_filename=check_file, input_file=out_path, check_prefixes=list(prefixes), variables=dict(variables)
            )
            matcher = Matcher.from_opts(opts)
            code = matcher.run()
            if code == 0:
                variables.update(matcher.ctx.live_variables)
    except Exception as exc:  # noqa: BLE001 - e.g. a variable defined only in an earlier case
        message = getattr(exc, "message", "") or str(exc) or type(exc).__name__
        return 1, f"FileCheck: {message}"
    finally:
        os.unlink(out_path)
    return code, err.getvalue()


def _first_line(text: str) -> str:
    """The first line that says ``error``, else the first non-blank line."""
    lines = [line.strip() for line in re.sub(r"\x1b\[[0-9;]*m", "", text).splitlines() if line.strip()]
    return next((line for line in lines if "error" in line), lines[0] if lines else "")


def run_case(
    case: Case, runs: list[RunLine], timeout: float, variables: list[dict[str, str | int]] | None = None
) -> CaseResult:
    """Run every RUN line of the file on one piece; the first failure decides.

    ``variables[i]`` are the FileCheck variables RUN line i's checks of the earlier
    pieces defined: FileCheck runs once over the whole file, so a piece may use a
    variable an earlier piece captured (IREE's tests do).
    """
    variables = variables if variables is not None else [{} for _ in runs]
    for number, run in enumerate(runs, 1):
        label = f"RUN {number}: " if len(runs) > 1 else ""
        if run.unsupported:
            return CaseResult(case.file, case.index, "unsupported", label + run.unsupported)
        result = _run_one(case, run, timeout, variables[number - 1])
        if result.status != "pass":
            result.reason = label + result.reason
            return result
    return CaseResult(case.file, case.index, "pass")


def _run_one(case: Case, run: RunLine, timeout: float, variables: dict[str, str | int]) -> CaseResult:
    # The piece keeps its line numbers (blank lines before it), so that diagnostics
    # and expected-error comments agree on lines as they do in the whole file.
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, case.file)
        with open(path, "w") as f:
            f.write("\n" * case.line_offset + case.text)
        args = [path if a == "%s" else a for a in run.opt_args]
        old = signal.signal(signal.SIGALRM, _on_alarm)
        signal.setitimer(signal.ITIMER_REAL, timeout)
        try:
            code, out, err = _run_opt(args)
        except CaseTimeout:
            return CaseResult(case.file, case.index, "timeout", f"mini-iree-opt took more than {timeout:g}s")
        finally:
            signal.setitimer(signal.ITIMER_REAL, 0)
            signal.signal(signal.SIGALRM, old)
        if code != 0:
            message = _first_line(err).replace(path, case.file)
            if "does not refer to a registered pass" in message:
                return CaseResult(case.file, case.index, "unsupported", _unregistered(message))
            return CaseResult(case.file, case.index, "error", message or f"exit status {code}")
        if run.check_prefixes is None or not has_checks(case.text, run.check_prefixes):
            return CaseResult(case.file, case.index, "pass")
        fc_code, fc_err = _run_filecheck(path, out, run.check_prefixes, variables)
        if fc_code != 0:
            message = _first_line(fc_err).replace(path, case.file)
            return CaseResult(case.file, case.index, "fail", message or "FileCheck failed")
        return CaseResult(case.file, case.index, "pass")


def _unregistered(message: str) -> str:
    m = re.search(r"'([^']+)' does not refer to a registered pass", message)
    return f"unsupported pass: {m.group(1)}" if m else message


def _worker(job: tuple[list[Case], list[RunLine], float]) -> list[CaseResult]:
    """The pieces of one file, in order (FileCheck variables carry over)."""
    cases, runs, timeout = job
    variables: list[dict[str, str | int]] = [{} for _ in runs]
    results = []
    for case in cases:
        try:
            results.append(run_case(case, runs, timeout, variables))
        except Exception as err:  # noqa: BLE001 - one broken case must not stop the run
            results.append(CaseResult(case.file, case.index, "error", f"runner: {type(err).__name__}: {err}"))
    return results


# -- the whole run ----------------------------------------------------------------


def registered_passes() -> set[str]:
    from mini_iree.passes import get_all_passes, get_all_pipelines

    return set(get_all_passes()) | set(get_all_pipelines())


def test_files(iree_src: Path, only: list[str] | None) -> list[Path]:
    files: list[Path] = []
    for folder in TEST_DIRS:
        files.extend(sorted((iree_src / folder).glob("*.mlir")))
    if only:
        wanted = {Path(o).name for o in only}
        files = [f for f in files if f.name in wanted]
    return files


def collect_jobs(files: list[Path], passes: set[str], timeout: float) -> list[tuple[list[Case], list[RunLine], float]]:
    """One job per file: its pieces and its translated RUN lines."""
    jobs = []
    for path in files:
        text = path.read_text()
        commands = run_lines(text)
        runs = [translate(c, passes) for c in commands] or [RunLine("", unsupported="no RUN line")]
        jobs.append((split_cases(path.name, text), runs, timeout))
    # The longest files first, so that two workers finish together.
    return sorted(jobs, key=lambda job: -len(job[0]))


def read_expected(path: Path) -> dict[str, str]:
    """``file.mlir:N  reason`` lines; blank lines and ``#`` comments are skipped."""
    expected: dict[str, str] = {}
    if not path.exists():
        return expected
    for line in path.read_text().splitlines():
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        key, _, reason = line.partition(" ")
        expected[key] = reason.strip()
    return expected


# Ops whose absence is a scope decision, not a gap: what the list says about them.
OUT_OF_SCOPE_OPS = {
    "iree_linalg_ext.attention": "out of scope: attention (iree_linalg_ext.attention)",
    "iree_linalg_ext.gather": "out of scope: gather (iree_linalg_ext.gather)",
    "iree_linalg_ext.scatter": "out of scope: scatter (iree_linalg_ext.scatter)",
    "iree_linalg_ext.custom_op": "out of scope: iree_linalg_ext.custom_op",
    "stablehlo.dot": "out of scope: stablehlo input (custom syntax of an unregistered dialect)",
}


def known_reason(result: CaseResult) -> str:
    """A one-line reason for a failing case, for the known-failures list."""
    reason = re.sub(r"^RUN \d+: ", "", result.reason)
    if m := re.search(r"unsupported pass: (\S+)", reason):
        return f"pass not in mini-iree: {m.group(1)}"
    if m := re.search(r"unsupported flag: (--[^=\s]+)", reason):
        return f"pass or option not in mini-iree: {m.group(1)}"
    # MLIR's words for an op no dialect defines, custom and generic forms.
    if m := re.search(r"custom op '([^']+\.[^']+)' is unknown|not found for custom op '([^']+)'|"
                      r"unregistered operation '([^']+)'", reason):  # fmt: skip
        name = next(g for g in m.groups() if g)
        return OUT_OF_SCOPE_OPS.get(name, f"op not in mini-iree: {name}")
    if "semi-affine" in reason:
        return "xDSL 0.74 affine maps cannot hold a product of symbols (semi-affine s0 * s1)"
    if m := re.search(r"unknown invocation-model '([^']+)'", reason):
        return f"invocation-model={m.group(1)} not in mini-iree"
    return f"{result.status}: {reason}"


def write_expected(path: Path, failures: dict[str, str]) -> None:
    lines = [
        "# IREE lit cases (76efc5896b) that mini-iree-opt does not pass yet: `file.mlir:N  reason`,",
        "# N counting the file's `// -----` pieces from 1. Read by run.py; regenerate with --write-expected.",
    ]

    def order(key: str):
        file, _, index = key.rpartition(":")
        return (file, int(index))

    for key in sorted(failures, key=order):
        lines.append(f"{key}  {failures[key]}")
    path.write_text("\n".join(lines) + "\n")


def summarize(results: list[CaseResult], expected: dict[str, str]) -> dict:
    per_file: dict[str, dict[str, int]] = {}
    new_failures, unexpected_passes = [], []
    for r in results:
        counts = per_file.setdefault(r.file, {"pass": 0, "total": 0})
        counts["total"] += 1
        if r.status == "pass":
            counts["pass"] += 1
            if r.key in expected:
                unexpected_passes.append(r.key)
        elif r.key not in expected:
            new_failures.append(r)
    return {
        "files": per_file,
        "passed": sum(c["pass"] for c in per_file.values()),
        "total": sum(c["total"] for c in per_file.values()),
        "new_failures": [asdict(r) for r in new_failures],
        "unexpected_passes": unexpected_passes,
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--iree-src", required=True, type=Path, help="a checkout of iree-org/iree at 76efc5896b")
    parser.add_argument("--only", action="append", metavar="FILE", help="run only this test file (repeatable)")
    parser.add_argument("--json", action="store_true", help="print the results as JSON")
    parser.add_argument("--jobs", "-j", type=int, default=2, help="cases run in parallel (default 2)")
    parser.add_argument("--timeout", type=float, default=60.0, help="seconds per case (default 60)")
    parser.add_argument("--expected", type=Path, default=EXPECTED_FAILURES, help="the known-failures list")
    parser.add_argument("--write-expected", action="store_true", help="rewrite the known-failures list from this run")
    parser.add_argument("--verbose", "-v", action="store_true", help="print every failing case and its reason")
    args = parser.parse_args(argv)

    files = test_files(args.iree_src, args.only)
    if not files:
        print(f"error: no test files under {args.iree_src} (expected {TEST_DIRS[0]}/*.mlir)", file=sys.stderr)
        return 1
    jobs = collect_jobs(files, registered_passes(), args.timeout)
    files_order = {f.name: i for i, f in enumerate(files)}
    if args.jobs > 1:
        with multiprocessing.get_context("fork").Pool(args.jobs, maxtasksperchild=8) as pool:
            per_file = list(pool.imap_unordered(_worker, jobs))
    else:
        per_file = [_worker(job) for job in jobs]
    results = sorted((r for rs in per_file for r in rs), key=lambda r: (files_order[r.file], r.index))

    expected = read_expected(args.expected)
    if args.only:  # a partial run says nothing about the other files' cases
        names = {f.name for f in files}
        expected = {k: v for k, v in expected.items() if k.rsplit(":", 1)[0] in names}
    summary = summarize(results, expected)
    if args.write_expected:
        # Cases that still fail keep the reason written for them; with --only, the
        # other files' entries stay as they are.
        old = read_expected(args.expected)
        names = {f.name for f in files}
        failures = {k: v for k, v in old.items() if k.rsplit(":", 1)[0] not in names}
        for r in results:
            if r.status != "pass":
                failures[r.key] = old.get(r.key) or known_reason(r)
        write_expected(args.expected, failures)
        # The run is now measured against the list just written.
        expected = {k: v for k, v in failures.items() if k.rsplit(":", 1)[0] in names}
        summary = summarize(results, expected)

    if args.json:
        summary["cases"] = [asdict(r) for r in results]
        print(json.dumps(summary, indent=2))
    else:
        width = max(len(name) for name in summary["files"])
        for name, counts in summary["files"].items():
            print(f"{name:<{width}}  {counts['pass']:>3} / {counts['total']:<3}")
        print(f"{'total':<{width}}  {summary['passed']:>3} / {summary['total']:<3}")
        if args.verbose:
            for r in results:
                if r.status != "pass":
                    known = "known" if r.key in expected else "NEW"
                    print(f"  {known:5} {r.key}  {r.status}: {r.reason}")
        for r in summary["new_failures"] if not args.verbose else []:
            print(f"new failure: {r['file']}:{r['index']}  {r['status']}: {r['reason']}")
        for key in summary["unexpected_passes"]:
            print(f"unexpected pass: {key} (remove it from {args.expected.name})")
    return 1 if summary["new_failures"] or summary["unexpected_passes"] else 0


if __name__ == "__main__":
    sys.exit(main())
