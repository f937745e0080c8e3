"""Fuzzer for mini-iree-layout: mutated XLA shape strings and IREE encoding_info dictionaries.

Seeds are well-formed shapes and encodings; each input mutates one (deleted,
duplicated or replaced characters, huge or negative numbers, extra tiles) and
runs a random subcommand. Every run exits 0 or 1 with no traceback, no
``internal error`` and no numpy warning, within 10 s.
"""

from __future__ import annotations

import contextlib
import io
import random
import time
import warnings

import pytest
from conftest import hang_guard

from mini_iree.compiler.tools.layout_main import main

SHAPES = [
    "f32[3,5]{1,0:T(2,2)}", "bf16[4,8]{1,0:T(2,4)(2,1)}", "u32[]{:T(128)}", "s4[64,128]{1,0:T(64,128)(8,1)E(4)}",
    "f32[2,7,8,11,10]{4,3,2,1,0:T(*,*,2,*,3)}", "f32[10,4]{1,0:SC(0:3,7)}", "f32[<=3,5]{1,0:T(2,2)}",
    "pred[8,128]{0,1:T(8,128)L(4)}", "f32[1,1]", "c64[3]{0:T(2)}",
]  # fmt: skip
INFOS = [
    "{innerDimsPos = [0, 1], innerTileSizes = [8, 1], outerDimsPerm = [0, 1]}",
    "{innerDimsPos = [1, 0], innerTileSizes = [16, 4], outerDimsPerm = [1, 0]}",
    "{innerDimsPos = [0, 1], innerTileSizes = [128, 16], outerDimsPerm = [0, 1], swizzle = {expandShape = "
    '[[["CrossThread", 4 : i16], ["CrossIntrinsic", 8 : i16], ["CrossThread", 4 : i16]], [["CrossIntrinsic", 4 : i16], '
    '["CrossThread", 4 : i16]]], permutation = [1, 4, 0, 2, 3]}}',
]
MLIR_SHAPES = ["10x7xf32", "?x?xf32", "128x16xbf16", "3x5xi8", "0x4xf32", "f32", "1x1x1xf16"]
NUMBERS = ["0", "1", "-1", "*", "?", "9223372036854775807", "9223372036854775808", "-9223372036854775808",
           "4294967296", "100000", "3.5", ""]  # fmt: skip
PIECES = ["(", ")", "[", "]", "{", "}", ",", ":", "=", "T(", "L(", "E(", "S(", "M(", "SC(", "<=", '"', "x", " "]


def mutate(rng: random.Random, text: str) -> str:
    for _ in range(rng.choice([1, 1, 2, 3])):
        n = len(text)
        i = rng.randrange(n + 1)
        j = min(n, i + rng.choice([1, 2, 4, 10]))
        kind = rng.randrange(5)
        if kind == 0:
            text = text[:i] + text[j:]
        elif kind == 1:
            text = text[:i] + text[i:j] * rng.choice([2, 3, 20]) + text[j:]
        elif kind in (2, 3):
            # Replace a number with another (sizes and tiles drive the arithmetic).
            digits = [k for k, ch in enumerate(text) if ch.isdigit()]
            if digits:
                k = rng.choice(digits)
                end = k
                while end < n and text[end].isdigit():
                    end += 1
                text = text[:k] + rng.choice(NUMBERS) + text[end:]
        else:
            text = text[:i] + rng.choice(PIECES) + text[i:]
    return text


def random_args(rng: random.Random, tmp_path) -> list[str]:
    command = rng.choice(["index", "grid", "size", "canonical", "explain", "draw"])
    args = [command]
    if rng.random() < 0.35:
        info = rng.choice(INFOS)
        shape = rng.choice(MLIR_SHAPES)
        args += ["--encoding-info", mutate(rng, info) if rng.random() < 0.8 else info]
        args += ["--shape", mutate(rng, shape) if rng.random() < 0.3 else shape]
        rank = shape.count("x")
    else:
        shape = rng.choice(SHAPES)
        args.append(mutate(rng, shape) if rng.random() < 0.85 else shape)
        rank = shape.split("]")[0].count(",") + (0 if shape.split("[")[1].startswith("]") else 1)
    if command == "index":
        args += [",".join(rng.choice(NUMBERS[:5] + ["2", "3"]) for _ in range(rng.choice([rank, rank, rank + 1])))]
    if command == "size":
        args += rng.sample(["--xla", "--json"], rng.randint(0, 2))
    if command == "draw":
        args += ["-o", str(tmp_path / rng.choice(["p.svg", "p.txt", "missing/p.svg"]))]
    return args


def run(args: list[str]) -> tuple[int, str]:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err), warnings.catch_warnings():
        warnings.simplefilter("error")  # a numpy RuntimeWarning (overflow, invalid value) is a bug
        try:
            code = main(args)
        except SystemExit as exc:
            code = exc.code if isinstance(exc.code, int) else 1
    return code, err.getvalue()


@pytest.mark.fuzz(share=0.2, name="layout", long_inputs=50_000)
def test_fuzz_layout(tmp_path, budget):
    rng = random.Random(budget.seed)
    start, done = time.monotonic(), 0
    while budget.running(done, start):
        args = random_args(rng, tmp_path)
        context = f"input #{done}: mini-iree-layout {args!r}"
        with hang_guard():
            code, stderr = run(args)
        assert code in (0, 1), f"exit {code}; {context}\n{stderr}"
        assert "Traceback" not in stderr and "internal error" not in stderr, f"{context}\n{stderr}"
        done += 1
    print(f"mini-iree-layout fuzzer: {done} inputs")
