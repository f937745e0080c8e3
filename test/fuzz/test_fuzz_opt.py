"""Mutation fuzzer for mini-iree-opt: every .mlir of the repository, every command-line flag.

Each input is a seeded mutation of a repository .mlir (truncation, deleted or
duplicated spans, inserted tokens, swapped lines, flipped bytes, two files
spliced) run with a random combination of flags and of the dispatch-creation
passes (alone, or the whole ``data-tiling-dispatch-creation`` pipeline). Whatever
the input:

- the exit status is 0 or 1, and no Python traceback or ``internal error`` shows;
- no input takes longer than 10 s;
- output of a successful run parses again (with the same flags) to the same text;
- a failed run leaves the ``-o`` file as it was.
"""

from __future__ import annotations

import random
import time
from pathlib import Path

import pytest
from conftest import HANG_SECONDS, REPO, hang_guard, run_opt

CORPUS_FILES = sorted(p for p in REPO.rglob("*.mlir") if "Output" not in p.parts)

# Tokens that tend to reach unusual parser and verifier paths.
TOKENS = [
    "{", "}", "(", ")", "<", ">", "[", "]", '"', ":", ",", "=", "->", "%0", "%arg0", "@f", "^bb0:", "?",
    "tensor<?x4xf32>", "tensor<4xi4>", "index", "i1", "f16", "bf16", "#map", "#encoding", "loc(unknown)",
    "affine_map<(d0) -> (d0)>", "dense<1.0>", "dense<[1, 2]>", "dense_resource<__elided__>",
    "99999999999999999999", "-1", "0", "0x7FC00000", "// -----\n", "\n", "\x00", "\ufeff", "\u00e9",
    "return", "func.return", "util.return", "flow.return", "// expected-error @+1 {{x}}\n",
    "// expected-error-re {{[}}\n", "scf.forall (%i) in (1000000000000) {", "module {", "}" * 5, "(" * 50,
]  # fmt: skip

# Every pass of the dispatch-creation half, one by one and as the whole pipeline.
PASSES = ["cse", "dce", "canonicalize", "iree-abi-wrap-entry-points", "iree-dispatch-creation-form-dispatch-regions",
          "iree-dispatch-creation-annotate-data-tiling-hints", "iree-dispatch-creation-set-encoding",
          "iree-dispatch-creation-hoist-encoding-ops", "iree-dispatch-creation-propagate-encodings",
          "iree-dispatch-creation-fuse-encoding-ops-into-dispatch-regions-pass",
          "iree-dispatch-creation-convert-encoding-to-flow", "iree-util-hoist-into-globals",
          "iree-dispatch-creation-clone-producers-into-dispatch-regions",
          "iree-dispatch-creation-collapse-dimensions", "iree-dispatch-creation-pipeline{data-tiling}",
          "data-tiling-dispatch-creation"]  # fmt: skip

PRINT_FLAGS = [
    ["--mlir-print-op-generic"],
    ["--mlir-print-local-scope"],
    ["--mlir-print-debuginfo"],
    ["--mlir-elide-elementsattrs-if-larger=2"],
]
OTHER_FLAGS = [
    ["--split-input-file"],
    ["--verify-diagnostics", "--split-input-file"],
    ["--allow-unregistered-dialect"],
    ["--verify-each=false"],
    ["--mlir-print-ir-before-all"],
    ["--mlir-print-ir-after-all"],
    ["--mlir-print-ir-after-change"],
    ["--mlir-print-ir-before=cse"],
    ["--mlir-print-ir-after=canonicalize"],
    ["--mlir-timing"],
    ["--verify-each-with-interpreter", "--interpreter-dynamic-size=3"],
]


def mutate(rng: random.Random, texts: list[str]) -> str:
    text = rng.choice(texts)
    for _ in range(rng.choice([1, 1, 1, 2, 3])):
        n = len(text)
        i = rng.randrange(n + 1)
        j = min(n, i + rng.choice([1, 2, 5, 20, 200]))
        kind = rng.randrange(8)
        if kind == 0:
            text = text[:i]
        elif kind == 1:
            text = text[:i] + text[j:]
        elif kind == 2:
            text = text[:j] + text[i:j] + text[j:]
        elif kind == 3:
            text = text[:i] + rng.choice(TOKENS) + text[i:]
        elif kind == 4:
            lines = text.split("\n")
            a, b = rng.randrange(len(lines)), rng.randrange(len(lines))
            lines[a], lines[b] = lines[b], lines[a]
            text = "\n".join(lines)
        elif kind == 5 and n:
            k = rng.randrange(n)
            text = text[:k] + chr(rng.choice([0, 9, 10, 34, 35, 37, 40, 41, 60, 62, 64, 123, 125, 0xFEFF])) + text[k + 1 :]
        elif kind == 6:
            other = rng.choice(texts)
            text = text[:i] + other[rng.randrange(len(other) + 1) :]
        else:
            words = [w for w in text.replace("(", " ").replace(")", " ").split() if w[:1] in "%@#!^"]
            if words:
                text = text.replace(rng.choice(words), rng.choice(words), 1)
    return text


def flags(rng: random.Random) -> tuple[list[str], list[str]]:
    """(all flags, the flags a re-parse of the output needs)."""
    chosen: list[str] = []
    reparse: list[str] = []
    for group in PRINT_FLAGS:
        if rng.random() < 0.15:
            chosen += group
            reparse += group
    for group in OTHER_FLAGS:
        # The interpreter check is slow: rarer, so the default run still sees many inputs.
        if rng.random() < (0.04 if group[0] == "--verify-each-with-interpreter" else 0.12):
            chosen += group
    if "--split-input-file" in chosen:
        reparse.append("--split-input-file")
    if "--allow-unregistered-dialect" in chosen:
        reparse.append("--allow-unregistered-dialect")
    if rng.random() < 0.5:
        chosen += ["-p", ",".join(rng.sample(PASSES, rng.randint(1, 3)))]
    return chosen, reparse


def check_one(tmp_path: Path, index: int, text: str, args: list[str], reparse: list[str], rng: random.Random) -> None:
    path = tmp_path / f"input{index % 8}.mlir"
    path.write_bytes(text.encode("utf-8", errors="surrogatepass"))
    out = None
    if rng.random() < 0.2:
        out = tmp_path / "out.mlir"
        out.write_text("previous\n")
        args = [*args, "-o", str(out)]
    context = f"input #{index} with {args}:\n{text[:2000]!r}"
    start = time.monotonic()
    with hang_guard():
        result = run_opt([str(path), *args])
    assert time.monotonic() - start < HANG_SECONDS, context
    assert result.returncode in (0, 1), f"exit {result.returncode}; {context}\n{result.stderr}"
    assert "Traceback" not in result.stderr and "internal error" not in result.stderr, f"{context}\n{result.stderr}"
    output = result.stdout
    if out is not None:
        if result.returncode != 0:
            assert out.read_text() == "previous\n", f"-o changed by a failed run; {context}"
            return
        output = out.read_text()
    if result.returncode != 0 or "--verify-diagnostics" in args:
        return
    again_path = tmp_path / "again.mlir"
    again_path.write_text(output)
    with hang_guard():
        again = run_opt([str(again_path), *reparse])
    assert again.returncode == 0, f"output does not parse again: {again.stderr}\n{context}\noutput:\n{output[:2000]}"
    assert again.stdout == output, f"output prints differently when parsed again; {context}"


@pytest.mark.fuzz(share=0.6, name="opt", long_inputs=10_000)
def test_fuzz_opt(tmp_path, budget):
    texts = [p.read_text() for p in CORPUS_FILES]
    assert texts, "no .mlir files found"
    rng = random.Random(budget.seed)
    start, done = time.monotonic(), 0
    while budget.running(done, start):
        text = mutate(rng, texts)
        args, reparse = flags(rng)
        check_one(tmp_path, done, text, args, reparse, rng)
        done += 1
    print(f"mini-iree-opt fuzzer: {done} inputs")
