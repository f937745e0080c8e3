"""Fuzzers of the whole data-tiling pipeline, on every target, and of its later passes one by one.

1. ``test_fuzz_pipeline_differential``: seeded random programs (``program_gen.py``:
   matmuls in every form the tests use, chains, producers and consumers) through
   ``data-tiling{target=T}`` on each of seven targets with
   ``--verify-each-with-interpreter``; the final program is run by the interpreter
   on the generator's inputs and compared with the generator's numpy results
   (exactly for integers, within a tolerance for floats).
2. ``test_fuzz_pipeline_mutants``: mutants of the pipeline's inputs (the e2e and
   example programs, generated programs) through the whole pipeline on a random target.
3. ``test_fuzz_later_passes``: each pass of the stream and codegen halves (every
   registered pass the mini-iree-opt fuzzer leaves out) alone, on mutants of IR
   dumped just before it in the pipeline and of its lit tests' inputs.

Oracles, whatever the input: exit status 0 or 1; no traceback, no ``internal error``;
no run longer than 10 s; output of a successful run parses again to the same text;
a failed run's first line of stderr is ``FILE:LINE:COL: error: ...``. A valid
generated program must compile (unless a target refuses it with one of the
diagnostics of ``EXPECTED_REFUSALS``) and give numpy's results.

Runs go through ``mini-iree-opt``'s ``main`` in this process. Each fuzzer ends with
a summary line (runs, internal errors, invalid IR, tracebacks, hangs, wrong
results); ``MINI_IREE_FUZZ_SAVE=DIR`` writes every failing input to DIR.
Long mode (``pytest -m fuzz test/fuzz``): 4,200 differential runs (600 programs x
7 targets) and 1,500 mutant runs of the whole pipeline, 3,000 later-pass mutants;
``MINI_IREE_FUZZ_PIPELINE_INPUTS``, ``MINI_IREE_FUZZ_PIPELINE_MUTANTS_INPUTS`` and
``MINI_IREE_FUZZ_LATER_PASSES_INPUTS`` set one fuzzer's count (in runs).
"""

from __future__ import annotations

import os
import random
import re
import time
import traceback
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import pytest
from conftest import REPO, Hang, hang_guard, run_opt
from program_gen import dynamic_sizes, generate
from test_fuzz_opt import PASSES as FIRST_HALF_PASSES
from test_fuzz_opt import mutate

TARGETS = {
    "avx2": "x86_64:+avx,+avx2,+fma",
    "avx512": "x86_64:+avx512f",
    "aarch64": "aarch64:+neon,+i8mm",
    "riscv64": "riscv64",
    "vmvx": "vmvx",
    "gfx942": "gfx942",
    "two-devices": "vmvx,x86_64:+avx512f",
}

# (target, diagnostic) of valid programs a target refuses by design.
EXPECTED_REFUSALS = [
    # No inner_tiled without both M and N loops (IREE cannot either, iree-org/iree#23046).
    ("gfx942", "only matmul-like contractions (with M and N loops) lower to iree_codegen.inner_tiled"),
    # In the IREE 3.13 era a vector operand holds a whole intrinsic tile, which no encode
    # dispatch can write: its layout is refused (or its set/unset_encoding, as IREE's fails).
    ("gfx942", "swizzle expandShape size (2) does not match innerTileSizes size (1)"),
    ("gfx942", "to equal the number of reassociation maps"),
]

DIAGNOSTIC = re.compile(r"^[^\n]*:\d+:\d+: error: ")
LONG_PROGRAMS = 600
E2E_INPUTS = sorted((REPO / "test" / "e2e" / "Inputs").glob("*.mlir")) + sorted((REPO / "examples").glob("*.mlir"))


@dataclass
class Failure:
    kind: str
    what: str
    text: str
    detail: str


@dataclass
class Tally:
    """What a fuzzer saw: run counts by outcome, and the failures (text and command)."""

    name: str
    counts: Counter = field(default_factory=Counter)
    failures: list[Failure] = field(default_factory=list)

    KINDS = ("internal error", "invalid IR", "traceback", "hang", "wrong result", "bad diagnostic", "refused")

    def fail(self, kind: str, what: str, text: str, detail: str) -> None:
        self.counts[kind] += 1
        self.failures.append(Failure(kind, what, text, detail))
        folder = os.environ.get("MINI_IREE_FUZZ_SAVE")
        if folder:
            Path(folder).mkdir(parents=True, exist_ok=True)
            index = len(self.failures)
            stem = f"{self.name}-{index:04d}-{kind.replace(' ', '-')}"
            (Path(folder) / f"{stem}.mlir").write_text(text)
            (Path(folder) / f"{stem}.txt").write_text(f"{what}\n{detail}\n")

    def summary(self) -> str:
        c = self.counts
        return (
            f"{self.name}: {c['runs']} runs, {c['internal error']} internal errors, {c['invalid IR']} invalid IR, "
            f"{c['traceback']} tracebacks, {c['hang']} hangs, {c['wrong result']} wrong results, "
            f"{c['bad diagnostic']} bad diagnostics, {c['refused']} valid programs refused "
            f"({c['expected refusal']} expected refusals, {c['ok']} compiled)"
        )

    def check(self) -> None:
        print(self.summary())
        if self.failures:
            shown = "\n\n".join(
                f"[{f.kind}] {f.what}\n{f.detail[:1500]}\n--- input ---\n{f.text[:3000]}" for f in self.failures[:3]
            )
            pytest.fail(f"{self.summary()}\n\n{shown}", pytrace=False)


def opt(tally: Tally, path: Path, args: list[str], text: str, what: str, valid: bool) -> str | None:
    """Run mini-iree-opt on ``path``; the output of a successful run, None otherwise (failures tallied).

    ``valid``: the input is a correct program, so any error is a failure unless expected.
    """
    tally.counts["runs"] += 1
    start = time.monotonic()
    try:
        with hang_guard():
            result = run_opt([str(path), *args])
    except Hang as err:
        tally.fail("hang", what, text, str(err))
        return None
    except Exception:  # noqa: BLE001 - an exception out of main is a failure to report, not to crash on
        tally.fail("traceback", what, text, traceback.format_exc())
        return None
    stderr = result.stderr
    if "internal error: Hang:" in stderr or time.monotonic() - start > 10:
        tally.fail("hang", what, text, stderr)
        return None
    if "Traceback" in stderr:
        tally.fail("traceback", what, text, stderr)
        return None
    if "internal error" in stderr:
        tally.fail("internal error", what, text, stderr + _traceback_of(path, args))
        return None
    if result.returncode not in (0, 1):
        tally.fail("traceback", what, text, f"exit {result.returncode}\n{stderr}")
        return None
    if result.returncode == 1:
        if not DIAGNOSTIC.match(stderr):
            tally.fail("bad diagnostic", what, text, stderr)
        elif valid:
            _classify_refusal(tally, args, what, text, stderr)
        return None
    again = path.with_name("again.mlir")
    again.write_text(result.stdout)
    try:
        with hang_guard():
            reparsed = run_opt([str(again), *[a for a in args if a == "--split-input-file"]])
    except Hang as err:
        tally.fail("hang", f"{what} (parsing the output again)", text, str(err))
        return None
    if reparsed.returncode != 0 or reparsed.stdout != result.stdout:
        problem = reparsed.stderr or "prints differently when parsed again"
        tally.fail("invalid IR", what, text, f"output does not parse again: {problem}\noutput:\n{result.stdout[:4000]}")
        return None
    tally.counts["ok"] += 1
    return result.stdout


def _traceback_of(path: Path, args: list[str]) -> str:
    """The Python traceback behind an internal error (for the report)."""
    os.environ["MINI_IREE_TRACEBACK"] = "1"
    try:
        with hang_guard():
            run_opt([str(path), *args])
    except Exception:  # noqa: BLE001
        return "\n" + "".join(traceback.format_exc().splitlines(keepends=True)[-12:])
    finally:
        del os.environ["MINI_IREE_TRACEBACK"]
    return ""


def _classify_refusal(tally: Tally, args: list[str], what: str, text: str, stderr: str) -> None:
    target = next((a for a in args if "target=" in a), "")
    if "changed the results of" in stderr or "produced IR that cannot run" in stderr:
        tally.fail("wrong result", what, text, stderr)
    elif any(t in target and message in stderr for t, message in EXPECTED_REFUSALS):
        tally.counts["expected refusal"] += 1
    elif "error: '" in stderr.splitlines()[0] or "does not dominate" in stderr:
        # An op's own verifier: a pass made invalid IR.
        tally.fail("invalid IR", what, text, stderr)
    else:
        tally.fail("refused", what, text, stderr)


# -- 1. random programs against numpy ---------------------------------------------------------


EPSILON = {"f32": 2.0**-23, "f16": 2.0**-10, "bf16": 2.0**-7}


def _tolerance(expected: np.ndarray, steps: int, narrowest: str) -> float:
    """Rounding differences grow with the summed reductions; layout bugs give errors of the values' size."""
    eps = EPSILON[narrowest]
    scale = max(1.0, float(np.max(np.abs(expected.astype(np.float64))))) if expected.size else 1.0
    return min(0.05, 8 * eps * (steps + 1)) * scale


def compare_with_numpy(function, results: list[np.ndarray]) -> str | None:
    """None if the compiled function's results are numpy's, else what differs."""
    if len(results) != len(function.expected):
        return f"{len(results)} results instead of {len(function.expected)}"
    narrowest = "bf16" if "bf16" in function.text else "f16" if "f16" in function.text else "f32"
    for i, (want, got) in enumerate(zip(function.expected, results)):
        if want.shape != got.shape or want.dtype != got.dtype:
            return f"result {i} is {got.dtype}{list(got.shape)}, numpy's {want.dtype}{list(want.shape)}"
        if want.size == 0:
            continue
        if want.dtype.kind in "iu":
            if not np.array_equal(want, got):
                where = np.argwhere(want != got)[0]
                return f"result {i} differs at {list(where)}: numpy {want[tuple(where)]}, got {got[tuple(where)]}"
            continue
        w, g = want.astype(np.float64), got.astype(np.float64)
        diff = float(np.max(np.abs(w - g)))
        tolerance = _tolerance(want, sum(function.contraction_sizes), narrowest)
        if not diff <= tolerance:
            where = np.unravel_index(int(np.argmax(np.abs(w - g))), w.shape)
            return (f"result {i}: largest error {diff:.4g} > {tolerance:.4g} at {list(map(int, where))} "
                    f"(numpy {w[where]:.6g}, got {g[where]:.6g})")  # fmt: skip
    return None


def run_compiled(tally: Tally, output: str, program, what: str, text: str) -> None:
    from mini_iree.compiler.interpreter import InterpreterError, parse_module_text, run

    module = parse_module_text(output, "<compiled>")
    for function in program.functions:
        try:
            with hang_guard():
                results = run(module, function.name, *function.inputs)
        except Hang as err:
            tally.fail("hang", f"{what} (running @{function.name})", text, str(err))
            return
        except InterpreterError as err:
            tally.fail("wrong result", f"{what} (running @{function.name})", text, f"cannot run: {err}")
            return
        except Exception:  # noqa: BLE001
            tally.fail("traceback", f"{what} (running @{function.name})", text, traceback.format_exc())
            return
        problem = compare_with_numpy(function, results)
        if problem is not None:
            tally.fail("wrong result", f"{what} (running @{function.name})", text, problem)
            return


@pytest.mark.fuzz(share=0.35, name="pipeline", long_inputs=LONG_PROGRAMS * len(TARGETS))
def test_fuzz_pipeline_differential(tmp_path, budget):
    tally = Tally("whole-pipeline differential fuzzer")
    rng = random.Random(budget.seed)
    start = time.monotonic()
    programs = 0
    while budget.running(tally.counts["runs"], start):
        seed = rng.randrange(2**32)
        program = generate(random.Random(seed), seed)
        programs += 1
        for target, spec in TARGETS.items():
            device_1 = {f.name for f in program.functions if rng.random() < 0.5} if target == "two-devices" else set()
            text = program.text(device_1)
            path = tmp_path / "program.mlir"
            path.write_text(text)
            size = rng.choice(dynamic_sizes())
            args = ["-p", f"data-tiling{{target={spec}}}", "--verify-each-with-interpreter",
                    f"--interpreter-dynamic-size={size}", f"--interpreter-seed={seed % 1000}"]  # fmt: skip
            what = f"program seed {seed} on {target}: mini-iree-opt FILE {' '.join(args)}"
            output = opt(tally, path, args, text, what, valid=True)
            if output is not None:
                run_compiled(tally, output, program, what, text)
    print(f"{programs} programs")
    tally.check()


# -- 2. mutants through the whole pipeline --------------------------------------------------


def pipeline_inputs(rng: random.Random, count: int) -> list[str]:
    texts = [p.read_text() for p in E2E_INPUTS]
    for _ in range(count):
        seed = rng.randrange(2**32)
        texts.append(generate(random.Random(seed), seed).text())
    return texts


@pytest.mark.fuzz(share=0.2, name="pipeline_mutants", long_inputs=1_500)
def test_fuzz_pipeline_mutants(tmp_path, budget):
    tally = Tally("whole-pipeline mutation fuzzer")
    rng = random.Random(budget.seed)
    texts = pipeline_inputs(rng, 20)
    start = time.monotonic()
    while budget.running(tally.counts["runs"], start):
        text = mutate(rng, texts) if rng.random() < 0.9 else rng.choice(texts)
        spec = rng.choice(list(TARGETS.values()))
        args = ["-p", f"data-tiling{{target={spec}}}"]
        if rng.random() < 0.1:
            args += ["--verify-each-with-interpreter", f"--interpreter-dynamic-size={rng.choice([1, 3, 9])}"]
        path = tmp_path / "mutant.mlir"
        path.write_bytes(text.encode("utf-8", errors="surrogatepass"))
        opt(tally, path, args, text, f"mini-iree-opt FILE {' '.join(args)}", valid=False)
    tally.check()


# -- 3. the later passes one by one ------------------------------------------------------------


def later_passes() -> list[str]:
    from mini_iree.passes import get_all_passes

    first = {name.split("{")[0] for name in FIRST_HALF_PASSES}
    return sorted(set(get_all_passes()) - first)


# Passes that take the same input as another pass of the pipeline.
SAME_INPUT_AS = {
    "iree-codegen-gpu-combine-layout-transformation": "iree-codegen-combine-layout-transformation",
    "iree-codegen-combine-result-layout-transformation": "iree-codegen-combine-layout-transformation",
    "iree-codegen-materialize-encoding-into-padding": "iree-codegen-materialize-device-encoding",
}
DUMP_HEADER = re.compile(r"^// -----// IR Dump After \w+: (.*) //----- //$", re.M)
RUN_LINE = re.compile(r"^// RUN: mini-iree-opt %s (.*?)(?:\s*\||$)", re.M)


def dumps_before_each_pass(tmp_path: Path, programs: list[tuple[str, str]]) -> dict[str, list[str]]:
    """pass flag -> IR texts it receives in the pipeline (from --mlir-print-ir-after-all)."""
    corpus: dict[str, list[str]] = {}
    for text, spec in programs:
        path = tmp_path / "dump-source.mlir"
        path.write_text(text)
        result = run_opt([str(path), "-p", f"data-tiling{{target={spec}}}", "--mlir-print-ir-after-all"])
        parts = DUMP_HEADER.split(result.stderr)
        # parts = [before, flag0, ir0, flag1, ir1, ...]: the IR after pass i is the input of pass i+1.
        flags, irs = parts[1::2], parts[2::2]
        inputs = [text, *irs]
        for flag, ir in zip(flags, inputs):
            corpus.setdefault(flag, []).append(ir)
    return corpus


def lit_inputs() -> list[tuple[str, list[str], str]]:
    """(pass pipeline, extra flags, text) from the RUN lines of test/passes/*.mlir."""
    found = []
    for path in sorted((REPO / "test" / "passes").glob("*.mlir")):
        text = path.read_text()
        for line in RUN_LINE.findall(text):
            match = re.search(r"-p (?:'([^']*)'|(\S+))", line)
            if match:
                pipeline = match.group(1) or match.group(2)
                extra = ["--split-input-file"] if "--split-input-file" in line else []
                found.append((pipeline, extra, text))
    return found


@pytest.mark.fuzz(share=0.25, name="later_passes", long_inputs=3_000)
def test_fuzz_later_passes(tmp_path, budget):
    tally = Tally("later-pass mutation fuzzer")
    rng = random.Random(budget.seed)
    passes = later_passes()
    # IR dumped along the pipeline, from a few programs on random targets (more in the long mode).
    short = budget.seconds != float("inf")
    programs = [p.read_text() for p in rng.sample(E2E_INPUTS, 3 if short else 10)]
    programs += pipeline_inputs(rng, 1 if short else 10)[len(E2E_INPUTS) :]
    sources = [(text, rng.choice(list(TARGETS.values()))) for text in programs]
    dumps = dumps_before_each_pass(tmp_path, sources)
    cases: dict[str, list[tuple[str, list[str], str]]] = {name: [] for name in passes}
    for flag, texts in dumps.items():
        base = flag.split("{")[0]
        for name in [base, *[k for k, v in SAME_INPUT_AS.items() if v == base]]:
            if name in cases:
                cases[name] += [(flag if name == base else name, [], t) for t in texts]
    for pipeline, extra, text in lit_inputs():
        base = pipeline.split("{")[0]
        if base in cases and "," not in pipeline:
            cases[base].append((pipeline, extra, text))
    missing = [name for name, found in cases.items() if not found]
    assert not missing, f"no input for {missing}"
    start = time.monotonic()
    index = 0
    while budget.running(tally.counts["runs"], start):
        name = passes[index % len(passes)]
        index += 1
        pipeline, extra, text = rng.choice(cases[name])
        mutant = mutate(rng, [text]) if rng.random() < 0.9 else text
        path = tmp_path / "later.mlir"
        path.write_bytes(mutant.encode("utf-8", errors="surrogatepass"))
        args = ["-p", pipeline, *extra]
        opt(tally, path, args, mutant, f"mini-iree-opt FILE {' '.join(args)}", valid=False)
    tally.check()
