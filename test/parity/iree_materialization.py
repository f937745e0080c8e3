"""What IREE 3.13 decides when it materializes data-tiled matmuls for gfx942, and the same read off mini-iree.

`facts(text)` reads, from IR printed after `iree-stream-specialize-encodings` and
`iree-codegen-materialize-device-encoding`, the layouts chosen (`encoding_info`),
the `inner_tiled` kinds and the `linalg.pack`/`linalg.unpack` tiles. The programs
in `Inputs/iree_gfx942/` were compiled with IREE 3.13 (`iree-base-compiler==3.13.0`) and
their facts recorded in `Inputs/iree_gfx942/expected.json`; `test_parity_iree_gfx942.py`
compares mini-iree's `data-tiling{target=gfx942 era=3.13}` with them.

Record again (needs `iree-compile` 3.13 on PATH or `--iree-compile`):

    python test/parity/iree_materialization.py --record [--iree-compile PATH]
"""

from __future__ import annotations

import argparse
import json
import re
import subprocess
from pathlib import Path

HERE = Path(__file__).resolve().parent
PROGRAMS = HERE / "Inputs" / "iree_gfx942"
EXPECTED = PROGRAMS / "expected.json"
PRINTED_PASSES = ("iree-stream-specialize-encodings", "iree-codegen-materialize-device-encoding")
_TILING = r"(?:outer_dims_perm = (\[[^\]]*\]) )?inner_dims_pos = (\[[^\]]*\]) inner_tiles = (\[[^\]]*\])"


def facts(text: str) -> dict[str, list]:
    """The materialization decisions printed in ``text``, each kind sorted and without repeats."""
    return {
        "encoding_info": sorted(set(re.findall(r"encoding_info = \{[^}]*\}", text))),
        "inner_tiled_kinds": sorted(set(re.findall(r"kind = (#iree_gpu\.[a-z_]+<[^>]*>)", text))),
        "packs": sorted({"|".join(m) for m in re.findall(r"linalg\.pack [^\n]*?" + _TILING, text)}),
        "unpacks": sorted({"|".join(m) for m in re.findall(r"linalg\.unpack [^\n]*?" + _TILING, text)}),
    }


def record(iree_compile: str) -> None:
    expected = {}
    for program in sorted(PROGRAMS.glob("*.mlir")):
        flags = [f"--mlir-print-ir-after={name}" for name in PRINTED_PASSES]
        result = subprocess.run(
            [iree_compile, str(program), "--iree-hal-target-device=hip", "--iree-rocm-target=gfx942",
             "--iree-dispatch-creation-data-tiling", "--compile-to=executable-targets", "-o", "/dev/null",
             "--mlir-disable-threading", *flags],
            capture_output=True, text=True, check=True,
        )
        expected[program.name] = facts(result.stderr)
    EXPECTED.write_text(json.dumps(expected, indent=1, sort_keys=True) + "\n")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--record", action="store_true", required=True)
    parser.add_argument("--iree-compile", default="iree-compile")
    record(parser.parse_args().iree_compile)
