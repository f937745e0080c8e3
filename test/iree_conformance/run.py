#!/usr/bin/env python3
"""Run IREE's own lit tests against mini-iree-opt and count what passes.

    python test/iree_conformance/run.py --iree-src PATH/TO/iree [--only FILE] [--json] [--jobs 2]

The checkout is IREE at 76efc5896b (September 2025, the data-tiling walkthrough's
commit) or at b48a595557 (August 2026); the commit is read with git, or given with
``--commit``. The test files run are those of the folders in ``FOLDERS`` that test
what mini-iree has: a file runs when one of its RUN lines names a pass or pipeline
mini-iree registers (the clean-up passes IREE's tests add after the pass under test,
``CLEANUP_PASSES``, do not count), or when it runs no pass at all and tests a dialect
(an ``IR/test`` folder, or Codegen/ExternalInterfaces). In Dialect/LinalgExt only the
cases of ``map_scatter``, ``map_store`` and ``map_load`` run.

Each RUN line runs as IREE wrote it, ``iree-opt`` replaced by ``mini-iree-opt``
(``--iree-era=3.13`` added at the 2026 commit), and the file is split at ``// -----``
as ``--split-input-file`` does. Every piece ("case") runs on its own, and FileCheck
(the ``filecheck`` package) checks its output against the CHECK lines of that piece
only, with the RUN line's prefixes; variables captured by the checks of earlier
pieces stay defined, and the output of pieces without checks is read before the
next piece's, as in one FileCheck run over the file. A case passes when every
RUN line of the file passes on it. ``--verify-diagnostics`` cases compare the
``expected-error`` comments of the piece with mini-iree-opt's diagnostics.

A case is *data-tiling* when its input or CHECK lines mention what data tiling is
made of (``DATA_TILING``: encodings, set/unset_encoding, a resolver, map_scatter or
map_store, pack/unpack/mmt4d, inner_tiled, data_tiled_mma_layout,
stream.tensor.encode, packed_storage), *other* otherwise; both are counted per file
and per commit.

``expected_failures_<commit>.txt`` beside this script lists the cases known to fail
at that commit (``path/file.mlir:N  reason``, N counted from 1, grouped by reason).
A failure it lists is "known"; one it does not list is "new"; a listed case that
passes is an "unexpected pass". The exit status is 1 when there is a new failure or
an unexpected pass, 0 otherwise. ``--write-expected`` rewrites the list from this
run (keeping the reasons already written for cases that still fail).

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
import subprocess
import sys
import tempfile
from collections import Counter
from dataclasses import asdict, dataclass, field
from pathlib import Path

HERE = Path(__file__).resolve().parent

# Where IREE's compiler sources are in a checkout; test files are named relative to it.
SOURCE_ROOT = "compiler/src/iree/compiler"

# The folders (under SOURCE_ROOT) whose test files this runner reads, recursively.
FOLDERS = (
    "Codegen/Common",
    "Codegen/Dialect/Codegen",
    "Codegen/Dialect/GPU",
    "Codegen/Dialect/CPU",
    "Codegen/ExternalInterfaces",
    "Dialect/Stream",
    "Dialect/HAL",
    "Dialect/Flow",
    "Dialect/LinalgExt",
    "DispatchCreation",
    "Dialect/Encoding",
    "Dialect/Util",
    "Bindings",
)

# Folders of which only some cases run: the LinalgExt ops mini-iree has.
CASE_FILTERS = {"Dialect/LinalgExt/": re.compile(r"\biree_linalg_ext\.map_(?:scatter|store|load)\b")}

# Passes IREE's tests run after the pass under test; naming only these does not make a file a test of
# something mini-iree has (IREE's canonicalization tests of its ops are not run).
CLEANUP_PASSES = frozenset({"canonicalize", "cse", "dce", "inline"})

# A case is about data tiling when its input or CHECK lines (not its RUN lines) say one of these.
DATA_TILING = re.compile(
    r"iree_encoding|#encoding|\b(?:un)?set_encoding\b|\bencoding_dims\b|resolver|"
    r"\bmap_(?:scatter|store)\b|\b(?:linalg|tensor)\.(?:un)?pack\b|mmt4d|inner_tiled|data_tiled_mma_layout|"
    r"stream\.tensor\.encode\b|packed_storage"
)


@dataclass(frozen=True)
class Commit:
    name: str  # the short hash
    date: str
    era: str  # mini-iree-opt's --iree-era for the run

    @property
    def expected(self) -> Path:
        return HERE / f"expected_failures_{self.name}.txt"


COMMITS = {
    "76efc5896b": Commit("76efc5896b", "September 2025", "walkthrough"),
    "b48a595557": Commit("b48a595557", "August 2026", "3.13"),
}

# IREE command-line options whose value in the RUN line is what mini-iree always does: left out.
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
    """One RUN line: mini-iree-opt's arguments (``%s`` for the input) and FileCheck's
    prefixes (None when the output is not piped to FileCheck)."""

    text: str
    opt_args: list[str] = field(default_factory=list)
    check_prefixes: list[str] | None = None
    unsupported: str | None = None
    # `iree-opt %s | iree-opt | FileCheck %s` (a round trip): the arguments of each later iree-opt, which
    # reads what the one before printed.
    then: list[list[str]] = field(default_factory=list)


@dataclass
class Case:
    """One ``// -----`` piece of a test file."""

    file: str  # the file's path under SOURCE_ROOT, e.g. DispatchCreation/test/set_encoding.mlir
    index: int  # from 1
    text: str
    line_offset: int  # lines of the file before the piece
    kind: str = "other"  # data-tiling | other

    @property
    def key(self) -> str:
        return f"{self.file}:{self.index}"


@dataclass
class CaseResult:
    file: str
    index: int
    status: str  # pass | fail | error | unsupported | timeout
    reason: str = ""
    kind: str = "other"

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


# The marker --split-input-file splits at: a line holding only `// -----`.
SPLIT_MARKER = re.compile(r"^// -----[ \t]*$", re.MULTILINE)
_RUN_LINE = re.compile(r"^\s*//\s*RUN:.*$", re.MULTILINE)


def classify(text: str) -> str:
    """``data-tiling`` or ``other``: what a piece's input and CHECK lines (not its RUN lines) mention."""
    return "data-tiling" if DATA_TILING.search(_RUN_LINE.sub("", text)) else "other"


def split_cases(file: str, text: str) -> list[Case]:
    """The pieces ``--split-input-file`` runs one by one, with their line offsets and kinds."""
    cases: list[Case] = []
    start, line = 0, 0
    pieces = []
    for m in SPLIT_MARKER.finditer(text):
        pieces.append(text[start : m.start()])
        start = m.end()
    pieces.append(text[start:])
    for piece in pieces:
        cases.append(Case(file, len(cases) + 1, piece, line, classify(piece)))
        line += piece.count("\n")
    return cases


def _long_flag(token: str) -> str:
    """LLVM takes ``-flag`` and ``--flag`` alike (FileCheck's flags are read here)."""
    if token.startswith("-") and not token.startswith("--") and len(token) > 2:
        return "-" + token
    return token


def translate(command: str, era: str | None = None) -> RunLine:
    """An ``iree-opt ... | FileCheck ...`` RUN line as mini-iree-opt's arguments, flags as IREE wrote them."""
    run = RunLine(command)
    try:
        _translate(command, run, era)
    except Unsupported as err:
        run.unsupported = str(err)
    except ValueError as err:  # shlex: unbalanced quotes
        run.unsupported = f"cannot read RUN line: {err}"
    return run


def _translate(command: str, run: RunLine, era: str | None) -> None:
    stages = [stage.strip() for stage in _split_pipe(command)]
    filecheck = stages.pop() if len(stages) > 1 and not stages[-1].startswith("iree-opt") else None
    for number, stage in enumerate(stages):
        opt_tokens = shlex.split(stage)
        if not opt_tokens or opt_tokens[0] != "iree-opt":
            raise Unsupported(f"RUN line does not start with iree-opt: {stage.split()[0] if stage else ''}")
        args = [token for token in opt_tokens[1:] if _long_flag(token).split("=", 1)[0] not in NO_OP_FLAGS]
        if number == 0 and "%s" not in args:
            raise Unsupported("RUN line without %s")
        if era is not None:
            args.append(f"--iree-era={era}")
        if number == 0:
            run.opt_args = args
        else:
            run.then.append(args)
    if filecheck is not None:
        run.check_prefixes = _filecheck_prefixes(filecheck)


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
    # FileCheck's directives; `CHECK-CONV:` is another prefix, not a directive of CHECK.
    directive = r"(?:-(?:NEXT|SAME|NOT|DAG|LABEL|EMPTY|COUNT-\d+))?"
    return re.search(rf"(?<![A-Za-z0-9_-])(?:{pattern}){directive}\s*:", text) is not None


# -- which files run ---------------------------------------------------------------------


def named_passes(command: str) -> set[str] | None:
    """The flags and ``--pass-pipeline`` entries of a RUN line's iree-opt command (None: unreadable)."""
    try:
        tokens = shlex.split(_split_pipe(command)[0])
    except ValueError:
        return None
    names: set[str] = set()
    for token in tokens[1:]:
        if not token.startswith("-"):
            continue
        name, _, value = token.lstrip("-").partition("=")
        if name == "pass-pipeline":
            # Anchors (`builtin.module(`) are followed by `(`; every other name is a pass.
            without_options = re.sub(r"\{[^{}]*\}", "", value)
            names |= {m.group(1) for m in re.finditer(r"([\w.-]+)\s*(\(?)", without_options) if not m.group(2)}
            names.add("pass-pipeline")
        else:
            names.add(name)
    return names


def select_reason(path: str, commands: list[str], passes: set[str], tool_flags: set[str]) -> str | None:
    """Why a test file runs (None: it does not): it tests a registered pass, or parses a dialect."""
    if not commands:
        return None  # not a test: a file other tests include
    named: set[str] = set()
    for command in commands:
        names = named_passes(command)
        if names is None:
            return "pass"  # unreadable: it runs, and says so
        named |= names
    if (named & passes) - CLEANUP_PASSES:
        return "pass"
    parse_only = not (named - tool_flags) and "pass-pipeline" not in named and not (named & passes)
    if parse_only and ("/IR/" in path or path.startswith("Codegen/ExternalInterfaces/")):
        return "dialect"
    return None


def tool_flags() -> set[str]:
    """mini-iree-opt's own flags (not its pass flags), without dashes."""
    from mini_iree.compiler.tools import opt_main

    parser = opt_main._OptArgumentParser(prog="mini-iree-opt")
    opt_main.register_arguments(parser, [], [], "")
    return {s.lstrip("-") for action in parser._actions for s in action.option_strings}


def registered_passes() -> set[str]:
    from mini_iree.passes import get_all_passes, get_all_pipelines

    return set(get_all_passes()) | set(get_all_pipelines())


def test_files(iree_src: Path, only: list[str] | None = None) -> tuple[list[tuple[str, str]], int]:
    """(path under SOURCE_ROOT, text) of the files that run, and how many test files were left out."""
    root = iree_src / SOURCE_ROOT
    passes, flags = registered_passes(), tool_flags()
    files: list[tuple[str, str]] = []
    left_out = 0
    for folder in FOLDERS:
        for path in sorted((root / folder).rglob("*.mlir")):
            rel = path.relative_to(root).as_posix()
            if "test" not in rel.split("/")[:-1]:
                continue
            if only and not any(rel == o or rel.endswith("/" + o) or o == path.name for o in only):
                continue
            text = path.read_text()
            commands = run_lines(text)
            if select_reason(rel, commands, passes, flags) is None:
                left_out += bool(commands)
                continue
            files.append((rel, text))
    return files, left_out


def check_command_line(run: RunLine) -> None:
    """Mark a RUN line unsupported when mini-iree-opt refuses its command line (a flag or pass it lacks):
    once per file, instead of once per case."""
    if run.unsupported:
        return
    from mini_iree.compiler.tools.cmdline import CommandLineError
    from mini_iree.compiler.tools.opt_main import MiniIREEOptMain

    for stage in [run.opt_args, *run.then]:
        args = ["/dev/null" if a == "%s" else a for a in stage]
        try:
            main = MiniIREEOptMain(args)
        except CommandLineError as err:
            message = str(err)
            m = re.search(r"unknown command line argument '([^']+)'", message)
            run.unsupported = f"flag not in mini-iree-opt: {m.group(1)}" if m else f"command line: {message}"
            return
        if main.cmdline_error is not None:
            message = main.cmdline_error.diagnostics[0].message
            m = re.search(r"'([^']+)' does not refer to a registered pass", message)
            run.unsupported = f"unsupported pass: {m.group(1)}" if m else f"command line: {message}"
            return


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


def _with_source(message: str, path: str) -> str:
    """A parse error with the source text it stopped at: `expected '(' at `...``."""
    m = re.match(
        r"[^:]+:(\d+):(\d+): error: (?:unexpected error: )?"
        r"((?:expected|Expected|attribute expected|operation being parsed with an unregistered dialect).*)$",
        message,
    )
    if not m:
        return message
    lines = Path(path).read_text().splitlines()
    line, col = int(m.group(1)), int(m.group(2))
    if not 0 < line <= len(lines):
        return message
    start = max(col - 25, 0)
    snippet = " ".join(lines[line - 1][start : col + 15].split())
    what = m.group(3).split(".")[0]  # MLIR's advice after the first sentence is not the cause
    return f"parse error: {what} at `{snippet}`"


def _filecheck_reason(text: str) -> str:
    """FileCheck's error and the check line it is about: `CHECK-NEXT at line 12: expected string not found`."""
    lines = [line.rstrip() for line in re.sub(r"\x1b\[[0-9;]*m", "", text).splitlines() if line.strip()]
    for i, line in enumerate(lines):
        m = re.search(r":(\d+):\d+: error: (.*)$", line)
        if m:
            check = lines[i + 1].strip() if i + 1 < len(lines) else ""
            return f"line {m.group(1)}: {m.group(2)}: {check}"[:300]
    return _first_line(text)


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
            return CaseResult(case.file, case.index, "unsupported", label + run.unsupported, case.kind)
        result = _run_one(case, run, timeout, variables[number - 1])
        if result.status != "pass":
            result.reason = label + result.reason
            return result
    return CaseResult(case.file, case.index, "pass", kind=case.kind)


# Where, among a RUN line's FileCheck variables, the output of the pieces without checks waits.
_UNCHECKED = "\0unchecked output"


def _run_one(case: Case, run: RunLine, timeout: float, variables: dict[str, str | int]) -> CaseResult:
    # The piece keeps its line numbers (blank lines before it), so that diagnostics
    # and expected-error comments agree on lines as they do in the whole file.
    name = Path(case.file).name

    def result(status: str, reason: str = "") -> CaseResult:
        return CaseResult(case.file, case.index, status, reason, case.kind)

    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, name)
        with open(path, "w") as f:
            f.write("\n" * case.line_offset + case.text)
        args = [path if a == "%s" else a for a in run.opt_args]
        old = signal.signal(signal.SIGALRM, _on_alarm)
        signal.setitimer(signal.ITIMER_REAL, timeout)
        try:
            code, out, err = _run_opt(args)
        except CaseTimeout:
            return result("timeout", f"mini-iree-opt took more than {timeout:g}s")
        finally:
            signal.setitimer(signal.ITIMER_REAL, 0)
            signal.signal(signal.SIGALRM, old)
        for stage, more in enumerate(run.then, 2):
            if code != 0:
                break
            # The next iree-opt of the pipe reads this one's output.
            piped = os.path.join(tmp, f"stage{stage}.mlir")
            with open(piped, "w") as f:
                f.write(out)
            code, out, err = _run_opt([*more, piped])
            err = err.replace(piped, f"<output of iree-opt {stage - 1}>")
        if code != 0:
            variables.pop(_UNCHECKED, None)
            message = _first_line(err).replace(path, name)
            return result("error", _with_source(message, path) or f"exit status {code}")
        if run.check_prefixes is None or not has_checks(case.text, run.check_prefixes):
            # Its output may be what the next piece's checks are about (a test writing a
            # function's CHECK lines after the `// -----` that follows it): one FileCheck over
            # the whole file would read it before the next piece's output.
            variables[_UNCHECKED] = str(variables.get(_UNCHECKED, "")) + out
            return result("pass")
        unchecked = str(variables.pop(_UNCHECKED, ""))
        fc_code, fc_err = _run_filecheck(path, unchecked + out, run.check_prefixes, variables)
        if fc_code != 0:
            reason = _filecheck_reason(fc_err).replace(path, name) or "FileCheck failed"
            return result("fail", reason)
        return result("pass")


def _worker(job: tuple[list[Case], list[RunLine], float]) -> list[CaseResult]:
    """The pieces of one file, in order (FileCheck variables carry over)."""
    cases, runs, timeout = job
    variables: list[dict[str, str | int]] = [{} for _ in runs]
    results = []
    for case in cases:
        try:
            results.append(run_case(case, runs, timeout, variables))
        except Exception as err:  # noqa: BLE001 - one broken case must not stop the run
            results.append(CaseResult(case.file, case.index, "error", f"runner: {type(err).__name__}: {err}", case.kind))
    return results


# -- the whole run ----------------------------------------------------------------


def collect_jobs(
    files: list[tuple[str, str]], timeout: float, era: str | None = None
) -> list[tuple[list[Case], list[RunLine], float]]:
    """One job per file: its pieces (those a folder filter keeps) and its RUN lines."""
    jobs = []
    for rel, text in files:
        runs = [translate(c, era) for c in run_lines(text)] or [RunLine("", unsupported="no RUN line")]
        for run in runs:
            check_command_line(run)
        cases = split_cases(rel, text)
        keep = next((pattern for folder, pattern in CASE_FILTERS.items() if rel.startswith(folder)), None)
        if keep is not None:
            cases = [case for case in cases if keep.search(case.text)]
        if cases:
            jobs.append((cases, runs, timeout))
    # The longest files first, so that two workers finish together.
    return sorted(jobs, key=lambda job: -len(job[0]))


def read_expected(path: Path) -> dict[str, str]:
    """``path/file.mlir:N  reason`` lines; blank lines and ``#`` comments are skipped."""
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
_OUT_OF_SCOPE_PREFIXES = {
    "stream.cmd.": "out of scope: stream/HAL runtime plumbing",
    "stream.channel.": "out of scope: collective channels",
    "hal.channel.": "out of scope: collective channels",
    "flow.channel.": "out of scope: collective channels",
    "flow.collective.": "out of scope: collective channels",
    "hal.command_buffer.": "out of scope: stream/HAL runtime plumbing",
    "hal.device.": "out of scope: stream/HAL runtime plumbing",
    "hal.fence.": "out of scope: stream/HAL runtime plumbing",
    "hal.allocator.": "out of scope: stream/HAL runtime plumbing",
    "hal.buffer.": "out of scope: stream/HAL runtime plumbing",
}


def _out_of_scope(name: str) -> str | None:
    for prefix, why in _OUT_OF_SCOPE_PREFIXES.items():
        if name.startswith(prefix) or name == prefix.rstrip("."):
            return f"{why} ({name})"
    return None


# Failures whose message names their cause: (pattern, reason; `{0}` is the first group).
_CAUSES = (
    (r"has an encoded operand that is a block argument|'func\.return' op cannot be materialized",
     "encodings on function arguments and results are not materialized (IREE 2026's test form; IREE turns them "
     "into mmt4d / inner_tiled)"),
    (r"scope 'workgroup' is not supported", "combine-layout-transformation's scope=workgroup not in mini-iree"),
    (r"no such option '([^']+)' for pass '([^']+)'", "pass option not in mini-iree: {1}{{{0}}}"),
    (r"options for pipeline '([^']+)': no such option '([^']+)'", "pipeline option not in mini-iree: {0}{{{1}}}"),
    (r"unknown data-tiling op type '([^']+)'", "annotate-data-tiling-hints op type not in mini-iree: {0}"),
    (r"--iree-gpu-test-target: unknown GPU '([^']+)'", "GPU target not in mini-iree: {0}"),
    (r"invalid options for pass 'iree-hal-assign-target-devices'",
     "iree-hal-assign-target-devices' device-name forms (names, ordinals, #hal.device.alias/select) not in mini-iree"),
    (r"expected error \"(.*)\" was not produced", "expected diagnostic not produced: {0}"),
    (r"expected (?:warning|remark|note) \"(.*)\" was not produced", "expected diagnostic not produced: {0}"),
)  # fmt: skip


# FileCheck failures whose cause was read off mini-iree-opt's output: (file, CHECK text, reason).
_CHECK_CAUSES = (
    (r"wrap_entry_points", r"hal\.abi\.convention",
     "wrap-entry-points does not add IREE 2026's hal.abi.convention attribute"),
    (r"", r"#iree_encoding\.testing<layouts =",
     "#iree_encoding.testing printed in its 2025 form (testing<[...]>), not IREE 2026's testing<layouts = [...]>"),
    (r"encode_device_tensors", r"arith\.trunci",
     "device loads of sub-byte and odd-width tensors are not narrowed with arith.trunci on the tensor, as IREE does"),
    (r"materialize_encoding_", r"%\[\[INIT(?:_FILL)?:\.\+\]\] = tensor\.empty\(\) : tensor<(?:\d+x){4}",
     "CPU matvec/vecmat: the init is filled in 2-D and expanded, where IREE fills the 4-D mmt4d tile"),
    (r"gpu_combine_layout_transformation", r"Couldn't match \"iree_linalg_ext\.map_store\"",
     "the GPU variant of combine-layout-transformation prints map_scatter where IREE 2026 prints map_store"),
    (r"combine_(?:result_)?layout_transformation", r"(?:\] by|delinearize_index .* into) \(2, 4\)",
     "linearize_index/delinearize_index pairs over the same dimensions are not simplified as IREE does"),
)  # fmt: skip


def known_reason(result: CaseResult) -> str:
    """A one-line reason for a failing case, for the known-failures list: its cause where the
    failure names one (a missing pass, flag, op or option), else the failure itself."""
    reason = re.sub(r"^RUN \d+: ", "", result.reason)
    if m := re.search(r"unsupported pass: (\S+)", reason):
        return f"pass not in mini-iree: {m.group(1)}"
    if m := re.search(r"flag not in mini-iree-opt: (-[^=\s]+)", reason):
        return f"flag not in mini-iree-opt (a pass or option mini-iree does not have): {m.group(1)}"
    # MLIR's words for an op no dialect defines, custom and generic forms.
    if m := re.search(r"custom op '([^']+\.[^']+)' is unknown|not found for custom op '([^']+)'|"
                      r"unregistered operation '([^']+)'|Operation ([a-z_]+\.[a-z_.]+) is not registered", reason):  # fmt: skip
        name = next(g for g in m.groups() if g)
        return OUT_OF_SCOPE_OPS.get(name) or _out_of_scope(name) or f"op not in mini-iree: {name}"
    if m := re.search(r"'([a-z_]+\.[\w.]+)' is not registered", reason):
        name = m.group(1)
        return _out_of_scope(name) or f"attribute or type not in mini-iree: {name}"
    for pattern, text in _CAUSES:
        if m := re.search(pattern, reason):
            return text.format(*[g for g in m.groups() if g is not None])[:300]
    if m := re.match(r"parse error: (.*)$", reason):
        return f"mini-iree cannot parse IREE's syntax: {m.group(1)}"[:300]
    if m := re.search(r"failed to legalize operation '([^']+)'", reason):
        return f"iree-stream-conversion has no conversion for {m.group(1)}"
    if m := re.search(r"error: unexpected error: (.*)$", reason):
        return f"mini-iree reports an error IREE does not: {m.group(1)}"[:300]
    if "semi-affine" in reason:
        return "xDSL 0.74 affine maps cannot hold a product of symbols (semi-affine s0 * s1)"
    if m := re.search(r"unknown invocation-model '([^']+)'", reason):
        return f"invocation-model={m.group(1)} not in mini-iree"
    if result.status == "timeout":
        return "timeout: " + reason
    if result.status == "error" and (m := re.match(r"[^:\s]+:\d+:\d+: error: (.*)$", reason)):
        return f"mini-iree-opt fails: {m.group(1)}"[:300]
    if result.status == "fail":
        for file, check, why in _CHECK_CAUSES:
            if re.search(file, result.file) and re.search(check, reason):
                return why
        where = re.sub(r"^[^:]+:(\d+): error: ", r"CHECK at line \1: ", reason)
        return f"output differs from IREE's: {where}"[:300]
    return f"{result.status}: {reason}"[:300]


def write_expected(path: Path, failures: dict[str, str], commit: Commit) -> None:
    """The list, grouped by reason (most cases first), each group's cases in file order."""
    lines = [
        f"# IREE lit cases ({commit.name}, {commit.date}) that mini-iree-opt does not pass yet: `path:N  reason`,",
        "# the path under compiler/src/iree/compiler, N counting the file's `// -----` pieces from 1; grouped by",
        "# reason, most cases first. Read by run.py; regenerate with --write-expected (reasons written here are kept).",
    ]

    def order(key: str):
        file, _, index = key.rpartition(":")
        return (file, int(index))

    counts = Counter(failures.values())
    for reason in sorted(counts, key=lambda r: (-counts[r], r)):
        lines.append("")
        lines.append(f"# {counts[reason]} case{'s' if counts[reason] > 1 else ''}")
        lines.extend(f"{key}  {reason}" for key in sorted((k for k, v in failures.items() if v == reason), key=order))
    path.write_text("\n".join(lines) + "\n")


def summarize(results: list[CaseResult], expected: dict[str, str]) -> dict:
    per_file: dict[str, dict[str, int]] = {}
    new_failures, unexpected_passes = [], []
    kinds = {"data-tiling": {"pass": 0, "total": 0}, "other": {"pass": 0, "total": 0}}
    for r in results:
        counts = per_file.setdefault(r.file, {"pass": 0, "total": 0, "dt_pass": 0, "dt_total": 0})
        counts["total"] += 1
        kinds[r.kind]["total"] += 1
        dt = r.kind == "data-tiling"
        counts["dt_total"] += dt
        if r.status == "pass":
            counts["pass"] += 1
            counts["dt_pass"] += dt
            kinds[r.kind]["pass"] += 1
            if r.key in expected:
                unexpected_passes.append(r.key)
        elif r.key not in expected:
            new_failures.append(r)
    return {
        "files": per_file,
        "passed": sum(c["pass"] for c in per_file.values()),
        "total": sum(c["total"] for c in per_file.values()),
        "kinds": kinds,
        "new_failures": [asdict(r) for r in new_failures],
        "unexpected_passes": unexpected_passes,
    }


def markdown_table(summaries: dict[str, dict]) -> str:
    """One row per file, for each commit (column label -> summary): data-tiling and other cases, pass / total."""
    labels = list(summaries)
    files = sorted({f for s in summaries.values() for f in s["files"]})

    def cell(summary: dict, file: str) -> tuple[str, str]:
        c = summary["files"].get(file)
        if c is None:
            return "", ""
        dt = f"{c['dt_pass']} / {c['dt_total']}" if c["dt_total"] else ""
        other_total = c["total"] - c["dt_total"]
        other = f"{c['pass'] - c['dt_pass']} / {other_total}" if other_total else ""
        return dt, other

    head = "| file | " + " | ".join(f"{label} data-tiling | {label} other" for label in labels) + " |"
    rule = "|---|" + "---|---|" * len(labels)
    rows = [head, rule]
    for file in files:
        rows.append(f"| `{file}` | " + " | ".join(" | ".join(cell(summaries[label], file)) for label in labels) + " |")
    totals = []
    for label in labels:
        k = summaries[label]["kinds"]
        totals.append(
            f"**{k['data-tiling']['pass']} / {k['data-tiling']['total']}** | **{k['other']['pass']} / {k['other']['total']}**"
        )
    rows.append("| **total** | " + " | ".join(totals) + " |")
    return "\n".join(rows) + "\n"


def detect_commit(iree_src: Path, given: str | None) -> Commit:
    if given is None:
        try:
            given = subprocess.run(
                ["git", "-C", str(iree_src), "rev-parse", "HEAD"], capture_output=True, text=True, check=True
            ).stdout.strip()
        except (OSError, subprocess.CalledProcessError):
            raise SystemExit(
                f"error: cannot tell the commit of {iree_src} (not a git checkout): give --commit "
                f"({' or '.join(COMMITS)})"
            ) from None
    for name, commit in COMMITS.items():
        if given.startswith(name) or name.startswith(given) and len(given) >= 7:
            return commit
    raise SystemExit(f"error: {iree_src} is at {given}, not at a commit this runner knows ({', '.join(COMMITS)})")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--iree-src", type=Path, help="a checkout of iree-org/iree at 76efc5896b or b48a595557")
    parser.add_argument("--commit", help="the checkout's commit, when it is not a git checkout")
    parser.add_argument("--only", action="append", metavar="FILE", help="run only this test file (repeatable)")
    parser.add_argument("--json", action="store_true", help="print the results as JSON")
    parser.add_argument("--markdown", action="store_true", help="print the per-file table as Markdown")
    parser.add_argument(
        "--combine", nargs="+", metavar="LABEL=RESULTS.json",
        help="print one Markdown table of several --json results (e.g. 2025=a.json 2026=b.json) and exit",
    )  # fmt: skip
    parser.add_argument("--jobs", "-j", type=int, default=2, help="files run in parallel (default 2)")
    parser.add_argument("--timeout", type=float, default=30.0, help="seconds per case (default 30)")
    parser.add_argument("--expected", type=Path, help="the known-failures list (default: the commit's, beside run.py)")
    parser.add_argument("--write-expected", action="store_true", help="rewrite the known-failures list from this run")
    parser.add_argument("--verbose", "-v", action="store_true", help="print every failing case and its reason")
    args = parser.parse_args(argv)

    if args.combine:
        summaries = {}
        for item in args.combine:
            label, _, path = item.partition("=")
            summaries[label] = json.loads(Path(path).read_text())
        print(markdown_table(summaries), end="")
        return 0
    if args.iree_src is None:
        parser.error("--iree-src is required")
    commit = detect_commit(args.iree_src, args.commit)
    expected_path = args.expected or commit.expected
    files, left_out = test_files(args.iree_src, args.only)
    if not files:
        print(f"error: no test files under {args.iree_src / SOURCE_ROOT} (expected {FOLDERS[0]}/...)", file=sys.stderr)
        return 1
    jobs = collect_jobs(files, args.timeout, commit.era if commit.era != "walkthrough" else None)
    files_order = {rel: i for i, (rel, _) in enumerate(files)}
    if args.jobs > 1:
        with multiprocessing.get_context("fork").Pool(args.jobs, maxtasksperchild=8) as pool:
            per_file = list(pool.imap_unordered(_worker, jobs))
    else:
        per_file = [_worker(job) for job in jobs]
    results = sorted((r for rs in per_file for r in rs), key=lambda r: (files_order[r.file], r.index))

    ran = {r.file for r in results}
    expected = read_expected(expected_path)
    if args.only:  # a partial run says nothing about the other files' cases
        expected = {k: v for k, v in expected.items() if k.rsplit(":", 1)[0] in ran}
    summary = summarize(results, expected)
    if args.write_expected:
        # Cases that still fail keep the reason written for them; with --only, the
        # other files' entries stay as they are.
        old = read_expected(expected_path)
        failures = {k: v for k, v in old.items() if args.only and k.rsplit(":", 1)[0] not in ran}
        for r in results:
            if r.status != "pass":
                failures[r.key] = old.get(r.key) or known_reason(r)
        write_expected(expected_path, failures, commit)
        # The run is now measured against the list just written.
        expected = {k: v for k, v in failures.items() if k.rsplit(":", 1)[0] in ran}
        summary = summarize(results, expected)
    summary["commit"] = commit.name
    summary["files_left_out"] = left_out

    if args.json:
        summary["cases"] = [asdict(r) for r in results]
        print(json.dumps(summary, indent=2))
    elif args.markdown:
        print(markdown_table({commit.name: summary}), end="")
    else:
        width = max(len(name) for name in summary["files"])
        print(f"{'file':<{width}}  data-tiling  other")
        for name, c in summary["files"].items():
            dt = f"{c['dt_pass']:>3} / {c['dt_total']:<3}"
            other = f"{c['pass'] - c['dt_pass']:>3} / {c['total'] - c['dt_total']:<3}"
            print(f"{name:<{width}}  {dt}  {other}")
        k = summary["kinds"]
        print(
            f"{'total (' + commit.name + ')':<{width}}  {k['data-tiling']['pass']:>3} / {k['data-tiling']['total']:<3}"
            f"  {k['other']['pass']:>3} / {k['other']['total']:<3}"
        )
        print(f"({left_out} test files of these folders test passes mini-iree does not register and are not run)")
        if args.verbose:
            for r in results:
                if r.status != "pass":
                    known = "known" if r.key in expected else "NEW"
                    print(f"  {known:5} {r.key}  {r.status}: {r.reason}")
        for r in summary["new_failures"] if not args.verbose else []:
            print(f"new failure: {r['file']}:{r['index']}  {r['status']}: {r['reason']}")
        for key in summary["unexpected_passes"]:
            print(f"unexpected pass: {key} (remove it from {expected_path.name})")
    return 1 if summary["new_failures"] or summary["unexpected_passes"] else 0


if __name__ == "__main__":
    sys.exit(main())
