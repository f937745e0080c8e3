"""Per dispatch function: (push constants, bindings) of mini-iree (era=3.13) against IREE 3.13, on random programs.

Programs come from `program_gen.py` (seeds 0..N-1). IREE's side is
`iree-compile --iree-dispatch-creation-data-tiling --compile-to=executable-sources`;
mini-iree's is `data-tiling{target=T era=3.13}`. Functions are matched by
dispatch name (`f0_dispatch_2`, `_encoding_1`), so a dispatch one compiler forms
and the other does not shifts the numbering after it. Programs IREE rejects are
skipped; programs mini-iree rejects are listed. Needs `iree-compile` 3.13
(`pip install iree-base-compiler==3.13.0`):

    python test/fuzz/abi_match.py 40 --iree-compile /path/to/iree-compile [--cache DIR]
"""

from __future__ import annotations

import argparse
import random
import re
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from program_gen import generate  # noqa: E402

TARGETS = {
    "x86_64:+avx512f": [
        "--iree-hal-target-device=local",
        "--iree-hal-local-target-device-backends=llvm-cpu",
        "--iree-llvmcpu-target-triple=x86_64-unknown-linux-gnu",
        "--iree-llvmcpu-target-cpu-features=+avx512f",
    ],
    "gfx942": ["--iree-hal-target-device=hip", "--iree-rocm-target=gfx942"],
}


def layouts(text: str) -> dict[str, tuple[int, int]]:
    """Dispatch name -> (push constants, bindings) of each `hal.executable.export`."""
    aliases = dict(re.findall(r"^(#pipeline_layout\d*) = (#hal\.pipeline\.layout<.*?>)\s*$", text, re.M))
    found = {}
    for name, layout in re.findall(
        r"hal\.executable\.export public @(\S+) ordinal\(\d+\) layout\((#[\w.]+(?:<[^\n]*?>)?)\)", text
    ):
        layout = aliases.get(layout, layout)
        constants = re.search(r"constants = (\d+)", layout)
        key = re.match(r"(.*?_dispatch_\d+|_encoding_\d+)", name)
        found[key.group(1) if key else name] = (int(constants.group(1)) if constants else 0, layout.count("#hal.pipeline.binding"))
    return found


def iree_output(iree_compile: str, program: Path, target: str, cache: Path) -> str | None:
    cached = cache / f"{program.stem}-{re.sub(r'[^a-z0-9]', '_', target)}.txt"
    if not cached.exists():
        result = subprocess.run(
            [iree_compile, str(program), *TARGETS[target], "--iree-dispatch-creation-data-tiling",
             "--compile-to=executable-sources"],
            capture_output=True, text=True,
        )
        cached.write_text(f"{result.returncode}\n{result.stdout}")
    code, text = cached.read_text().split("\n", 1)
    return text if code == "0" else None


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("count", type=int)
    parser.add_argument("--start", type=int, default=0)
    parser.add_argument("--iree-compile", default="iree-compile")
    parser.add_argument("--cache", type=Path, default=Path(tempfile.gettempdir()) / "mini-iree-abi-match")
    args = parser.parse_args()
    args.cache.mkdir(parents=True, exist_ok=True)
    total = same = 0
    misses = []
    for seed in range(args.start, args.start + args.count):
        program = args.cache / f"p{seed}.mlir"
        program.write_text(generate(random.Random(seed), seed).text())
        for target in TARGETS:
            theirs = iree_output(args.iree_compile, program, target, args.cache)
            if theirs is None:
                continue
            ours = subprocess.run(
                ["mini-iree-opt", str(program), "-p", f"data-tiling{{target={target} era=3.13}}"],
                capture_output=True, text=True,
            )
            if ours.returncode:
                misses.append((seed, target, "mini-iree rejects it", ours.stderr.splitlines()[0][:160]))
                continue
            expected, got = layouts(theirs), layouts(ours.stdout)
            for name, value in expected.items():
                total += 1
                if got.get(name) == value:
                    same += 1
                else:
                    misses.append((seed, target, name, value, got.get(name)))
    print(f"{same}/{total} dispatch functions with IREE 3.13's (push constants, bindings)")
    for miss in misses:
        print(*miss)
    return 0


if __name__ == "__main__":
    sys.exit(main())
