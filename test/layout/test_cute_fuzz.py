"""Mutated CuTe layouts through every `mini-iree-layout` subcommand: exit 0 or 1, never a crash.

The seeded inputs are CUTLASS's docs examples with characters dropped, repeated
and replaced, and numbers swapped for extremes (0, negative, huge).
"""

from __future__ import annotations

import contextlib
import io
import random
import time

from mini_iree.compiler.tools.layout_main import main

SEEDS = [
    "(2,(3,4)):(1,(2,6))", "((2,2),8):((1,16),2)", "(6,2):(8,2)", "(4,3):(3,1)", "(12,(4,8)):(59,(13,1))",
    "<3:4, 8:2>", "4:2", "(4,2):(0,1)", "((2,4)):((4,1))", "(3,5):(1,4)", "(_2,_4):(_1,_2)",
    "Sw<3,4,3> o 0 o (8,64):(64,1)", "SW_1_0_2 o (4,4):(4,1)",
]  # fmt: skip
NUMBERS = ["0", "-1", "-7", "1", "99999999999", "2" * 40, "128", "3"]
PIECES = ["(", ")", ",", ":", "<", ">", "_", " ", "((", "))", "x", "[", "]"]


def mutate(rng: random.Random, text: str) -> str:
    for _ in range(rng.choice([0, 1, 2, 3])):
        i = rng.randrange(len(text) + 1)
        action = rng.random()
        if action < 0.3:
            text = text[:i] + text[i + rng.choice([1, 2, 4]) :]
        elif action < 0.5:
            text = text[:i] + text[i : i + 4] * rng.choice([2, 3, 20]) + text[i:]
        elif action < 0.8:
            text = text[:i] + rng.choice(NUMBERS) + text[i:]
        else:
            text = text[:i] + rng.choice(PIECES) + text[i:]
    return text


def random_args(rng: random.Random, tmp_path) -> list[str]:
    a, b = mutate(rng, rng.choice(SEEDS)), mutate(rng, rng.choice(SEEDS))
    command = rng.choice(["index", "grid", "size", "canonical", "explain", "draw", "cute", "convert"])
    if command == "index":
        return [command, a, rng.choice(["0", "1,2", "3", "-1", "0,0,0", ""])]
    if command == "draw":
        return [command, a, "-o", str(tmp_path / "f.svg")]
    if command == "cute":
        op = rng.choice(["coalesce", "composition", "complement", "right-inverse", "left-inverse", "logical-divide",
                         "zipped-divide", "logical-product", "blocked-product", "raked-product", "tiled-product"])
        return [command, op, a] + ([b] if rng.random() < 0.8 else [])
    if command == "convert":
        return [command, "--to", rng.choice(["cute", "xla", "iree"]), a]
    return [command, a]


def test_fuzz_cute_inputs(tmp_path):
    rng = random.Random(20261128)
    for _ in range(400):
        args = random_args(rng, tmp_path)
        out, err = io.StringIO(), io.StringIO()
        start = time.monotonic()
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            code = main(args)
        assert code in (0, 1), args
        assert "internal error" not in err.getvalue() and "Traceback" not in err.getvalue(), (args, err.getvalue())
        assert time.monotonic() - start < 10, args
