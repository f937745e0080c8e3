"""Run a pipeline on a program and keep what a reader wants to see after each pass.

The passes are built and applied exactly as ``mini-iree-opt`` does (same
registry, same pipeline parser, same printer); after each pass the IR text, its
wall time and, when asked, the interpreter's comparison with the input program's
results on seeded inputs are recorded. A pass that fails ends the list with its
error, so a page still shows everything up to the failure.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Any

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.utils.exceptions import DiagnosticException

from mini_iree.compiler.ir.diagnostics import Diagnostic, DiagnosticError, OpError, SourceLoc, op_location
from mini_iree.compiler.tools import opt_main
from mini_iree.compiler.tools.opt_main import MiniIREEOptMain
from mini_iree.compiler.ir.parsing import parse_mlir
from mini_iree.compiler.ir.verifier import verify_op_tree

from . import captures, rewrite_log
from .origins import print_with_origins

DEFAULT_PIPELINE = "data-tiling{target=gfx942}"
PIPELINE_MARKER = "// walkthrough-pipeline:"
"""A program may name the pipeline its walkthrough runs, in a comment line starting with this."""


@dataclass
class Check:
    """The interpreter's verdict after one pass: same results as the input program, and by how much."""

    ok: bool
    largest_error: float
    message: str


@dataclass
class Stage:
    index: int  # 0 is the input program
    flag: str  # the pass's flag ("input" for stage 0)
    class_name: str
    spec: str  # the pass with its options, as a pipeline names it
    summary: str  # the docstring's first sentence
    text: str
    seconds: float = 0.0
    check: Check | None = None
    module: ModuleOp | None = field(default=None, repr=False)
    description: str = ""  # the whole docstring, for the reader who wants more
    # Per line of ``text``: the input positions ("LINE:COL", space-separated) of the op printed on it, or "".
    line_origins: list[str] = field(default_factory=list)
    # The rewrite patterns the pass applied, by class name, and how often.
    rewrites: dict[str, int] = field(default_factory=dict)
    # The patterns the pass's pattern walkers could apply, and how many walks it made (0: no patterns).
    patterns: list[str] = field(default_factory=list)
    pattern_walks: int = 0
    # Per line of ``text`` whose op a pattern of this pass inserted: the pattern's name.
    made_by: dict[int, str] = field(default_factory=dict)
    # The tensors the pass introduced, on the check's seeded inputs (captures.CapturedTensor).
    values: list[Any] = field(default_factory=list, repr=False)


@dataclass
class FinalRun:
    """The last stage's public functions run on the seeded inputs, against the input program."""

    function: str
    inputs: list[str]
    results: list[str]
    largest_error: float
    ok: bool
    final_seconds: float
    reference_seconds: float
    timing_size: int


@dataclass
class Walkthrough:
    program: str
    pipeline: str
    source: str
    stages: list[Stage]
    targets: list[str]
    error: str | None = None  # the failing pass's diagnostic
    failed_pass: str | None = None  # the flag of the pass that failed (None: the input, or no failure)
    seed: int = 0
    dynamic_size: int | None = None
    timing_size: int = 256
    final_runs: list[FinalRun] = field(default_factory=list)


def pipeline_of(source: str) -> str | None:
    """The pipeline a program names with ``// walkthrough-pipeline: ...``, if any."""
    for line in source.splitlines():
        if line.strip().startswith(PIPELINE_MARKER):
            return line.strip()[len(PIPELINE_MARKER) :].strip()
    return None


def display_name(path: str) -> str:
    """``path`` as the page names it: relative to the working directory when inside it, else the file name."""
    import os

    if not os.path.isabs(path):
        return path
    relative = os.path.relpath(path)
    return os.path.basename(path) if relative.startswith("..") else relative


def _targets(passes) -> list[str]:
    """The target short names the pipeline assigns (what unresolved encodings get resolved for)."""
    from mini_iree.compiler.analysis.target_devices import split_target_list

    for pass_ in passes:
        devices = getattr(pass_, "targetDevices", "")
        if pass_.name == "iree-hal-assign-target-devices" and devices:
            return split_target_list(devices.strip("\"'"))
    return []


def run_walkthrough(
    path: str,
    pipeline: str | None = None,
    *,
    check: bool = True,
    seed: int = 0,
    dynamic_size: int | None = None,
    source: str | None = None,
    timing_size: int = 256,
) -> Walkthrough:
    """Every stage of ``pipeline`` on the program at ``path``.

    DiagnosticError for a bad input or pipeline, OSError for a file that cannot
    be read, CommandLineError when ``dynamic_size`` or ``timing_size`` makes the
    random inputs too large.
    """
    if source is None:
        with open(path, "rb") as f:
            data = f.read()
        try:
            source = data.decode("utf-8")
        except UnicodeDecodeError:
            # The parser says where the bad byte is, as mini-iree-opt does; decoding is its first step.
            parse_mlir(Context(), data, path)
            raise
    pipeline = pipeline or pipeline_of(source) or DEFAULT_PIPELINE
    driver = MiniIREEOptMain(args=[path, "-p", pipeline])
    if driver.cmdline_error is not None:
        raise driver.cmdline_error
    module = parse_mlir(driver.ctx, source.encode(), path, 0)
    start = SourceLoc(path, 1, 1)
    verify_op_tree(module, start)
    walk = Walkthrough(
        display_name(path), pipeline, source, [], _targets(driver.passes), seed=seed, dynamic_size=dynamic_size,
        timing_size=timing_size,
    )  # fmt: skip
    checker = timing = None
    printed = print_with_origins(driver, module)
    walk.stages.append(
        Stage(0, "input", "", "", "the program as written", printed.text, module=module.clone(),
              line_origins=printed.line_origins)
    )  # fmt: skip
    counts = printed.op_counts
    if check:
        from mini_iree.compiler.interpreter.verify_each import ResultsChanged

        try:
            checker = _checker(module, seed, dynamic_size, "--dynamic-size")
            walk.dynamic_size = checker.dynamic_size
            walk.stages[0].values = captures.input_tensors(checker.references, module, printed.op_lines)
            # Made now, so that a --timing-size too large is refused before the passes run.
            timing = _checker(walk.stages[0].module, seed, timing_size, "--timing-size")
        except ResultsChanged as err:
            what = "checked" if checker is None else f"timed with --timing-size={timing_size}"
            message = f"the input program cannot be {what}: {err.message}"
            walk.error = str(Diagnostic(op_location(err.op, start), message))
    for index, pass_ in enumerate(driver.passes, start=1):
        begin = time.perf_counter()
        try:
            with rewrite_log.recording() as log:
                pass_.apply(driver.ctx, module)
            verify_op_tree(module, start)
        except (OpError, DiagnosticException, DiagnosticError) as err:
            walk.error = _error_text(err, module, start, pass_.name)
            walk.failed_pass = pass_.name
            break
        seconds = time.perf_counter() - begin
        cls = type(pass_)
        printed = print_with_origins(driver, module)
        stage = Stage(
            index,
            pass_.name,
            cls.__name__,
            str(pass_.pipeline_pass_spec()),
            _first_sentence(getattr(opt_main, "_UPSTREAM_SUMMARIES", {}).get(pass_.name) or cls.__doc__ or ""),
            printed.text,
            seconds,
            module=module.clone(),
            description=_dedent_doc(cls.__doc__ or ""),
            line_origins=printed.line_origins,
            rewrites=dict(log.counts.most_common()),
            patterns=log.patterns,
            pattern_walks=log.walks,
            made_by={line: log.made[op] for op, line in printed.op_lines.items() if op in log.made},
        )
        failure = None
        if checker is not None:
            introduced = captures.introduced_ops(printed.op_lines, counts, printed.op_counts)
            capture = captures.Capture(introduced) if introduced else None
            if capture is not None:
                # The check's own run keeps the values of the new ops (its interpreter watches them).
                checker.make_interpreter = capture.make_interpreter
            try:
                stage.check, failure = _check(checker, module, pass_.name, start)
            finally:
                if capture is not None:
                    del checker.make_interpreter
            if capture is not None and failure is None:
                stage.values = captures.captured_tensors(capture, checker.references, module, printed.op_lines)
        counts = printed.op_counts
        walk.stages.append(stage)
        if failure is not None:
            walk.error = failure
            walk.failed_pass = pass_.name
            break
    if checker is not None and timing is not None and walk.error is None:
        from mini_iree.compiler.interpreter import InterpreterError

        try:
            walk.final_runs = _final_runs(checker, timing, walk.stages[0].module, module)
        except InterpreterError as err:
            # The last check ran the final program on small inputs; the timing inputs are larger.
            message = f"the final program cannot be timed with --timing-size={timing_size}: {err.message}"
            walk.error = str(Diagnostic(op_location(err.op, start), message))
    return walk


def _checker(module: ModuleOp, seed: int, dynamic_size: int | None, flag: str) -> Any:
    """The interpreter's check of ``module`` on seeded inputs; CommandLineError when they would be too large."""
    from mini_iree.compiler.interpreter.verify_each import InputsTooLarge, ResultChecker
    from mini_iree.compiler.tools.cmdline import CommandLineError

    try:
        return ResultChecker(module, seed, dynamic_size)
    except InputsTooLarge as err:
        # The check's message names mini-iree-opt's flag; this tool's flag is `flag`.
        raise CommandLineError(err.message.replace("--interpreter-dynamic-size", flag, 1)) from None


def _first_sentence(doc: str) -> str:
    """A pass's summary: the first sentence of its docstring, on one line."""
    text = " ".join(doc.strip().split("\n\n", 1)[0].split())
    if not text:
        return "(no description)"
    end = text.find(". ")
    return text if end < 0 else text[: end + 1]


def _dedent_doc(doc: str) -> str:
    import inspect

    return inspect.cleandoc(doc) if doc else ""


def _error_text(err: Exception, module: ModuleOp, start: SourceLoc, name: str) -> str:
    if isinstance(err, OpError):
        return str(Diagnostic(op_location(err.op, start), err.text))
    if isinstance(err, DiagnosticError):
        return str(err.diagnostics[0])
    text = str(err).strip().splitlines()
    return str(Diagnostic(op_location(module, start), f"{name}: {text[0] if text else type(err).__name__}"))


def _check(checker: Any, module: ModuleOp, name: str, start: SourceLoc) -> tuple[Check, str | None]:
    """The check after pass ``name``, and the diagnostic to stop with when it failed."""
    from mini_iree.compiler.interpreter.verify_each import ResultsChanged

    try:
        summary = checker.check(module, name)
    except ResultsChanged as err:
        return Check(False, float("inf"), err.message), str(Diagnostic(op_location(err.op, start), err.message))
    largest = float(summary.rsplit("largest error ", 1)[1].rstrip(")"))
    return Check(True, largest, summary.removeprefix("verify-each-with-interpreter: ")), None


def _best_time(run, repeats: int = 5) -> float:
    best = float("inf")
    for _ in range(repeats):
        begin = time.perf_counter()
        run()
        best = min(best, time.perf_counter() - begin)
    return best


def _final_runs(checker: Any, timing: Any, source_module: ModuleOp, final_module: ModuleOp) -> list[FinalRun]:
    """Results of the final program against the input program's, and both timed on larger inputs.

    The results are the check's (small dynamic sizes, easy to read); the times
    are taken with every dynamic dimension ``timing_size``, where the work, not
    the interpreter's per-op overhead, dominates. The input program runs each op
    as one whole-array numpy call (a matmul is numpy's BLAS), so it is the numpy
    baseline.
    """
    import numpy as np

    from mini_iree.compiler.interpreter.verify_each import compare, largest_error
    from mini_iree.compiler.tools.run_main import format_array

    runs = []
    for ref, big in zip(checker.references, timing.references):
        results = checker._run(final_module, ref.name, ref.inputs)
        problem = compare(ref.results, results, ref.tolerance_scale)
        final_seconds = _best_time(lambda: checker._run(final_module, big.name, big.inputs))
        reference_seconds = _best_time(lambda: checker._run(source_module, big.name, big.inputs))
        runs.append(
            FinalRun(
                ref.name,
                [format_array(np.asarray(v), max_elements=12) for v in ref.inputs],
                [format_array(r, max_elements=12) for r in results],
                largest_error(ref.results, results) if problem is None else float("inf"),
                problem is None,
                final_seconds,
                reference_seconds,
                timing.dynamic_size,
            )
        )
    return runs
