"""Pass pipelines from the command line, in xDSL's and MLIR's textual syntax.

    -p 'pass-a{opt-1=4 opt-2=true},pass-b'                        (xDSL)
    --pass-pipeline='builtin.module(pass-a, util.func(pass-b))'   (MLIR)

mini-iree's passes are module passes, so an anchor such as ``func.func(...)`` or
``util.func(...)`` runs its passes on the whole module: for passes that act on
each function independently, the result is the same as MLIR's nesting. Named
pipelines (``passes.get_all_pipelines()``) expand in place, with the same syntax.
Every mistake is a ``DiagnosticError`` at ``<cmdline>:1:COL``.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from xdsl.passes import ModulePass
from xdsl.utils.arg_spec import ArgSpec, parse_spec
from xdsl.utils.exceptions import ArgSpecParseError

from mini_iree.compiler.ir.diagnostics import Diagnostic, DiagnosticError, SourceLoc

CMDLINE = "<cmdline>"


@dataclass
class PassRef:
    """One pass named in a pipeline, with its raw options and where it was written."""

    name: str
    options: str | None
    col: int


def _error(col: int, message: str) -> DiagnosticError:
    return DiagnosticError(Diagnostic(SourceLoc(CMDLINE, 1, col), message))


class _PipelineParser:
    def __init__(self, text: str, base_col: int):
        self.text = text
        self.pos = 0
        self.base_col = base_col

    def col(self) -> int:
        return self.base_col + self.pos

    def skip_ws(self) -> None:
        while self.pos < len(self.text) and self.text[self.pos].isspace():
            self.pos += 1

    def peek(self) -> str:
        self.skip_ws()
        return self.text[self.pos] if self.pos < len(self.text) else ""

    def name(self) -> str:
        self.skip_ws()
        start = self.pos
        while self.pos < len(self.text) and (self.text[self.pos].isalnum() or self.text[self.pos] in "_-."):
            self.pos += 1
        if start == self.pos:
            found = repr(self.text[self.pos]) if self.pos < len(self.text) else "end of pipeline"
            raise _error(self.col(), f"expected a pass or op name, found {found}")
        return self.text[start : self.pos]

    def options(self) -> str:
        """The text between balanced braces (quotes may hold braces)."""
        assert self.text[self.pos] == "{"
        start_col = self.col()
        depth, quote = 0, ""
        start = self.pos
        while self.pos < len(self.text):
            ch = self.text[self.pos]
            self.pos += 1
            if quote:
                quote = "" if ch == quote else quote
            elif ch in "\"'":
                quote = ch
            elif ch == "{":
                depth += 1
            elif ch == "}":
                depth -= 1
                if depth == 0:
                    return self.text[start + 1 : self.pos - 1]
        raise _error(start_col, "unbalanced '{' in pass options")

    def elements(self, anchored: bool) -> list[tuple[str, PassRef | list]]:
        """elements ::= element (',' element)* ; element ::= name ('{' opts '}' | '(' elements ')')?"""
        out: list[tuple[str, PassRef | list]] = []
        if self.peek() in ("", ")"):
            return out
        while True:
            col = self.col() + (len(self.text[self.pos :]) - len(self.text[self.pos :].lstrip()))
            name = self.name()
            nxt = self.peek()
            if nxt == "(":
                self.pos += 1
                inner = self.elements(anchored=True)
                if self.peek() != ")":
                    raise _error(self.col(), f"expected ')' to close '{name}('")
                self.pos += 1
                out.append((name, inner))
            else:
                opts = self.options() if nxt == "{" else None
                out.append(("", PassRef(name, opts, col)))
            if self.peek() != ",":
                return out
            self.pos += 1


def _flatten(elements: list) -> list[PassRef]:
    refs: list[PassRef] = []
    for anchor, item in elements:
        if anchor:
            refs.extend(_flatten(item))
        else:
            refs.append(item)
    return refs


def parse_pipeline_text(text: str, *, mlir_syntax: bool, base_col: int = 1) -> list[PassRef]:
    """The passes a pipeline string names, in order (anchors flattened)."""
    parser = _PipelineParser(text, base_col)
    elements = parser.elements(anchored=False)
    if parser.peek():
        raise _error(parser.col(), f"unexpected '{parser.peek()}' in pass pipeline")
    if mlir_syntax and elements and not all(anchor for anchor, _ in elements):
        first = next(item for anchor, item in elements if not anchor)
        raise _error(
            first.col,
            "expected pass pipeline to be wrapped with the anchor operation type, e.g. 'builtin.module(...)'",
        )
    return _flatten(elements)


# Characters xDSL's option lexer takes in an unquoted value (lists are comma-separated).
_PLAIN_VALUE = re.compile(r"[A-Za-z0-9_.,+\-]*")


def split_options(text: str) -> list[tuple[str, str]]:
    """``key=value`` pairs of an options string, split on blanks outside quotes (values keep their quotes)."""
    pairs: list[tuple[str, str]] = []
    for chunk in re.findall(r"(?:[^\s\"']|\"[^\"]*\"|'[^']*')+", text):
        key, sep, value = chunk.partition("=")
        pairs.append((key, value if sep else ""))
    return pairs


def _quote_values(options: str) -> str:
    """Options with values such as ``x86_64:+avx,+avx2`` quoted, so that target
    names can be written as people type them (MLIR's option parser takes them
    unquoted too)."""
    out = []
    for key, value in split_options(options):
        needs_quotes = value and value[0] not in "\"'" and not _PLAIN_VALUE.fullmatch(value)
        out.append(f'{key}="{value}"' if needs_quotes else (f"{key}={value}" if value else key))
    return " ".join(out)


def _with_bare_booleans(options: str, cls: type[ModulePass]) -> str:
    """MLIR's `{flag}` for a boolean option is `{flag=true}`."""
    bools = {name.replace("_", "-") for name, f in cls.__dataclass_fields__.items() if f.type in (bool, "bool")}
    return " ".join(
        f"{key}=true" if not value and key in bools else (f"{key}={value}" if value else key)
        for key, value in split_options(options)
    )


def _instantiate(ref: PassRef, cls: type[ModulePass]) -> ModulePass:
    options = None if ref.options is None else _with_bare_booleans(ref.options, cls)
    spec_text = ref.name if options is None else f"{ref.name}{{{_quote_values(options)}}}"
    try:
        spec: ArgSpec = parse_spec(spec_text)
    except (Exception, ArgSpecParseError) as err:  # noqa: BLE001 - xDSL's is a BaseException
        reason = str(err).strip().splitlines()[-1].strip()
        raise _error(ref.col, f"invalid options for pass '{ref.name}': {reason}") from None
    known = {f.replace("_", "-") for f in cls.__dataclass_fields__ if f != "name"}
    for option in spec.parameters:
        if option.replace("_", "-") not in known:
            choices = ", ".join(sorted(known)) or "none"
            raise _error(ref.col, f"no such option '{option}' for pass '{ref.name}' (options: {choices})")
    try:
        return cls.from_pass_spec(spec)
    except Exception as err:  # noqa: BLE001 - bad values surface as ValueError/TypeError
        raise _error(ref.col, f"invalid options for pass '{ref.name}': {err}") from None


def build_passes(
    refs: list[PassRef],
    available: dict[str, Callable[[], type[ModulePass]]],
    pipelines: Mapping[str, Any],
    _depth: int = 0,
) -> list[ModulePass]:
    """Instantiate the passes of a parsed pipeline, expanding named pipelines.

    A named pipeline is its text, or an object whose ``expand(options)`` gives
    the text for the options written after its name (``passes.Pipeline``).
    """
    passes: list[ModulePass] = []
    for ref in refs:
        if ref.name in pipelines:
            if _depth > 16:
                raise _error(ref.col, f"pipeline '{ref.name}' expands into itself")
            pipeline = pipelines[ref.name]
            if isinstance(pipeline, str):
                if ref.options:
                    raise _error(ref.col, f"pipeline '{ref.name}' takes no options")
                text = pipeline
            else:
                values = {key: value.strip("\"'") for key, value in split_options(ref.options or "")}
                try:
                    text = pipeline.expand(values)
                except ValueError as err:
                    raise _error(ref.col, f"invalid options for pipeline '{ref.name}': {err}") from None
            inner = parse_pipeline_text(text, mlir_syntax=False, base_col=ref.col)
            for inner_ref in inner:
                inner_ref.col = ref.col
            passes.extend(build_passes(inner, available, pipelines, _depth + 1))
            continue
        if ref.name not in available:
            raise _error(ref.col, f"'{ref.name}' does not refer to a registered pass or pass pipeline")
        passes.append(_instantiate(ref, available[ref.name]()))
    return passes


def expanded_pass_names(name: str, pipelines: Mapping[str, Any], _depth: int = 0) -> list[str]:
    """The passes a named pipeline runs with its default options, nested pipelines expanded."""
    pipeline = pipelines.get(name)
    if pipeline is None or _depth > 16:
        return [name]
    text = pipeline if isinstance(pipeline, str) else pipeline.expand({})
    names: list[str] = []
    for ref in parse_pipeline_text(text, mlir_syntax=False):
        names.extend(expanded_pass_names(ref.name, pipelines, _depth + 1))
    return names


def _option_value(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (tuple, list)):
        return ",".join(_option_value(v) for v in value)
    text = str(value)
    # Quoted when it holds what the pipeline syntax reads as structure, so that the text parses back.
    return text if _PLAIN_VALUE.fullmatch(text) and text else f'"{text}"'


def textual_pipeline(passes: list[ModulePass], *, pretty: bool = False) -> str:
    """The passes as MLIR prints a pass manager: `builtin.module(a{opt=value ...},b)`, every option with its value.

    Options are sorted by name, as MLIR prints them; the text parses back (``--pass-pipeline``) to the same passes.
    ``pretty``: one pass per line, indented, as MLIR's ``OpPassManager::dump`` prints it.
    """
    import dataclasses

    parts = []
    for pass_ in passes:
        options = []
        for f in sorted(dataclasses.fields(pass_), key=lambda f: f.name.replace("_", "-")):
            if f.name == "name" or not f.init:
                continue
            options.append(f"{f.name.replace('_', '-')}={_option_value(getattr(pass_, f.name))}")
        parts.append(pass_.name + (f"{{{' '.join(options)}}}" if options else ""))
    if pretty:
        return "builtin.module(\n" + ",\n".join(f"  {part}" for part in parts) + "\n)"
    return f"builtin.module({','.join(parts)})"
