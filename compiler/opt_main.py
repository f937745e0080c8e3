"""``mini-iree-opt``: mlir-opt / iree-opt conventions on top of xDSL's opt driver.

    mini-iree-opt input.mlir -p 'iree-dispatch-creation-set-encoding' -o out.mlir
    mini-iree-opt input.mlir --pass-pipeline='builtin.module(util.func(cse))'
    mini-iree-opt invalid.mlir --split-input-file --verify-diagnostics
    mini-iree-opt input.mlir -p '...' --verify-each-with-interpreter --interpreter-dynamic-size=37

Dialects and passes are registered lazily (see ``mini_iree.dialects`` and
``mini_iree.passes``), so ``--help`` starts about as fast as ``xdsl-opt``; numpy is
never imported here, except by ``--verify-each-with-interpreter``, which runs the
public functions on seeded random inputs after every pass and stops at the first
pass that changes their results. Every problem with the input or the command
line prints ``FILE:LINE:COL: error: MESSAGE`` on stderr and exits with status 1.
"""

from __future__ import annotations

import argparse
import os
import re
import sys
import tempfile
from collections.abc import Sequence
from dataclasses import dataclass, field

from xdsl.dialects.builtin import ModuleOp
from xdsl.passes import ModulePass
from xdsl.utils.exceptions import DiagnosticException
from xdsl.xdsl_opt_main import xDSLOptMain

from mini_iree import __version__
from mini_iree.compiler.diagnostics import Diagnostic, DiagnosticError, OpError, SourceLoc, op_location
from mini_iree.compiler.parsing import parse_mlir
from mini_iree.compiler.pipeline import CMDLINE, build_passes, parse_pipeline_text
from mini_iree.compiler.verifier import verify_op_tree

# MLIR splits on a line holding only the marker; IREE's `// -----// IR Dump ...`
# headers are not split points.
_SPLIT_MARKER = re.compile(rb"^// -----[ \t]*\r?$", re.MULTILINE)


@dataclass
class Chunk:
    data: bytes
    line_offset: int


@dataclass
class ChunkResult:
    output: str | None = None
    diagnostics: list[Diagnostic] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)


def split_input(data: bytes, split: bool) -> list[Chunk]:
    if not split:
        return [Chunk(data, 0)]
    chunks: list[Chunk] = []
    start, line = 0, 0
    for m in _SPLIT_MARKER.finditer(data):
        piece = data[start : m.start()]
        chunks.append(Chunk(piece, line))
        line += piece.count(b"\n")
        start = m.end()
    chunks.append(Chunk(data[start:], line))
    return chunks


class MiniIREEOptMain(xDSLOptMain):
    version_format = f"mini-iree-opt {__version__} (xDSL {{xdsl_version}})"

    passes: list[ModulePass]
    cmdline_error: DiagnosticError | None

    def __init__(self, args: Sequence[str] | None = None):
        super().__init__(description="mini-iree's modular optimizer driver (mlir-opt conventions)", args=args)

    # -- registration ------------------------------------------------------

    def register_all_dialects(self):
        from mini_iree.dialects import get_all_dialects

        for name, factory in get_all_dialects().items():
            self.ctx.register_dialect(name, factory)

    def register_all_passes(self):
        from mini_iree.passes import get_all_passes

        for name, factory in get_all_passes().items():
            self.register_pass(name, factory)

    def register_all_targets(self):
        # Output is always MLIR text; keep xDSL's other targets out of start-up.
        self.available_targets["mlir"] = lambda: None  # type: ignore[assignment]

    def register_all_arguments(self, arg_parser: argparse.ArgumentParser):
        super().register_all_arguments(arg_parser)
        arg_parser.add_argument(
            "--pass-pipeline",
            default=None,
            help="MLIR textual pass pipeline, e.g. 'builtin.module(func.func(cse))'",
        )
        arg_parser.add_argument(
            "--mlir-print-op-generic",
            action="store_true",
            help="print operations in the generic form",
        )
        arg_parser.add_argument(
            "--mlir-print-local-scope",
            action="store_true",
            help="print every attribute inline instead of through #aliases",
        )
        arg_parser.add_argument(
            "--mlir-print-ir-after-all",
            action="store_true",
            help="print the IR after every pass to stderr",
        )
        arg_parser.add_argument(
            "--verify-each-with-interpreter",
            action="store_true",
            help="run the public functions on seeded random inputs before the pipeline and after every pass, "
            "and fail on the first pass that changes their results",
        )
        arg_parser.add_argument(
            "--interpreter-dynamic-size",
            type=int,
            default=None,
            metavar="N",
            help="with --verify-each-with-interpreter: the size of every dynamic dimension (default: random, 1-16)",
        )
        arg_parser.add_argument(
            "--interpreter-seed",
            type=int,
            default=0,
            metavar="S",
            help="with --verify-each-with-interpreter: the seed of the random inputs (default 0)",
        )
        arg_parser.add_argument(
            "--mlir-print-ir-tree-dir",
            default=None,
            metavar="DIR",
            help="write the IR after every pass to DIR/builtin_module_no-symbol-name/N_pass.mlir",
        )

    # -- pipeline ----------------------------------------------------------

    def setup_pipeline(self):
        from mini_iree.passes import get_all_pipelines

        self.passes = []
        self.cmdline_error = None
        try:
            if self.args.passes and self.args.pass_pipeline:
                raise DiagnosticError(
                    Diagnostic(SourceLoc(CMDLINE, 1, 1), "'-p' and '--pass-pipeline' cannot be used together")
                )
            refs = []
            if self.args.passes:
                refs = parse_pipeline_text(self.args.passes, mlir_syntax=False)
            elif self.args.pass_pipeline:
                refs = parse_pipeline_text(self.args.pass_pipeline, mlir_syntax=True)
            self.passes = build_passes(refs, self.available_passes, get_all_pipelines())
        except DiagnosticError as err:
            self.cmdline_error = err

    # -- running -----------------------------------------------------------

    def input_name(self) -> str:
        name = self.args.input_file
        return "-" if name is None else name

    def read_input(self) -> bytes:
        if self.args.input_file is None or self.args.input_file == "-":
            return sys.stdin.buffer.read()
        try:
            with open(self.args.input_file, "rb") as f:
                return f.read()
        except OSError as err:
            raise DiagnosticError(
                Diagnostic(SourceLoc(CMDLINE, 1, 1), f"could not open input file '{self.args.input_file}': {err.strerror}")
            ) from None

    def print_module(self, module: ModuleOp) -> str:
        from mini_iree.compiler.printer import print_module_to_string

        return print_module_to_string(
            module,
            generic=self.args.mlir_print_op_generic or self.args.print_op_generic,
            local_scope=self.args.mlir_print_local_scope,
        )

    def dump_after(self, index: int, pass_: ModulePass, module: ModuleOp) -> None:
        spec = str(pass_.pipeline_pass_spec())
        header = f"// -----// IR Dump After {type(pass_).__name__}: {spec} //----- //\n"
        text = self.print_module(module)
        if self.args.mlir_print_ir_after_all:
            sys.stderr.write(header + text)
        if self.args.mlir_print_ir_tree_dir:
            folder = os.path.join(self.args.mlir_print_ir_tree_dir, "builtin_module_no-symbol-name")
            os.makedirs(folder, exist_ok=True)
            with open(os.path.join(folder, f"{index}_{pass_.name}.mlir"), "w") as f:
                f.write(header + text)

    def process(self, chunk: Chunk) -> str:
        """Parse, verify, transform and print one chunk; DiagnosticError on failure."""
        name = self.input_name()
        module = parse_mlir(self.ctx, chunk.data, name, chunk.line_offset)
        start = SourceLoc(name, chunk.line_offset + 1, 1)
        verify = not self.args.disable_verify
        if verify:
            verify_op_tree(module, start)
        checker = self.make_result_checker(module, start)
        for index, pass_ in enumerate(self.passes):
            try:
                pass_.apply(self.ctx, module)
            except OpError as err:
                raise DiagnosticError(Diagnostic(op_location(err.op, start), err.text)) from None
            except DiagnosticException as err:
                message = str(err).strip().splitlines()[0] if str(err).strip() else type(err).__name__
                raise DiagnosticError(Diagnostic(op_location(module, start), message)) from None
            if verify:
                verify_op_tree(module, start)
            if self.args.mlir_print_ir_after_all or self.args.mlir_print_ir_tree_dir:
                self.dump_after(index, pass_, module)
            if checker is not None:
                self.check_results(checker, module, pass_, start)
        return self.print_module(module)

    # -- --verify-each-with-interpreter -------------------------------------

    def make_result_checker(self, module: ModuleOp, start: SourceLoc):
        """The reference results of the public functions, when checking is asked for.

        The interpreter (and numpy) is imported only here, so that mini-iree-opt
        starts fast without the flag.
        """
        if not self.args.verify_each_with_interpreter:
            return None
        from mini_iree.compiler.interpreter.verify_each import ResultChecker, ResultsChanged

        try:
            return ResultChecker(module, self.args.interpreter_seed, self.args.interpreter_dynamic_size)
        except ResultsChanged as err:
            raise DiagnosticError(Diagnostic(op_location(err.op, start), err.message)) from None

    def check_results(self, checker, module: ModuleOp, pass_: ModulePass, start: SourceLoc) -> None:
        from mini_iree.compiler.interpreter.verify_each import ResultsChanged

        try:
            checker.check(module, pass_.name)
        except ResultsChanged as err:
            raise DiagnosticError(Diagnostic(op_location(err.op, start), err.message)) from None

    def run_chunk(self, chunk: Chunk) -> ChunkResult:
        from mini_iree.compiler.verify_diagnostics import check, parse_expectations

        result = ChunkResult()
        try:
            result.output = self.process(chunk)
        except DiagnosticError as err:
            result.diagnostics = err.diagnostics
        except Exception as err:  # noqa: BLE001 - a crash must still end in one diagnostic
            if os.environ.get("MINI_IREE_TRACEBACK"):
                raise
            loc = SourceLoc(self.input_name(), chunk.line_offset + 1, 1)
            text = str(err).strip().splitlines()[0] if str(err).strip() else ""
            result.diagnostics = [
                Diagnostic(loc, f"internal error: {type(err).__name__}: {text} (set MINI_IREE_TRACEBACK=1 for details)")
            ]
        if self.args.verify_diagnostics:
            text = chunk.data.decode("utf-8", errors="replace")
            expectations = parse_expectations(text, self.input_name(), chunk.line_offset)
            result.problems = check(expectations, result.diagnostics)
        else:
            result.problems = [str(d) for d in result.diagnostics]
        return result

    def run(self) -> int:  # type: ignore[override]
        if self.cmdline_error is not None:
            for diag in self.cmdline_error.diagnostics:
                sys.stderr.write(f"{diag}\n")
            return 1
        try:
            data = self.read_input()
        except DiagnosticError as err:
            sys.stderr.write(f"{err.diagnostics[0]}\n")
            return 1

        outputs: list[str] = []
        failed = False
        for chunk in split_input(data, self.args.split_input_file):
            result = self.run_chunk(chunk)
            for line in result.problems:
                sys.stderr.write(line + "\n")
            failed |= bool(result.problems)
            if result.output is not None:
                outputs.append(result.output)
        text = "// -----\n".join(outputs)

        if self.args.output_file is None:
            sys.stdout.write(text)
            sys.stdout.flush()
        elif not failed:
            write_atomically(self.args.output_file, text)
        return 1 if failed else 0


def write_atomically(path: str, text: str) -> None:
    """Write through a temporary file so a failure never leaves half an output."""
    folder = os.path.dirname(os.path.abspath(path))
    fd, tmp = tempfile.mkstemp(dir=folder, prefix=".mini-iree-opt-", suffix=".tmp")
    try:
        with os.fdopen(fd, "w") as f:
            f.write(text)
        os.replace(tmp, path)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise


def main(argv: Sequence[str] | None = None) -> int:
    try:
        return MiniIREEOptMain(args=argv).run()
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        return 1


if __name__ == "__main__":
    sys.exit(main())
