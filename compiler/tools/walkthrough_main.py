"""``mini-iree-walkthrough``: a pass-by-pass HTML page of a pipeline running on a program.

    mini-iree-walkthrough examples/matmul.mlir -o matmul.html
    mini-iree-walkthrough prog.mlir --pipeline 'data-tiling{target=x86_64:+avx512f}' -o prog.html
    mini-iree-walkthrough examples/*.mlir --output-dir walkthrough/
    mini-iree-walkthrough examples/matmul.mlir --compare 'data-tiling{target=gfx942}' \
        'data-tiling{target=x86_64:+avx512f}' -o compare.html
    mini-iree-walkthrough examples/matmul.mlir --compare 'data-tiling{target=gfx942}' \
        'data-tiling{target=gfx942 era=3.13}' -o eras.html
    mini-iree-walkthrough --check-excerpts examples/README.md

The pipeline is ``--pipeline``, else the program's ``// walkthrough-pipeline: ...``
line, else ``data-tiling{target=gfx942}``. The page holds the pass list, the IR
after each pass with its diff, a picture of every encoding's layout, the
interpreter's check after each pass and the final program's results and timing.
``--compare A B`` puts two pipelines on one page, their passes aligned row by
row. Problems print ``FILE:LINE:COL: error: ...`` (with the source line and a
caret under the column, as mini-iree-opt prints them) and exit 1; a pass that
fails still gives a page up to the failure (and exit status 1).
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence

from mini_iree.compiler.tools.cmdline import (
    ArgumentParser,
    CommandLineError,
    non_negative,
    one_line_warnings,
    report_internal_error,
)


def build_parser() -> argparse.ArgumentParser:
    parser = ArgumentParser(
        prog="mini-iree-walkthrough", description="a pass-by-pass HTML page of a pipeline running on a program"
    )
    parser.add_argument("programs", nargs="*", metavar="PROGRAM.mlir", help="the programs to walk through")
    parser.add_argument(
        "-p",
        "--pipeline",
        default=None,
        help="passes in mini-iree-opt -p syntax (default: the program's '// walkthrough-pipeline:' line, "
        "else data-tiling{target=gfx942})",
    )
    parser.add_argument(
        "--compare",
        nargs=2,
        metavar=("PIPELINE_A", "PIPELINE_B"),
        help="one page with both pipelines side by side, their passes aligned: two targets, or one target in two "
        "eras ('data-tiling{target=gfx942}' 'data-tiling{target=gfx942 era=3.13}')",
    )
    parser.add_argument("-o", "--output", metavar="OUT.html", help="the page to write (one program)")
    parser.add_argument(
        "--output-dir", metavar="DIR", help="write DIR/<program>.html for every program (several programs)"
    )
    parser.add_argument(
        "--seed", type=non_negative, default=0, help="seed of the interpreter's random inputs, 0 or more (default 0)"
    )
    parser.add_argument(
        "--dynamic-size",
        type=non_negative,
        default=None,
        metavar="N",
        help="size of every dynamic dim (default: random 1-16; refused when a function's random inputs would "
        "take more than 1 GiB)",
    )
    parser.add_argument(
        "--timing-size",
        type=non_negative,
        default=256,
        metavar="N",
        help="size of every dynamic dim when timing the final program against numpy (default 256)",
    )
    parser.add_argument("--no-check", action="store_true", help="do not run the interpreter after each pass")
    parser.add_argument(
        "--check-excerpts", metavar="FILE.md", help="check the IR excerpts of a Markdown file against the tool's output"
    )
    parser.add_argument(
        "--update-excerpts", metavar="FILE.md", help="regenerate the IR excerpts of a Markdown file in place"
    )
    return parser


def _source_of(program: str) -> str | None:
    """The program's text, for the source line under a diagnostic; None when it cannot be read as UTF-8."""
    try:
        with open(program, encoding="utf-8") as f:
            return f.read()
    except (OSError, UnicodeDecodeError):
        return None


def _walk(program: str, pipeline: str | None, args: argparse.Namespace):
    """The walkthrough of ``program``, or None after printing why there is none."""
    from mini_iree.compiler.ir.diagnostics import DiagnosticError, render
    from mini_iree.compiler.walkthrough.stages import run_walkthrough

    try:
        return run_walkthrough(
            program,
            pipeline,
            check=not args.no_check,
            seed=args.seed,
            dynamic_size=args.dynamic_size,
            timing_size=args.timing_size,
        )
    except DiagnosticError as err:
        sys.stderr.write(f"{render(err.diagnostics[0], _source_of(program), program)}\n")
    except OSError as err:
        sys.stderr.write(f"error: could not open input file '{program}': {err.strerror}\n")
    return None


def write_page(program: str, output: str, args: argparse.Namespace) -> int:
    from mini_iree.compiler.tools.output_file import OutputError, check_writable, write_output
    from mini_iree.compiler.walkthrough.failure import rendered_error
    from mini_iree.compiler.walkthrough.page import render_page

    try:
        check_writable(output)
    except OutputError as err:
        sys.stderr.write(f"error: {err}\n")
        return 1
    if args.compare:
        from mini_iree.compiler.walkthrough.compare import render_compare_page

        walks = [_walk(program, pipeline, args) for pipeline in args.compare]
        if None in walks:
            return 1
        text = render_compare_page(*walks)
    else:
        walk = _walk(program, args.pipeline, args)
        if walk is None:
            return 1
        walks = [walk]
        text = render_page(walk)
    try:
        write_output(output, text)
    except OutputError as err:
        sys.stderr.write(f"error: {err}\n")
        return 1
    failed = [w for w in walks if w.error]
    for walk in failed:
        sys.stderr.write(f"{rendered_error(walk)}\n")
    return 1 if failed else 0


def run_excerpts(args: argparse.Namespace) -> int:
    from mini_iree.compiler.ir.diagnostics import DiagnosticError
    from mini_iree.compiler.tools.output_file import OutputError, write_output
    from mini_iree.compiler.walkthrough.excerpts import ExcerptError, refresh

    path = args.check_excerpts or args.update_excerpts
    try:
        with open(path, encoding="utf-8") as f:
            text = f.read()
    except OSError as err:
        sys.stderr.write(f"error: could not open input file '{path}': {err.strerror}\n")
        return 1
    except UnicodeDecodeError:
        sys.stderr.write(f"error: '{path}' is not UTF-8 text\n")
        return 1
    try:
        new = refresh(text, os.path.dirname(os.path.abspath(path)))
    except ExcerptError as err:
        sys.stderr.write(f"{path}: error: {err}\n")
        return 1
    except DiagnosticError as err:
        sys.stderr.write(f"{err.diagnostics[0]}\n")
        return 1
    except OSError as err:
        sys.stderr.write(f"error: {path}: could not open '{err.filename}': {err.strerror}\n")
        return 1
    if args.update_excerpts:
        if new != text:
            try:
                write_output(path, new)
            except OutputError as err:
                sys.stderr.write(f"error: {err}\n")
                return 1
        return 0
    if new != text:
        import difflib

        sys.stderr.write(f"error: the excerpts of {path} differ from the tool's output:\n")
        diff = difflib.unified_diff(text.splitlines(True), new.splitlines(True), path, "regenerated")
        sys.stderr.writelines(diff)
        return 1
    return 0


def run(args: argparse.Namespace) -> int:
    if args.check_excerpts or args.update_excerpts:
        return run_excerpts(args)
    if not args.programs:
        raise CommandLineError("expected at least one PROGRAM.mlir")
    if args.compare and args.pipeline:
        raise CommandLineError("--compare names both pipelines; it takes no --pipeline")
    if args.output_dir:
        os.makedirs(args.output_dir, exist_ok=True)
        status = 0
        for program in args.programs:
            name = os.path.splitext(os.path.basename(program))[0] + ".html"
            status |= write_page(program, os.path.join(args.output_dir, name), args)
        return status
    if len(args.programs) != 1:
        raise CommandLineError("several programs need --output-dir")
    output = args.output or os.path.splitext(os.path.basename(args.programs[0]))[0] + ".html"
    return write_page(args.programs[0], output, args)


def main(argv: Sequence[str] | None = None) -> int:
    try:
        with one_line_warnings():
            return run(build_parser().parse_args(argv))
    except CommandLineError as err:
        sys.stderr.write(f"error: {err}\n")
        return 1
    except KeyboardInterrupt:
        return 130
    except MemoryError:
        sys.stderr.write("error: the walkthrough needs more memory than there is\n")
        return 1
    except Exception as err:  # noqa: BLE001 - a crash still ends in one line
        return report_internal_error(err)


if __name__ == "__main__":
    sys.exit(main())
