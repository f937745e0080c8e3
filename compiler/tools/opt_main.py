"""``mini-iree-opt``: mlir-opt / iree-opt conventions on top of xDSL's opt driver.

    mini-iree-opt input.mlir -p 'iree-dispatch-creation-set-encoding' -o out.mlir
    mini-iree-opt input.mlir --pass-pipeline='builtin.module(util.func(cse))'
    mini-iree-opt --iree-dispatch-creation-set-encoding -split-input-file --canonicalize --cse \\
        --iree-util-hoist-into-globals=max-size-increase-threshold=64 input.mlir
    mini-iree-opt invalid.mlir --split-input-file --verify-diagnostics
    mini-iree-opt input.mlir -p '...' --verify-each-with-interpreter --interpreter-dynamic-size=37

As in iree-opt, every pass and named pipeline is also a flag (options after `=`, in
MLIR's spelling), run in command-line order together with ``-p``; LLVM's single-dash
spelling of long flags (`-split-input-file`, `-pass-pipeline=...`) is accepted.
``--iree-era`` names the IREE era the run follows (``_apply_run_era``).

Dialects and passes are registered lazily (see ``mini_iree.dialects`` and
``mini_iree.passes``), so ``--help`` starts about as fast as ``xdsl-opt``; numpy is
never imported here, except by ``--verify-each-with-interpreter``, which runs the
public functions on seeded random inputs after every pass and stops at the first
pass that changes their results. Every problem with the input or the command
line prints ``FILE:LINE:COL: error: MESSAGE`` on stderr and exits with status 1.
"""

from __future__ import annotations

import argparse
import gc
import os
import re
import sys
import time
from collections.abc import Callable, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.passes import ModulePass
from xdsl.utils.exceptions import DiagnosticException

from mini_iree import __version__
from mini_iree.compiler.tools.cmdline import (
    ArgumentParser,
    CommandLineError,
    llvm_dashes,
    non_negative,
    one_line_warnings,
)
from mini_iree.compiler.ir.diagnostics import (
    CURRENT_OPERATION,
    Diagnostic,
    DiagnosticError,
    OpError,
    SourceLoc,
    op_location,
    render,
)
from mini_iree.compiler.tools.output_file import OutputError, check_writable, write_output
from mini_iree.compiler.ir.parsing import parse_mlir
from mini_iree.compiler.tools.pipeline import (
    CMDLINE,
    PassRef,
    build_passes,
    expanded_pass_names,
    parse_pipeline_text,
    split_options,
    textual_pipeline,
)
from mini_iree.compiler.ir.verifier import ModuleVerifier, verify_op_tree
from mini_iree.passes import ERAS

# MLIR splits on a line holding only the marker; IREE's `// -----// IR Dump ...`
# headers are not split points.
_SPLIT_MARKER = re.compile(rb"^// -----[ \t]*\r?$", re.MULTILINE)


@dataclass
class Chunk:
    data: bytes
    line_offset: int
    # Where MLIR locates the module it wraps a chunk's ops in: 0:0 for the first chunk, and for
    # each later one the place right after its `// -----` marker (line, column), where it starts.
    module_location: tuple[int, int] = (0, 0)


@dataclass
class ChunkResult:
    output: str | None = None
    diagnostics: list[Diagnostic] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)
    # --verify-each-with-interpreter's line per pass, printed only when the chunk succeeds.
    check_summaries: list[str] = field(default_factory=list)
    # --mlir-pass-statistics: (pass name, [(statistic, value, description)]) per pass run.
    statistics: list[tuple[str, list[tuple[str, int, str]]]] = field(default_factory=list)


def split_input(data: bytes, split: bool) -> list[Chunk]:
    if not split:
        return [Chunk(data, 0)]
    chunks: list[Chunk] = []
    start, line = 0, 0
    location = (0, 0)
    for m in _SPLIT_MARKER.finditer(data):
        piece = data[start : m.start()]
        chunks.append(Chunk(piece, line, location))
        line += piece.count(b"\n")
        start = m.end()
        location = (line + 1, len(b"// -----") + 1)
    chunks.append(Chunk(data[start:], line, location))
    return chunks


class MiniIREEOptMain:
    """The driver: xDSL's ``xDSLOptMain`` steps (register dialects and passes,
    parse the flags, build the pipeline, run it on each input chunk), without
    its base class, whose module (xDSL's targets, frontends, plugin universe
    and package metadata) costs start-up time and provides nothing used here
    beyond ``register_pass``."""

    version_format = f"mini-iree-opt {__version__} (xDSL {{xdsl_version}})"

    ctx: Context
    args: argparse.Namespace
    available_passes: dict[str, Callable[[], type[ModulePass]]]
    passes: list[ModulePass]
    cmdline_error: DiagnosticError | None
    source_text: str | None = None

    def __init__(self, args: Sequence[str] | None = None):
        # xDSLOptMain.__init__ would add xDSL's own flags (targets, frontends,
        # --print-between-passes, ...), none of which means anything here, and
        # exits with status 2 on a bad flag; the steps are the same otherwise.
        # A bad flag raises CommandLineError.
        self.available_frontends = {}
        self.available_passes = {}
        self.available_targets = {}
        self.ctx = Context()
        self.register_all_dialects()
        self.register_all_passes()
        arg_parser = _OptArgumentParser(
            prog="mini-iree-opt", description="mini-iree's modular optimizer driver (mlir-opt conventions)"
        )
        self.register_all_arguments(arg_parser)
        argv = sys.argv[1:] if args is None else list(args)
        self.args = arg_parser.parse_args(llvm_argv(argv, arg_parser))
        self.ctx.allow_unregistered = self.args.allow_unregistered_dialect
        self.timing = Timing()
        self.check_summaries: list[str] = []
        self.statistics: list = []
        _apply_run_era(self.args.iree_era)
        _apply_cpu_options(self.args)
        _apply_storage_options(self.args)
        self.setup_pipeline()

    # -- registration ------------------------------------------------------

    def register_all_dialects(self):
        from mini_iree.dialects import get_all_dialects

        for name, factory in get_all_dialects().items():
            self.ctx.register_dialect(name, factory)

    def register_pass(self, pass_name: str, pass_factory: Callable[[], type[ModulePass]]) -> None:
        self.available_passes[pass_name] = pass_factory

    def register_all_passes(self):
        from mini_iree.passes import get_all_passes

        for name, factory in get_all_passes().items():
            self.register_pass(name, factory)

    def register_all_arguments(self, arg_parser: argparse.ArgumentParser):
        register_arguments(arg_parser, sorted(self.available_passes), sorted(_pipelines()), self.version_format)
        register_pass_flags(arg_parser, self.available_passes, _pipelines())

    # -- pipeline ----------------------------------------------------------

    def setup_pipeline(self):
        from mini_iree.passes import get_all_pipelines

        self.passes = []
        self.cmdline_error = None
        self.targetless: PassRef | None = None
        try:
            if self.args.passes and self.args.pass_pipeline:
                raise DiagnosticError(
                    Diagnostic(SourceLoc(CMDLINE, 1, 1), "'-p' and '--pass-pipeline' cannot be used together")
                )
            parts = self.args.pipeline_parts or []
            if self.args.pass_pipeline and any(kind == "flag" for kind, _, _ in parts):
                # mlir-opt's words (PassPipelineCLParser::addToPipeline).
                raise DiagnosticError(
                    Diagnostic(
                        SourceLoc(CMDLINE, 1, 1), "'-pass-pipeline' option can't be used with individual pass options"
                    )
                )
            refs = []
            if self.args.pass_pipeline:
                refs = parse_pipeline_text(self.args.pass_pipeline, mlir_syntax=True)
            # `-p` and pass flags, in the order of the command line, as mlir-opt runs its pass flags.
            for kind, name, text in parts:
                if kind == "flag":
                    refs.append(PassRef(name, text or None, 1))
                else:
                    refs.extend(parse_pipeline_text(text, mlir_syntax=False))
            try:
                self.passes = build_passes(refs, self.available_passes, get_all_pipelines())
            except ImportError as err:
                raise DiagnosticError(
                    Diagnostic(SourceLoc(CMDLINE, 1, 1), f"a pass of the pipeline cannot be loaded: {err}")
                ) from None
            self.targetless = _targetless_pipeline(refs, get_all_pipelines())
            for flag in ("before", "after"):
                for name in getattr(self.args, f"mlir_print_ir_{flag}") or []:
                    if name not in self.available_passes:
                        raise DiagnosticError(
                            Diagnostic(
                                SourceLoc(CMDLINE, 1, 1),
                                f"--mlir-print-ir-{flag}: '{name}' does not refer to a registered pass",
                            )
                        )
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
        from mini_iree.compiler.tools.print_options import print_module_text

        generic = self.args.mlir_print_op_generic
        if not self.args.verify_each and not generic:
            # As MLIR's printer: IR that does not verify (a pass's output, unchecked)
            # is printed in the generic form, which does not rely on its invariants.
            try:
                verify_op_tree(module, SourceLoc(CMDLINE, 1, 1))
            except DiagnosticError:
                generic = True
        return print_module_text(
            module,
            generic=generic,
            local_scope=self.args.mlir_print_local_scope,
            debuginfo=self.args.mlir_print_debuginfo,
            elide_elements_larger_than=self.args.mlir_elide_elementsattrs_if_larger,
        )

    def dump(self, when: str, pass_: ModulePass, text: str) -> None:
        spec = str(pass_.pipeline_pass_spec())
        sys.stderr.write(f"// -----// IR Dump {when} {type(pass_).__name__}: {spec} //----- //\n{text}\n")

    def write_tree_dump(self, index: int, pass_: ModulePass, text: str) -> None:
        spec = str(pass_.pipeline_pass_spec())
        header = f"// -----// IR Dump After {type(pass_).__name__}: {spec} //----- //\n"
        folder = os.path.join(self.args.mlir_print_ir_tree_dir, "builtin_module_no-symbol-name")
        try:
            os.makedirs(folder, exist_ok=True)
            with open(os.path.join(folder, f"{index}_{pass_.name}.mlir"), "w") as f:
                f.write(header + text)
        except OSError as err:
            raise DiagnosticError(
                Diagnostic(SourceLoc(CMDLINE, 1, 1), f"cannot write to --mlir-print-ir-tree-dir '{folder}': {err.strerror}")
            ) from None

    def _prints(self, names: list[str] | None, pass_: ModulePass) -> bool:
        return bool(names) and pass_.name in names  # type: ignore[operator]

    def process(self, chunk: Chunk) -> str:
        """Parse, verify, transform and print one chunk; DiagnosticError on failure."""
        args = self.args
        name = self.input_name()
        with self.timing.phase("Parser"):
            module = parse_mlir(self.ctx, chunk.data, name, chunk.line_offset, module_location=chunk.module_location)
        start = SourceLoc(name, chunk.line_offset + 1, 1)
        # The input is always verified, as by MLIR's parser; --verify-each=false
        # only skips the verifier after each pass. After a pass, only what it
        # changed is verified again (ModuleVerifier).
        verifier = ModuleVerifier()
        with self.timing.phase("Verifier"):
            verifier.verify(module, start)
        self.check_devices(module)
        if args.dump_pass_pipeline:
            sys.stderr.write(pipeline_dump(self.passes))
        checker = self.make_result_checker(module, start)
        for index, pass_ in enumerate(self.passes):
            before = None
            if args.mlir_print_ir_before_all or self._prints(args.mlir_print_ir_before, pass_):
                before = self.print_module(module)
                self.dump("Before", pass_, before)
            if args.mlir_print_ir_after_change and before is None:
                before = self.print_module(module)
            ops_before = {id(op): op for op in module.walk()} if args.mlir_pass_statistics else None
            with self.timing.phase(type(pass_).__name__, index):
                try:
                    pass_.apply(self.ctx, module)
                except OpError as err:
                    raise DiagnosticError(*err.diagnostics(start)) from None
                except DiagnosticException as err:
                    message = str(err).strip().splitlines()[0] if str(err).strip() else type(err).__name__
                    raise DiagnosticError(Diagnostic(op_location(module, start), message)) from None
            if ops_before is not None:
                self.statistics.append(op_statistics(pass_, ops_before, module))
            if args.verify_each:
                with self.timing.phase("Verifier"):
                    verifier.verify(module, start)
            after = None
            if args.mlir_print_ir_after_all or self._prints(args.mlir_print_ir_after, pass_):
                after = self.print_module(module)
                self.dump("After", pass_, after)
            elif args.mlir_print_ir_after_change:
                after = self.print_module(module)
                if after != before:
                    self.dump("After", pass_, after)
            if args.mlir_print_ir_tree_dir:
                self.write_tree_dump(index, pass_, after if after is not None else self.print_module(module))
            if checker is not None:
                with self.timing.phase("Interpreter"):
                    self.check_results(checker, module, pass_, start)
        with self.timing.phase("Output"):
            return self.print_module(module)

    def check_devices(self, module: ModuleOp) -> None:
        """A pipeline that lays out encodings per device, given no target, on a program that names no device.

        Without a device there is no encoding resolver, the encodings stay
        unserialized and the stream passes fail far from the cause; say what is
        missing instead, at the pipeline's name.
        """
        ref = self.targetless
        if ref is None or _declares_devices(module):
            return
        from mini_iree.compiler.resolvers.targets import ACCEPTED_FORMS

        raise DiagnosticError(
            Diagnostic(
                SourceLoc(CMDLINE, 1, ref.col),
                f"pipeline '{ref.name}' needs a target: the input declares no device (no 'hal.device.targets', "
                f"no !hal.device global); give one, e.g. '{ref.name}{{target=gfx942}}' or "
                f"'{ref.name}{{target=x86_64:+avx,+avx2,+fma}}' ({ACCEPTED_FORMS}; see --list-passes)",
            )
        )

    # -- --verify-each-with-interpreter -------------------------------------

    def make_result_checker(self, module: ModuleOp, start: SourceLoc):
        """The reference results of the public functions, when checking is asked for.

        The interpreter (and numpy) is imported only here, so that mini-iree-opt
        starts fast without the flag.
        """
        if not self.args.verify_each_with_interpreter:
            return None
        from mini_iree.compiler.interpreter.verify_each import InputsTooLarge, ResultChecker, ResultsChanged

        try:
            return ResultChecker(module, self.args.interpreter_seed, self.args.interpreter_dynamic_size)
        except InputsTooLarge as err:
            raise DiagnosticError(Diagnostic(SourceLoc(CMDLINE, 1, 1), err.message)) from None
        except ResultsChanged as err:
            raise DiagnosticError(Diagnostic(op_location(err.op, start), err.message)) from None

    def check_results(self, checker, module: ModuleOp, pass_: ModulePass, start: SourceLoc) -> None:
        from mini_iree.compiler.interpreter.verify_each import ResultsChanged

        try:
            summary = checker.check(module, pass_.name)
        except ResultsChanged as err:
            raise DiagnosticError(Diagnostic(op_location(err.op, start), err.message)) from None
        self.check_summaries.append(summary)

    def run_chunk(self, chunk: Chunk) -> ChunkResult:
        result = ChunkResult()
        self.check_summaries = result.check_summaries
        self.statistics = result.statistics
        try:
            result.output = self.process(chunk)
        except DiagnosticError as err:
            result.diagnostics = err.diagnostics
            # As mlir-opt: the op an error is about is shown unless asked not to, or
            # when diagnostics are checked against expectations.
            if self.args.verify_diagnostics or not self.args.mlir_print_op_on_diagnostic:
                result.diagnostics = [d for d in err.diagnostics if not d.message.startswith(CURRENT_OPERATION)]
        except Exception as err:  # noqa: BLE001 - a crash must still end in one diagnostic
            if os.environ.get("MINI_IREE_TRACEBACK"):
                raise
            loc = SourceLoc(self.input_name(), chunk.line_offset + 1, 1)
            text = str(err).strip().splitlines()[0] if str(err).strip() else ""
            result.diagnostics = [
                Diagnostic(loc, f"internal error: {type(err).__name__}: {text} (set MINI_IREE_TRACEBACK=1 for details)")
            ]
        if self.args.verify_diagnostics:
            from mini_iree.compiler.tools.verify_diagnostics import check, parse_expectations

            text = chunk.data.decode("utf-8", errors="replace")
            expectations = parse_expectations(text, self.input_name(), chunk.line_offset)
            result.problems = check(expectations, result.diagnostics)
        else:
            source = self.source_text
            result.problems = [render(d, source, self.input_name()) for d in result.diagnostics]
        return result

    def run(self) -> int:  # type: ignore[override]
        if self.args.list_passes:
            sys.stdout.write(list_passes(self.available_passes, _pipelines()))
            return 0
        if self.cmdline_error is not None:
            for diag in self.cmdline_error.diagnostics:
                sys.stderr.write(f"{diag}\n")
            return 1
        # A process-wide option, as in IREE: set it, or clear what an earlier run in this process set.
        if self.args.iree_gpu_test_target is not None or "mini_iree.compiler.resolvers.gpu" in sys.modules:
            from mini_iree.compiler.resolvers.gpu import set_test_target

            set_test_target(self.args.iree_gpu_test_target)
        output = self.args.output_file
        try:
            if output is not None:
                check_writable(output)
            data = self.read_input()
        except OutputError as err:
            sys.stderr.write(f"error: {err}\n")
            return 1
        except DiagnosticError as err:
            sys.stderr.write(f"{err.diagnostics[0]}\n")
            return 1

        outputs: list[str] = []
        failed = False
        # Diagnostics show the source line they point at (lines of the whole file).
        self.source_text = data.decode("utf-8", errors="replace")
        for chunk in split_input(data, self.args.split_input_file):
            result = self.run_chunk(chunk)
            succeeded = not result.problems and result.output is not None
            for line in result.check_summaries if succeeded else result.problems:
                sys.stderr.write(line + "\n")
            if self.args.mlir_pass_statistics:
                # As MLIR, one report per pass manager run, i.e. per input chunk.
                sys.stderr.write(statistics_report(result.statistics))
            failed |= bool(result.problems)
            if result.output is not None:
                outputs.append(result.output)
        text = "// -----\n".join(outputs)
        if self.args.mlir_timing:
            sys.stderr.write(self.timing.report())

        if output is None or output == "-":
            sys.stdout.write(text)
            sys.stdout.flush()
        elif not failed:
            # A failed run leaves the output file as it was.
            try:
                write_output(output, text)
            except OutputError as err:
                sys.stderr.write(f"error: {err}\n")
                return 1
        return 1 if failed else 0


# A pipeline with these passes needs each dispatch's device: its encoding resolver lays out the encodings.
_DEVICE_PASSES = frozenset({"iree-stream-specialize-encodings"})


def _targetless_pipeline(refs: list[PassRef], pipelines: dict) -> PassRef | None:
    """The first named pipeline written without its `target` option although its passes need a device,
    when nothing before it in the pipeline assigns devices either."""
    for ref in refs:
        if ref.name == "iree-hal-assign-target-devices":
            return None
        pipeline = pipelines.get(ref.name)
        if pipeline is None or "target" not in {name for name, _, _ in getattr(pipeline, "options", ())}:
            continue
        if dict(split_options(ref.options or "")).get("target", "").strip("\"'"):
            return None
        if _DEVICE_PASSES & set(expanded_pass_names(ref.name, pipelines)):
            return ref
    return None


def _declares_devices(module: ModuleOp) -> bool:
    """Whether a module names its devices: `hal.device.targets`, or a `!hal.device` global."""
    from mini_iree.dialects import hal, util

    if "hal.device.targets" in module.attributes:
        return True
    return any(isinstance(op, util.GlobalOp) and isinstance(op.type, hal.DeviceType) for op in module.ops)


def pipeline_dump(passes: list[ModulePass]) -> str:
    """`--dump-pass-pipeline`: what mlir-opt prints (`OpPassManager::dump`, then a blank line), on stderr."""
    return f"Pass Manager with {len(passes)} passes:\n{textual_pipeline(passes, pretty=True)}\n\n"


def op_statistics(pass_: ModulePass, before: dict[int, object], module: ModuleOp) -> tuple[str, list]:
    """How many ops a pass created and erased: ops (by identity) found after it and not before, and the reverse.

    `before` holds the ops themselves, so that no id is reused by a new op while
    it is compared. A moved op is neither; a rebuilt one counts as both.
    """
    after = {id(op) for op in module.walk()}
    created = len(after - before.keys())
    erased = len(before.keys() - after)
    return type(pass_).__name__, [
        ("num-ops-created", created, "Number of operations created"),
        ("num-ops-erased", erased, "Number of operations erased"),
    ]


def statistics_report(entries: list[tuple[str, list[tuple[str, int, str]]]]) -> str:
    """MLIR's `-mlir-pass-statistics` report (pipeline display): each pass, then its `(S)` lines."""
    rule = "===" + "-" * 73 + "===\n"
    title = "... Pass statistics report ..."
    out = [rule, " " * ((80 - len(title)) // 2) + title + "\n", rule]
    for name, stats in entries:
        out.append(f"{name}\n")
        stats = sorted(stats)
        name_width = max((len(stat) for stat, _, _ in stats), default=0)
        value_width = max((len(str(value)) for _, value, _ in stats), default=0)
        for stat, value, description in stats:
            out.append(f"  (S) {value:>{value_width}} {stat:<{name_width}} - {description}\n")
    return "".join(out)


def _pipelines() -> dict:
    from mini_iree.passes import get_all_pipelines

    return get_all_pipelines()


def _bool_value(text: str) -> bool:
    """An LLVM boolean option value (`--verify-each=false`)."""
    value = text.lower()
    if value in ("true", "1", ""):
        return True
    if value in ("false", "0"):
        return False
    raise argparse.ArgumentTypeError(f"'{text}' is invalid value for boolean argument; try 0 or 1")


def _pass_list(text: str) -> list[str]:
    return [name.strip() for name in text.split(",") if name.strip()]


def register_arguments(parser: argparse.ArgumentParser, passes: list[str], pipelines: list[str], version_format: str):
    """mini-iree-opt's flags: mlir-opt's spelling wherever mlir-opt has the flag."""
    parser.add_argument("input_file", nargs="?", metavar="FILE", help="the input .mlir file ('-' or none: stdin)")
    parser.add_argument("-o", "--output-file", metavar="FILE", help="the output file ('-': stdout, the default)")
    parser.add_argument(
        "-p",
        "--passes",
        action=_PassesAction,
        default="",
        metavar="PIPELINE",
        help="passes to run, comma-separated, options in braces ('cse,iree-util-hoist-into-globals{...}'). "
        f"Passes: {', '.join(passes)}. Pipelines: {', '.join(pipelines) or 'none'}. See --list-passes.",
    )
    parser.add_argument(
        "--pass-pipeline",
        default=None,
        metavar="PIPELINE",
        help="MLIR textual pass pipeline, e.g. 'builtin.module(func.func(cse))'",
    )
    parser.add_argument(
        "--list-passes", action="store_true", help="list every pass and pass pipeline with its summary and options"
    )
    parser.add_argument(
        "--split-input-file", action="store_true", help="split the input at '// -----' lines and process each piece"
    )
    parser.add_argument(
        "--verify-diagnostics",
        action="store_true",
        help="check the diagnostics against the input's expected-error/warning/note comments",
    )
    parser.add_argument(
        "--allow-unregistered-dialect", action="store_true", help="allow operations of unregistered dialects"
    )
    parser.add_argument(
        "--verify-each",
        type=_bool_value,
        nargs="?",
        const=True,
        default=True,
        metavar="BOOL",
        help="verify the input and the IR after each pass (default true; --verify-each=false to skip)",
    )
    parser.add_argument("--mlir-print-op-generic", action="store_true", help="print operations in the generic form")
    parser.add_argument(
        "--mlir-print-local-scope", action="store_true", help="print every attribute inline instead of through #aliases"
    )
    parser.add_argument(
        "--mlir-print-debuginfo", action="store_true", help="print each operation's location (loc(...))"
    )
    parser.add_argument(
        "--mlir-print-op-on-diagnostic",
        type=_bool_value,
        nargs="?",
        const=True,
        default=True,
        metavar="BOOL",
        help="add a note showing the operation an error is about (default true; off with --verify-diagnostics)",
    )
    parser.add_argument(
        "--mlir-elide-elementsattrs-if-larger",
        type=non_negative,
        default=None,
        metavar="N",
        help="print elements attributes with more than N elements as dense_resource<__elided__>",
    )
    parser.add_argument(
        "--mlir-print-ir-before-all", action="store_true", help="print the IR before every pass to stderr"
    )
    parser.add_argument(
        "--mlir-print-ir-after-all", action="store_true", help="print the IR after every pass to stderr"
    )
    parser.add_argument(
        "--mlir-print-ir-before",
        type=_pass_list,
        # Repeated flags add up, as MLIR's cl::list options do.
        action="extend",
        default=None,
        metavar="PASS[,PASS...]",
        help="print the IR before each run of these passes to stderr",
    )
    parser.add_argument(
        "--mlir-print-ir-after",
        type=_pass_list,
        # Repeated flags add up, as MLIR's cl::list options do.
        action="extend",
        default=None,
        metavar="PASS[,PASS...]",
        help="print the IR after each run of these passes to stderr",
    )
    parser.add_argument(
        "--mlir-print-ir-after-change",
        action="store_true",
        help="print the IR after a pass only when the pass changed it",
    )
    parser.add_argument(
        "--mlir-print-ir-tree-dir",
        default=None,
        metavar="DIR",
        help="write the IR after every pass to DIR/builtin_module_no-symbol-name/N_pass.mlir",
    )
    parser.add_argument(
        "--mlir-timing", action="store_true", help="print the wall time of parsing, each pass and output to stderr"
    )
    parser.add_argument(
        "--mlir-pass-statistics",
        action="store_true",
        help="print, after the passes, how many operations each pass created and erased (MLIR's statistics "
        "report, on stderr)",
    )
    parser.add_argument(
        "--dump-pass-pipeline",
        action="store_true",
        help="print the pipeline to run, named pipelines expanded and every option given, as "
        "'builtin.module(...)' on stderr",
    )
    parser.add_argument(
        "--mlir-disable-threading",
        action="store_true",
        help="accepted for mlir-opt's sake: mini-iree-opt runs every pass on one thread, so there is nothing to disable",
    )
    parser.add_argument(
        "--verify-each-with-interpreter",
        action="store_true",
        help="run the public functions on seeded random inputs before the pipeline and after every pass, "
        "print one line per pass that kept their results, and fail on the first pass that changed them",
    )
    parser.add_argument(
        "--interpreter-dynamic-size",
        type=non_negative,
        default=None,
        metavar="N",
        help="with --verify-each-with-interpreter: the size of every dynamic dimension (default: random, 1-16; "
        "refused when a function's random inputs would take more than 1 GiB)",
    )
    parser.add_argument(
        "--interpreter-seed",
        type=non_negative,
        default=0,
        metavar="S",
        help="with --verify-each-with-interpreter: the seed of the random inputs, 0 or more (default 0)",
    )
    parser.add_argument(
        "--iree-gpu-test-target",
        type=_gpu_test_target,
        default=None,
        metavar="ARCH",
        help="the GPU (gfx908, gfx90a, gfx942, gfx950, gfx1100) that passes' test options compile for when the IR names no target",
    )
    parser.add_argument(
        "--iree-era",
        choices=ERAS,
        default="walkthrough",
        metavar="ERA",
        help="whose IREE the run follows: 'walkthrough' (September 2025, the default) or '3.13'",
    )
    parser.add_argument(
        "--iree-llvmcpu-enable-scalable-vectorization",
        type=_bool_value,
        nargs="?",
        const=True,
        default=False,
        metavar="BOOL",
        help="give AArch64 +sve/+sve2 and RISC-V +v targets scalable (vscale) N tiles (compiler/cpu_options.py)",
    )
    parser.add_argument(
        "--iree-experimental-vscale-value",
        type=int,
        default=-1,
        metavar="N",
        help="the vscale host code sizes scalable layouts with, and the interpreter runs vector.vscale as "
        "(default: unset; the interpreter then takes 1)",
    )
    parser.add_argument(
        "--iree-experimental-packed-i1-storage",
        action="store_true",
        help="store every i1 tensor packed eight to a byte, as if it had #iree_encoding.packed_storage "
        "(IREE's flag of September 2025, gone by 3.13)",
    )
    parser.add_argument("--version", action=VersionAction, version_format=version_format)


def _apply_cpu_options(args: argparse.Namespace) -> None:
    """The run's LLVMCPU options (IREE's global `cl::opt`s), set on every run like the era."""
    from mini_iree.compiler.cpu_options import set_scalable_vectorization, set_vscale_value

    set_scalable_vectorization(args.iree_llvmcpu_enable_scalable_vectorization)
    set_vscale_value(args.iree_experimental_vscale_value)


def _apply_storage_options(args: argparse.Namespace) -> None:
    """`--iree-experimental-packed-i1-storage`, set on every run like the era (the storage
    module is imported only when the flag is given or something has already loaded it)."""
    if args.iree_experimental_packed_i1_storage or "mini_iree.compiler.layout.storage" in sys.modules:
        from mini_iree.compiler.layout.storage import set_packed_i1_storage

        set_packed_i1_storage(args.iree_experimental_packed_i1_storage)


def _apply_run_era(name: str) -> None:
    """Make the run follow one of IREE's eras (`--iree-era`): 'walkthrough' or '3.13'.

    Called before the pipeline is built, on every run (the default era included), so
    that a run in the same process never keeps an earlier run's era: passes and
    pipelines not given an era of their own follow this one (`compiler/era.py`).
    """
    if name not in ERAS:
        raise CommandLineError(f"unknown era '{name}' for --iree-era (known: {', '.join(ERAS)})")
    from mini_iree.compiler.era import set_run_era

    set_run_era(name)


class _PassesAction(argparse.Action):
    """`-p PIPELINE`: stored as `passes`, and placed among the pass flags where it was written.

    Given twice, the last one counts.
    """

    def __call__(self, parser, namespace, values, option_string=None) -> None:
        setattr(namespace, self.dest, values)
        parts = [part for part in (getattr(namespace, "pipeline_parts", None) or []) if part[0] != "p"]
        parts.append(("p", "", values))
        namespace.pipeline_parts = parts


class _PassFlagAction(argparse.Action):
    """A pass or named pipeline given as a flag, as mlir-opt / iree-opt take them:
    `--cse`, `--iree-util-hoist-into-globals=max-size-increase-threshold=64`,
    `--iree-dispatch-creation-set-encoding="encoding-option=padding"` (the options in
    MLIR's spelling, blank-separated). Each occurrence runs, in command-line order.

    As in LLVM, the options follow an `=`: `--cse in.mlir` does not take `in.mlir`
    (``llvm_argv`` writes a bare flag `--cse=`, so that argparse never looks further).
    """

    equals_metavar = "'OPTION=VALUE ...'"

    def __init__(self, option_strings, dest, pass_name: str = "", describe: Callable[[], str] | None = None, **kwargs):
        kwargs["default"] = None
        super().__init__(option_strings, dest, nargs="?", const="", **kwargs)
        self.pass_name = pass_name
        self.describe = describe

    def __call__(self, parser, namespace, values, option_string=None) -> None:
        parts = list(getattr(namespace, "pipeline_parts", None) or [])
        parts.append(("flag", self.pass_name, (values or "").strip()))
        namespace.pipeline_parts = parts


class _OptArgumentParser(ArgumentParser):
    """mini-iree-opt's parser: the pass flags' summaries are read (their modules imported) only for `--help`."""

    def format_help(self) -> str:
        for action in self._actions:
            if isinstance(action, _PassFlagAction) and action.help is None and action.describe is not None:
                action.help = action.describe().replace("%", "%%")
        # The usage line names the other flags and stands for the pass flags with one entry.
        usage, self.usage = self.usage, self._usage_line()
        try:
            return super().format_help()
        finally:
            self.usage = usage

    def format_usage(self) -> str:
        return f"usage: {self._usage_line()}\n"

    def _usage_line(self) -> str:
        others = [action for action in self._actions if not isinstance(action, _PassFlagAction)]
        formatter = super()._get_formatter()
        formatter.add_usage(None, others, self._mutually_exclusive_groups, prefix="")
        return formatter.format_help().strip() + " [--PASS[=OPTIONS] ...]"


def register_pass_flags(parser: argparse.ArgumentParser, passes: dict, pipelines: dict) -> None:
    """Every registered pass and named pipeline as a flag of its own (mlir-opt's "Compiler passes to run")."""
    group = parser.add_argument_group(
        "Compiler passes to run",
        "every pass and pass pipeline of --list-passes is also a flag, run in command-line order together with "
        "-p: --NAME, or --NAME='OPTION=VALUE ...' (the options --list-passes shows); not with --pass-pipeline",
    )
    for name in sorted(passes):
        group.add_argument(f"--{name}", action=_PassFlagAction, dest="pipeline_parts", pass_name=name,
                           describe=lambda name=name: _pass_summary(name, passes[name]))  # fmt: skip
    for name in sorted(pipelines):
        if name in passes:
            continue
        group.add_argument(f"--{name}", action=_PassFlagAction, dest="pipeline_parts", pass_name=name,
                           describe=lambda name=name: "pipeline: " + _summary(_pipeline_summary(pipelines[name])))  # fmt: skip


def llvm_argv(args: Sequence[str], parser: argparse.ArgumentParser) -> list[str]:
    """The command line as argparse must see it to read it as LLVM does: `-flag` is `--flag`, and a pass flag
    without options is written `--pass=` (its options can only follow an `=`)."""
    pass_flags = {s for action in parser._actions if isinstance(action, _PassFlagAction) for s in action.option_strings}
    out = []
    after_dashes = False
    for token in llvm_dashes(args, parser):
        after_dashes = after_dashes or token == "--"
        out.append(f"{token}=" if not after_dashes and token in pass_flags else token)
    return out


def _pass_summary(name: str, loader: Callable) -> str:
    try:
        cls = loader()
    except ImportError as err:
        return f"(cannot be loaded: {err})"
    return _UPSTREAM_SUMMARIES.get(name) or _summary(cls.__doc__)


def _pipeline_summary(pipeline) -> str:
    return getattr(pipeline, "summary", None) or str(pipeline)


class VersionAction(argparse.Action):
    """``--version``: print ``version_format`` with xDSL's version, then exit (as xDSL's)."""

    def __init__(self, *args, version_format: str, **kwargs):
        super().__init__(*args, nargs=0, **kwargs)
        self.version_format = version_format

    def __call__(self, parser, namespace, values, option_string=None) -> None:
        from importlib.metadata import version

        print(self.version_format.format(xdsl_version=version("xdsl")))
        parser.exit()


def _gpu_test_target(text: str) -> str:
    from mini_iree.compiler.resolvers.gpu import KNOWN_ROCM_ARCHS

    if text not in KNOWN_ROCM_ARCHS:
        raise argparse.ArgumentTypeError(f"unknown GPU '{text}' (known: {', '.join(KNOWN_ROCM_ARCHS)})")
    return text


def list_passes(available: dict, pipelines: dict) -> str:
    """`--list-passes`: every pass and pipeline, a one-line summary, its options."""
    lines = ["Passes:"]
    for name in sorted(available):
        try:
            cls = available[name]()
        except ImportError as err:  # a registered pass whose module is broken must not hide the others
            lines.append(f"  {name} - (cannot be loaded: {err})")
            continue
        lines.append(f"  {name} - {_UPSTREAM_SUMMARIES.get(name) or _summary(cls.__doc__)}")
        fields = getattr(cls, "__dataclass_fields__", {})
        for field_name, f in fields.items():
            if field_name == "name" or not f.init:
                continue
            lines.append(f"    {field_name.replace('_', '-')}={_option_type(f.type)} (default: {_option_default(f)})")
    lines.append("Pass pipelines:")
    for name in sorted(pipelines):
        pipeline = pipelines[name]
        summary = getattr(pipeline, "summary", None) or str(pipeline)
        lines.append(f"  {name} - {_summary(summary)}")
        for option in getattr(pipeline, "options", ()):
            option_name, default, help_text = option
            lines.append(f"    {option_name}=<string> (default: '{default}') {help_text}")
    lines.extend(_target_lines())
    return "\n".join(lines) + "\n"


def _target_lines() -> list[str]:
    """The spellings of a target, from the resolvers' own list (one form per line)."""
    from mini_iree.compiler.resolvers.targets import ACCEPTED_FORMS

    forms = ACCEPTED_FORMS.removeprefix("accepted targets:").strip().split("; ")
    return [
        "Targets (the pipelines' target= option and iree-hal-assign-target-devices' targetDevices; "
        "several separated by commas, e.g. 'vmvx,x86_64:+avx512f'):",
        *(f"  {form}" for form in forms),
    ]


# xDSL's passes carry no docstring; these are MLIR's summaries of the same passes.
_UPSTREAM_SUMMARIES = {
    "cse": "Eliminate common sub-expressions",
    "dce": "Remove operations that have no uses and no side effects",
}


def _summary(doc: str | None) -> str:
    text = (doc or "").strip()
    return " ".join(text.split("\n\n", 1)[0].split()) if text else "(no description)"


def _option_type(annotation) -> str:
    text = annotation if isinstance(annotation, str) else getattr(annotation, "__name__", str(annotation))
    return f"<{text.replace(' ', '')}>"


def _option_default(f) -> str:
    import dataclasses

    if f.default is not dataclasses.MISSING:
        value = f.default
    elif f.default_factory is not dataclasses.MISSING:
        value = f.default_factory()
    else:
        return "required"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (tuple, list)):
        return ",".join(str(v) for v in value)
    return str(value)


class Timing:
    """--mlir-timing: wall time per phase, printed as MLIR's execution time report."""

    def __init__(self):
        self.start = time.perf_counter()
        self.phases: dict[tuple[int, str], float] = {}

    @contextmanager
    def phase(self, name: str, index: int = -1):
        # Parser first, then the passes in pipeline order, then output; across
        # --split-input-file chunks the times add up.
        key = {"Parser": (-3, name), "Verifier": (-2, name), "Output": (1 << 30, name)}.get(name, (index, name))
        if name == "Interpreter":
            key = ((1 << 30) - 1, name)
        begin = time.perf_counter()
        try:
            yield
        finally:
            self.phases[key] = self.phases.get(key, 0.0) + time.perf_counter() - begin
            _collect_if_grown()

    def report(self) -> str:
        total = max(time.perf_counter() - self.start, 1e-9)
        rule = "===" + "-" * 73 + "===\n"
        out = [rule, " " * 25 + "... Execution time report ...\n", rule]
        out.append(f"  Total Execution Time: {total:.4f} seconds\n\n")
        out.append("  ----Wall Time----  ----Name----\n")
        measured = 0.0
        for (_, name), seconds in sorted(self.phases.items()):
            measured += seconds
            out.append(f"  {seconds:8.4f} ({100 * seconds / total:5.1f}%)  {name}\n")
        rest = max(total - measured, 0.0)
        out.append(f"  {rest:8.4f} ({100 * rest / total:5.1f}%)  Rest\n")
        out.append(f"  {total:8.4f} (100.0%)  Total\n")
        return "".join(out)


# Container objects allocated (net of those freed) since the last collection
# beyond which the young generations are collected between two phases.
_YOUNG_OBJECTS_LIMIT = 1_000_000


@contextmanager
def _fewer_collections():
    """Leave the cyclic garbage collector out of the processing of IR.

    The IR is a large graph of long-lived objects, and passes allocate many
    short-lived ones, nearly all freed by reference counting: with automatic
    collections (even at thresholds of 100,000) the collector walks millions of
    objects for a few thousand cycles, about a tenth of the run on a
    400-matmul program. Cycles (erased ops and their blocks) are collected
    between phases instead, once the objects allocated since the last
    collection pass ``_YOUNG_OBJECTS_LIMIT`` (see ``_collect_if_grown``).
    """
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


def _collect_if_grown() -> None:
    """Collect the young generations if many objects were allocated since the last collection."""
    if not gc.isenabled() and gc.get_count()[0] > _YOUNG_OBJECTS_LIMIT:
        gc.collect(1)


def main(argv: Sequence[str] | None = None) -> int:
    try:
        with _fewer_collections(), one_line_warnings():
            return MiniIREEOptMain(args=argv).run()
    except CommandLineError as err:
        sys.stderr.write(f"error: {err}\n")
        return 1
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        return 1


if __name__ == "__main__":
    sys.exit(main())
