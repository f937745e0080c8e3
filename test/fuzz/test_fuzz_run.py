"""Fuzzer for mini-iree-run's inputs: shapes, element types, values, .npy files and flags.

Programs are the repository's runnable examples; each run gets a random list of
``--input``/``--output``/``--function`` values, well-formed or not (wrong shapes,
unknown or narrow element types, huge or negative sizes, garbage values, missing
or corrupt .npy files). Every run exits 0 or 1 without a traceback or an
``internal error``, within 10 s.
"""

from __future__ import annotations

import contextlib
import io
import random
import time

import numpy as np
import pytest
from conftest import REPO, hang_guard

from mini_iree.compiler.tools.run_main import main

PROGRAMS = [REPO / "examples" / "matmul.mlir", *sorted((REPO / "test" / "tools" / "mini-iree-run").glob("*.mlir"))]

ELEMENT_TYPES = ["f32", "f16", "bf16", "f64", "i1", "i8", "i16", "i32", "i64", "ui8", "si32", "i4", "q7", "f8", "", "index"]
DIMS = ["0", "1", "2", "3", "4", "16", "-1", "?", "", "x", "1e3", "99999999999", "4294967297", "007"]
VALUES = ["1", "0", "-1", "1,2,3,4,5,6", "[1 2 3][4 5 6]", "nan", "inf", "-inf", "1e400", "0x10", "true", "abc",
          "", "1,,2", "[", "]", "9" * 40, "1.5", "-0"]  # fmt: skip


def random_input(rng: random.Random, npy_files: list[str]) -> str:
    kind = rng.randrange(10)
    if kind == 0:
        return "@" + rng.choice(npy_files)
    if kind == 1:
        return rng.choice(VALUES)
    rank = rng.choice([0, 1, 2, 2, 2, 3])
    dims = [rng.choice(DIMS[:6]) if rng.random() < 0.85 else rng.choice(DIMS) for _ in range(rank)]
    element = rng.choice(ELEMENT_TYPES[:3]) if rng.random() < 0.7 else rng.choice(ELEMENT_TYPES)
    spec = "x".join([*dims, element])
    if kind == 2:
        return spec + "=@" + rng.choice(npy_files)
    values = rng.choice(VALUES[:3]) if rng.random() < 0.6 else rng.choice(VALUES)
    return f"{spec}={values}" if rng.random() < 0.95 else spec


def make_npy_files(tmp_path) -> list[str]:
    paths = []
    for name, array in {
        "a": np.ones((2, 3), np.float32),
        "b": np.arange(12, dtype=np.int32).reshape(3, 4),
        "c": np.zeros((), np.float64),
        "d": np.array([1 + 2j], np.complex64),
        "e": np.array(["x"], dtype="<U1"),
    }.items():
        path = tmp_path / f"{name}.npy"
        np.save(path, array)
        paths.append(str(path))
    (tmp_path / "garbage.npy").write_bytes(b"\x93NUMPY garbage")
    paths += [str(tmp_path / "garbage.npy"), str(tmp_path / "missing.npy"), str(tmp_path)]
    return paths


def run(args: list[str]) -> tuple[int, str]:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            code = main(args)
        except SystemExit as exc:
            code = exc.code if isinstance(exc.code, int) else 1
    return code, err.getvalue()


@pytest.mark.fuzz(share=0.2, name="run", long_inputs=2_000)
def test_fuzz_run(tmp_path, budget):
    rng = random.Random(budget.seed)
    npy_files = make_npy_files(tmp_path)
    start, done = time.monotonic(), 0
    while budget.running(done, start):
        args = [str(rng.choice(PROGRAMS))]
        args += [f"--input={random_input(rng, npy_files)}" for _ in range(rng.choice([0, 1, 2, 2, 2, 3]))]
        if rng.random() < 0.2:
            args.append(f"--function={rng.choice(['f', 'matmul_f32f32f32', 'nope', '@f', ''])}")
        if rng.random() < 0.2:
            args.append(f"--output={rng.choice(['-', '', '@' + str(tmp_path / 'o.npy'), 'x', '@/nonexistent/o.npy'])}")
        if rng.random() < 0.05:
            args.append(f"--print_max_element_count={rng.choice(['0', '-1', '3', 'x'])}")
        with hang_guard():
            code, stderr = run(args)
        context = f"input #{done}: mini-iree-run {' '.join(args)}"
        assert code in (0, 1), f"exit {code}; {context}\n{stderr}"
        assert "Traceback" not in stderr and "internal error" not in stderr, f"{context}\n{stderr}"
        done += 1
    print(f"mini-iree-run fuzzer: {done} inputs")
