"""Start-up time of the command-line tools, against xDSL's own ``xdsl-opt``.

    python benchmarks/bench_startup.py              # best of 10 runs of each
    python benchmarks/bench_startup.py --repeat 20

Runs, alternately (so that load from other processes affects every row alike),
each as a fresh process:

* ``xdsl-opt`` on an empty module (the floor: Python, xDSL's core and builtin);
* ``mini-iree-opt`` on the same empty module;
* ``mini-iree-run`` on a tiny program (one ``arith.addf`` on two 4-element
  tensors), which imports numpy and the interpreter parts the program uses;
* ``python -c pass``, the interpreter's own start-up;
* the imports no ``mini-iree-run`` can do without: numpy, and xDSL's parser with
  the ``builtin`` and ``arith`` dialects the tiny program is written in (the floor
  of ``mini-iree-run``, as ``xdsl-opt`` is of ``mini-iree-opt``);

and prints each one's CPU time (user + system, best of ``--repeat``) and
``mini-iree-opt``'s ratio to ``xdsl-opt``. Times are measured, never asserted.
``--importtime TOOL`` prints, instead, the slowest modules of ``python -X
importtime`` for one tool (``opt`` or ``run``).

The package's modules are compiled to bytecode first, as an install leaves
xDSL's: a process that may not write bytecode (``PYTHONDONTWRITEBYTECODE``, set
on some machines) would otherwise compile every mini-iree module from source on
every run, about 0.04 s more for ``mini-iree-opt``.
"""

from __future__ import annotations

import argparse
import compileall
import os
import re
import resource
import subprocess
import sys
import tempfile
from pathlib import Path

from machine import cpu_name  # benchmarks/ is on sys.path when a benchmark runs

TINY = """func.func @add(%a: tensor<4xf32>, %b: tensor<4xf32>) -> tensor<4xf32> {
  %r = arith.addf %a, %b : tensor<4xf32>
  return %r : tensor<4xf32>
}
"""

EMPTY = "builtin.module {\n}\n"


def cpu_time(command: list[str]) -> float:
    """CPU seconds (user + system) the command's process used; fails if it fails."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    proc = subprocess.run(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if proc.returncode != 0:
        sys.exit(f"{' '.join(command)} failed ({proc.returncode}):\n{proc.stderr[-2000:]}")
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def commands(tmp: Path) -> dict[str, list[str]]:
    """Each measured command; the tools run through this Python, as their console scripts do."""
    empty, tiny = tmp / "empty.mlir", tmp / "tiny.mlir"
    empty.write_text(EMPTY)
    tiny.write_text(TINY)
    python = sys.executable
    return {
        "python -c pass": [python, "-c", "pass"],
        "import numpy, xDSL's parser, arith": [python, "-c", "import numpy, xdsl.parser, xdsl.dialects.arith"],
        "xdsl-opt (empty module)": [python, "-c", "from xdsl.tools.xdsl_opt import main; main()", str(empty)],
        "mini-iree-opt (empty module)": [
            python, "-c", "import sys; from mini_iree.compiler.tools.opt_main import main; sys.exit(main())", str(empty)
        ],
        "mini-iree-run (tiny program)": [
            python, "-c", "import sys; from mini_iree.compiler.tools.run_main import main; sys.exit(main())",
            str(tiny), "--input=4xf32=1", "--input=4xf32=2",
        ],
    }


def cache_bytecode() -> None:
    """Compile the package's modules to bytecode (tests and benchmarks aside), where imports find it."""
    import mini_iree

    root = Path(mini_iree.__file__).resolve().parent
    compileall.compile_dir(root, quiet=1, rx=re.compile(r"[/\\](test|benchmarks|\.git)[/\\]"))


def importtime(command: list[str], top: int) -> None:
    """The ``top`` modules with the largest self time under ``python -X importtime``."""
    proc = subprocess.run(
        [command[0], "-X", "importtime", *command[1:]], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True
    )
    rows = []
    for line in proc.stderr.splitlines():
        if not line.startswith("import time:") or "self [us]" in line:
            continue
        own, cumulative, name = line[len("import time:") :].split("|")
        rows.append((int(own), int(cumulative), name.strip()))
    total = sum(own for own, _, _ in rows)
    print(f"{len(rows)} modules imported, {total / 1e3:.0f} ms in all (self times)")
    print(f"{'self ms':>8} {'cumul. ms':>9}  module")
    for own, cumulative, name in sorted(rows, reverse=True)[:top]:
        print(f"{own / 1e3:8.1f} {cumulative / 1e3:9.1f}  {name}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeat", type=int, default=10, help="best of this many runs per command")
    parser.add_argument("--importtime", choices=("opt", "run", "xdsl-opt"), help="show one tool's slowest imports")
    parser.add_argument("--top", type=int, default=25, help="modules shown by --importtime")
    args = parser.parse_args(argv)
    cache_bytecode()
    with tempfile.TemporaryDirectory() as tmp:
        cmds = commands(Path(tmp))
        if args.importtime:
            key = {"opt": "mini-iree-opt", "run": "mini-iree-run", "xdsl-opt": "xdsl-opt"}[args.importtime]
            importtime(next(c for name, c in cmds.items() if name.startswith(key)), args.top)
            return 0
        best = {name: float("inf") for name in cmds}
        for _ in range(max(1, args.repeat)):
            for name, command in cmds.items():
                best[name] = min(best[name], cpu_time(command))
    print(f"CPU seconds (user + system), best of {args.repeat}; {cpu_name()}, {os.cpu_count()} CPUs")
    for name, seconds in best.items():
        print(f"{name:<36} {seconds:6.3f} s")
    ratio = best["mini-iree-opt (empty module)"] / best["xdsl-opt (empty module)"]
    print(f"mini-iree-opt / xdsl-opt: {ratio:.2f}x")
    return 0


if __name__ == "__main__":
    sys.exit(main())
