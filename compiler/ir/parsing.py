"""Parse MLIR text into a module, with source locations and clean errors.

xDSL's parser keeps no op locations and lets some malformed inputs escape as
Python exceptions. ``parse_mlir`` fixes both: every parsed op gets a
``FileLineColLoc`` (so verifier errors point at the op's own line and column),
and every failure becomes a ``DiagnosticError`` at the offending position.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from math import prod
from typing import NoReturn
from itertools import accumulate

from xdsl.context import Context
from xdsl.dialects.builtin import (
    ArrayAttr,
    BytesAttr,
    DenseIntOrFPElementsAttr,
    FileLineColLoc,
    FusedLoc,
    IntAttr,
    LocationAttr,
    ModuleOp,
    NameLoc,
    NoneAttr,
    StringAttr,
    UnknownLoc,
)
from xdsl.ir import Attribute, BlockArgument, Operation, OpResult
from xdsl.ir.affine import (
    AffineBinaryOpExpr,
    AffineBinaryOpKind,
    AffineConstantExpr,
    AffineExpr,
    AffineMap,
    AffineSymExpr,
)
from xdsl.parser import Parser
from xdsl.parser.affine_parser import AffineParser
from xdsl.utils.exceptions import DiagnosticException, ParseError, VerifyException
from xdsl.utils.lexer import Span, Token
from xdsl.utils.mlir_lexer import MLIRLexer, MLIRToken, MLIRTokenKind

from mini_iree.compiler.ir.dense_elements import dense_elements
from mini_iree.compiler.ir.diagnostics import Diagnostic, DiagnosticError, SourceLoc
from mini_iree.compiler.ir.locations import fused_location
from mini_iree.compiler.ir.xdsl_internals import (
    forget_unbacked_resources,
    patch_string_literal_lexing,
    set_name_hint_unchecked,
)


# xDSL 0.74 lexes string literals with `"(?:[^"...]+|escape)*"`, whose nested
# quantifiers backtrack exponentially on a long unterminated string (a truncated
# `cpu_features = "..."` took minutes). Matching one character per repetition
# accepts exactly the same strings in linear time.
_STRING_LITERAL = re.compile(r'"(?:[^"\\\n\v\f]|\\(?:["nt\\]|[0-9A-Fa-f]{2}))*"')


def _utf8_bytes_as_string(token: Token) -> Token:
    """A string whose escapes spell valid UTF-8 (`"x\\C3\\A9"`, as the printer writes `é`) is a string.

    xDSL makes every literal with a non-ASCII escaped byte a bytes literal, which
    ``parse_str_literal`` then rejects, so printed output did not parse again.
    """
    if token.kind == MLIRTokenKind.BYTES_LIT:
        try:
            token.span.bytes_contents.decode("utf-8")  # type: ignore[attr-defined]
        except UnicodeDecodeError:
            return token
        return type(token)(MLIRTokenKind.STRING_LIT, token.span)
    return token


patch_string_literal_lexing(_STRING_LITERAL, _utf8_bytes_as_string)


# The tokens most of a program is made of, lexed in one match: a bare identifier
# starting with an ASCII letter or `_`, a `%` identifier, a one-character
# punctuation. Each alternative is exactly what MLIRLexer.lex accepts for it
# (`_lex_bare_identifier`, `_lex_prefixed_ident`, its single-character table);
# anything else, and a `%` without a valid suffix, is left to MLIRLexer.lex.
_COMMON_TOKEN = re.compile(
    r"([a-zA-Z_][a-zA-Z0-9_$.]*)|(%(?:[0-9]+|[a-zA-Z$._-][a-zA-Z0-9$._-]*))|([:,()}\[\]<>=+*?|])"
)
_PUNCTUATION = {
    ":": MLIRTokenKind.COLON,
    ",": MLIRTokenKind.COMMA,
    "(": MLIRTokenKind.L_PAREN,
    ")": MLIRTokenKind.R_PAREN,
    "}": MLIRTokenKind.R_BRACE,
    "[": MLIRTokenKind.L_SQUARE,
    "]": MLIRTokenKind.R_SQUARE,
    "<": MLIRTokenKind.LESS,
    ">": MLIRTokenKind.GREATER,
    "=": MLIRTokenKind.EQUAL,
    "+": MLIRTokenKind.PLUS,
    "*": MLIRTokenKind.STAR,
    "?": MLIRTokenKind.QUESTION,
    "|": MLIRTokenKind.VERTICAL_BAR,
}


class _CommonTokenLexer(MLIRLexer):
    """MLIRLexer, with the common tokens lexed by one regular expression match
    instead of a chain of checks and helper calls (lexing was a quarter of
    parsing a large program)."""

    def lex(self):
        content = self.input.content
        start = self._whitespace_regex.match(content, self.pos).end()  # type: ignore[union-attr]
        match = _COMMON_TOKEN.match(content, start)
        if match is None:
            self.pos = start
            return super().lex()
        end = match.end()
        self.pos = end
        if match.lastindex == 1:
            kind = MLIRTokenKind.BARE_IDENT
        elif match.lastindex == 2:
            kind = MLIRTokenKind.PERCENT_IDENT
        else:
            kind = _PUNCTUATION[content[start]]
        return Token(kind, Span(start, end, self.input))


class _LineTable:
    """Offset -> (line, column) in O(log n), shifted by a chunk's line offset."""

    def __init__(self, text: str, line_offset: int):
        # Each line starts one past the end of the previous one (with its newline).
        self.starts = list(accumulate((len(line) + 1 for line in text.split("\n")[:-1]), initial=0))
        self.line_offset = line_offset

    def at(self, offset: int) -> tuple[int, int]:
        line = bisect_right(self.starts, offset) - 1
        return line + 1 + self.line_offset, offset - self.starts[line] + 1


class _DefaultDialectStack(list):
    """MLIR's default-dialect stack in the place of xDSL's dialect stack.

    xDSL pushes the dialect of every op it parses and resolves a bare op name
    against every dialect on the stack, so a ``return`` written directly in a
    ``flow.dispatch.region`` inside a ``func.func`` became a ``func.return``.
    MLIR pushes, for each op parsed in the custom form, the op's own default
    dialect (``OpAsmOpInterface::getDefaultDialect``; none for most ops) and
    resolves a bare name against the innermost entry only. xDSL still calls
    ``append``/``pop`` around each op; ``append`` pushes what the parser
    decided when it looked the op up.
    """

    def __init__(self):
        super().__init__(["builtin"])
        self.next = ""

    def append(self, _dialect_of_the_op: str) -> None:
        super().append(self.next)


_IDENTIFIER_CHARS = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_$.")


def _type_text_end(text: str, start: int) -> int | None:
    """Where the type written at ``start`` ends, if it is spelled ``name`` or
    ``name<...>`` with balanced angle brackets; None if unsure (then the type is
    simply parsed).

    A ``>`` of ``->`` (in an affine map of an encoding) closes nothing. A type
    holding a string is never cached: a string may hold anything.
    """
    i = start + 1 if text.startswith("!", start) else start
    n = len(text)
    while i < n and text[i] in _IDENTIFIER_CHARS:
        i += 1
    if i == start or i >= n or text[i] != "<":
        return i
    depth = 0
    while i < n:
        ch = text[i]
        if ch == "<":
            depth += 1
        elif ch == ">" and text[i - 1] != "-":
            depth -= 1
            if depth == 0:
                return i + 1
        elif ch == '"':
            return None
        i += 1
    return None


def _shape_list(shape: list[int]) -> str:
    return "[" + ", ".join(str(d) for d in shape) + "]"


# xDSL's wording of a parse error -> MLIR's (Parser.cpp, AsmParserImpl.h).
_MESSAGES: list[tuple[re.Pattern[str], str]] = [
    (re.compile(r"Expected '(.+?)'(?: .*)?"), r"expected '\1'"),
    (re.compile(r"'(.+?)' expected"), r"expected '\1'"),
    (re.compile(r"type expected"), "expected non-function type"),
    (re.compile(r"operand expected"), "expected SSA operand"),
    (re.compile(r"Could not parse entire input!"), "expected operation name in quotes"),
    (re.compile(r"SSA value %(\S+) is already defined"), r"redefinition of SSA value '%\1'"),
    (
        re.compile(r"Result %(\S+) is defined with type (.+), but used with type .+"),
        r"definition of SSA value '%\1#0' has type '\2'",
    ),
    (re.compile(r"Operation has 0 results, but was given \d+ to bind\."), "cannot name an operation with no results"),
    (
        re.compile(r"Operation has (\d+) results, but was given (\d+) to bind\."),
        r"operation defines \1 results but was provided \2 to bind",
    ),
    (re.compile(r"undefined symbol alias '[#!](.+)'"), r"undefined symbol alias id '\1'"),
    (re.compile(r"Identifier not in space \S+"), "use of undeclared identifier"),
    (
        re.compile(r"Floating point value is not valid for integer type\."),
        "floating point value not valid for specified type",
    ),
]


def _mlir_message(message: str, text: str, span: Span) -> str:
    """``message`` in MLIR's words, where they differ."""
    used_before = r"operand is used with type (.+), but has been previously used or defined with type (.+)"
    if m := re.fullmatch(used_before, message):
        name = text[span.start : span.end] if span.input.content is text else "%"
        return f"use of value '{name}' expects different type than prior uses: '{m.group(1)}' vs '{m.group(2)}'"
    for pattern, replacement in _MESSAGES:
        if pattern.fullmatch(message):
            return pattern.sub(replacement, message)
    return message


def _is_wrong_token(message: str) -> bool:
    """Whether xDSL's error says which token it expected (MLIR's emitWrongTokenError)."""
    return (
        message.startswith(("Expected ", "expected ", " in block definition"))
        or message.endswith(" expected")
        or message == "Could not parse entire input!"
    )


def _end_of_previous_token(text: str, offset: int) -> int:
    """Where MLIR's emitWrongTokenError reports an unexpected token at ``offset``.

    Back over blanks, blank lines and `//` comments to just past the last thing
    written before the token; the token itself when nothing precedes it.
    """
    if offset >= len(text):
        offset = max(len(text) - 1, 0)  # at the end of the input: one character back
    before = text[:offset]
    while True:
        before = before.rstrip(" \t")
        if not before:
            return offset
        if before[-1] not in "\n\r":
            return len(before)
        before = before[:-1]
        line_start = max(before.rfind("\n"), before.rfind("\r")) + 1
        comment = before.find("//", line_start)
        if comment >= 0:
            before = before[:comment]


def _is_symbolic(expr: AffineExpr) -> bool:
    """Built from symbols and constants only (MLIR's ``AffineExpr::isSymbolicOrConstant``)."""
    if isinstance(expr, AffineSymExpr | AffineConstantExpr):
        return True
    if isinstance(expr, AffineBinaryOpExpr):
        return _is_symbolic(expr.lhs) and _is_symbolic(expr.rhs)
    return False


def _is_semi_affine_product(lhs: AffineExpr, rhs: AffineExpr) -> bool:
    """Neither factor is a constant and both are symbolic: a product xDSL cannot form."""
    if isinstance(lhs, AffineConstantExpr) or isinstance(rhs, AffineConstantExpr):
        return False
    return _is_symbolic(lhs) and _is_symbolic(rhs)


class _SemiAffineParser(AffineParser):
    """xDSL's affine parser with MLIR's semi-affine rules: a product needs one factor built from
    symbols and constants (``s0 * s1``, ``d0 * s0``; not ``d0 * d1``), a division or remainder a
    divisor built from them, each refused with MLIR's words otherwise."""

    def _create_binop_expr(self, lhs: AffineExpr, rhs: AffineExpr, binop: MLIRToken) -> AffineExpr:
        op = binop.text
        if op == "*" and not (_is_symbolic(lhs) or _is_symbolic(rhs)):
            raise ParseError(
                binop.span,
                "non-affine expression: at least one of the multiply operands has to be either a constant or symbolic",
            )
        if op in ("floordiv", "ceildiv", "mod") and not _is_symbolic(rhs):
            raise ParseError(binop.span, f"non-affine expression: right operand of {op} has to be either a constant or symbolic")
        if op == "*" and _is_semi_affine_product(lhs, rhs):
            return AffineBinaryOpExpr(AffineBinaryOpKind.Mul, lhs, rhs)
        return super()._create_binop_expr(lhs, rhs, binop)


class LocatedParser(Parser):
    """An xDSL ``Parser`` that stamps each op with its ``file:line:col``."""

    def parse_affine_map(self) -> AffineMap:
        return _SemiAffineParser(self._parser_state).parse_affine_map()

    def __init__(
        self,
        ctx: Context,
        text: str,
        name: str,
        line_offset: int = 0,
        keep_names: bool = False,
        module_location: tuple[int, int] = (0, 0),
    ):
        super().__init__(ctx, text, name)
        self._keep_names = keep_names
        self._module_location = module_location
        # xDSL's parser makes its own MLIRLexer (and has lexed the first token).
        lexer = _CommonTokenLexer(self._parser_state.lexer.input)
        lexer.pos = self._parser_state.lexer.pos
        self._parser_state.lexer = lexer
        self._text = text
        # Each spelling of a type met so far: a program writes the same few types
        # thousands of times, and a type parsed once need not be lexed again.
        # Types are immutable, so ops may share one object.
        self._types: dict[str, Attribute] = {}
        self._parser_state.dialect_stack = _DefaultDialectStack()
        self._file = name
        self._lines = _LineTable(text, line_offset)
        # Start offsets of the ops being parsed; when something fails inside an
        # op, the innermost one is where the error belongs.
        self.op_starts: list[int] = []
        # Where the name of each op being parsed starts: MLIR locates an op at its name
        # (`%0 = arith.addf ...` at `arith.addf`), not at its results.
        self._name_starts: list[int] = []
        # `loc(#alias)` met before `#alias = loc(...)` is defined (MLIR prints op
        # locations' aliases after the module): placeholder -> where it was used.
        self._forward_locations: dict[NameLoc, int] = {}
        self._whole_location = False
        self._last_top_level_op: Operation | None = None
        self.last_op_name = ""
        self._last_location_end = -1
        # Where each value not yet defined was first used.
        self._first_uses: dict[str, int] = {}
        self._first_used_type: dict[str, Attribute] = {}
        # Blocks whose label has been parsed (ids: forward references make blocks early).
        self._defined_blocks: set[int] = set()
        # Explicit `loc(...)` of block arguments, by the offset of the argument's name.
        self._argument_locations: dict[int, Attribute] = {}
        # The parts of op locations: one file name, and the numbers met so far
        # (attributes are immutable; every op of a line, or at a column, shares them).
        self._file_attr = StringAttr(name)
        self._numbers: dict[int, IntAttr] = {}

    def raise_errors_at(self, pos: int, *messages: str) -> NoReturn:
        """Raise several errors at one place, as MLIR reports a failure with its context.

        Dialect parsers call it when it exists (a struct's parser: `expected valid
        keyword`, then `expected a parameter name in struct`); dialects cannot import
        the diagnostics themselves.
        """
        at = self.loc_of(pos)
        raise DiagnosticError(*(Diagnostic(at, message) for message in messages))

    def loc_of(self, offset: int) -> SourceLoc:
        line, col = self._lines.at(offset)
        return SourceLoc(self._file, line, col)

    def _location_at(self, offset: int) -> FileLineColLoc:
        """``loc_of(offset).to_attr()``, from shared parts."""
        line, col = self._lines.at(offset)
        numbers = self._numbers
        line_attr = numbers.get(line)
        if line_attr is None:
            line_attr = numbers[line] = IntAttr(line)
        col_attr = numbers.get(col)
        if col_attr is None:
            col_attr = numbers[col] = IntAttr(col)
        return FileLineColLoc(self._file_attr, line_attr, col_attr)

    def parse_operation(self) -> Operation:
        start = self._current_token.span.start
        self.op_starts.append(start)
        self._name_starts.append(start)
        op = super().parse_operation()
        self.op_starts.pop()
        if not self.op_starts:
            self._last_top_level_op = op
        name_start = self._name_starts.pop()
        # An op without `loc(...)` gets the position of its name; an explicit
        # `loc(unknown)` (the last thing parsed for the op) stays, so printed
        # locations round-trip.
        explicit = self._last_location_end == self._current_token.span.start
        if isinstance(op.location, UnknownLoc) and not explicit:
            op.location = self._location_at(name_start)
        return op

    def _parse_op_result_list(self):
        results = self._parse_results()
        self._name_starts[-1] = self._current_token.span.start
        return results

    def _parse_results(self):
        # Most ops bind one result, `%name =`: taken here without xDSL's list
        # machinery; anything else (`%a, %b =`, `%a:2 =`) is parsed again by xDSL.
        token = self._current_token
        if token.kind == MLIRTokenKind.PERCENT_IDENT:
            self._consume_token()
            if self._current_token.kind == MLIRTokenKind.EQUAL:
                self._consume_token()
                return [(token.span, 1)]
            self._resume_from(token.span.start)
        return super()._parse_op_result_list()

    def _register_ssa_definition(self, name, values, span) -> None:
        super()._register_ssa_definition(name, values, span)
        # A labelled block's argument without `loc(...)` is located at its name, as in MLIR.
        if self._last_location_end != self._current_token.span.start:
            for value in values:
                if isinstance(value, BlockArgument) and isinstance(value.location, UnknownLoc):
                    value.location = self._location_at(span.start)
        # The names written in the source are not kept, as in MLIR (`%lhs` prints
        # as `%arg0`): the printer never reads them. A caller that wants to find
        # values by their source names (an analysis test) asks to keep them.
        if not self._keep_names:
            for value in values:
                set_name_hint_unchecked(value, None)
        else:
            for value in values:
                if value.name_hint == "":
                    set_name_hint_unchecked(value, None)  # `%_0`: xDSL strips the suffix to nothing

    def parse_optional_argument(self, expect_type: bool = True):
        # MLIR's OpAsmParser::parseArgument takes an optional `loc(...)` after the
        # type (what --mlir-print-debuginfo prints); xDSL's stops at the type.
        arg = super().parse_optional_argument(expect_type)
        if isinstance(arg, Parser.Argument) and arg.location is None:
            location = self.parse_optional_location()
            if location is None:
                location = self._location_at(arg.name.start)  # at its name, as MLIR locates it
            else:
                # xDSL's function parser looks for the `loc(...)` itself after the
                # argument's attributes and resets what it does not find there.
                self._argument_locations[arg.name.start] = location
            arg = Parser.Argument(arg.name, arg.type, location)
        return arg

    def parse_optional_region(self, arguments=None):
        # An entry-block argument written without `loc(...)` is located at its
        # name, as MLIR locates it (function arguments included).
        for arg in arguments or ():
            if arg.location is None:
                start = arg.name.start
                arg.location = self._argument_locations.get(start) or self._location_at(start)
        return super().parse_optional_region(arguments)

    def parse_optional_location(self):
        # Only a whole location (`loc(#alias)`) may name an alias defined later, as in MLIR.
        self._whole_location = True
        location = super().parse_optional_location()
        if location is not None:
            self._last_location_end = self._current_token.span.start
        return location

    def _parse_location(self):
        """One location inside ``loc(...)``, as MLIR's ``parseLocationInstance`` reads it.

        Beyond xDSL's: an alias not defined yet (resolved when the module ends,
        see ``_resolve_forward_locations``), ``fused<metadata>[...]``, and
        ``fused[...]`` built as ``FusedLoc::get`` builds it (one location stands
        alone, nested fused locations are flattened, unknown ones dropped).
        """
        token = self._current_token
        whole, self._whole_location = self._whole_location, False
        if token.kind == MLIRTokenKind.HASH_IDENT and token.text not in self.attribute_aliases:
            if not whole:
                self.raise_error(f"undefined symbol alias id '{token.text[1:]}'", token.span)
            self._consume_token()
            placeholder = NameLoc(StringAttr("\x00" + token.text), NoneAttr())
            self._forward_locations.setdefault(placeholder, token.span.start)
            return placeholder
        if token.kind == MLIRTokenKind.BARE_IDENT and token.text == "fused":
            self._consume_token()
            metadata = NoneAttr()
            if self.parse_optional_punctuation("<") is not None:
                metadata = self.parse_attribute()
                self.parse_punctuation(">")
            locations = self.parse_comma_separated_list(self.Delimiter.SQUARE, self._parse_location)
            if isinstance(metadata, NoneAttr):
                return fused_location(*locations)
            return FusedLoc(ArrayAttr(locations), metadata)
        return super()._parse_location()

    def _resolve_forward_locations(self, module: Operation) -> None:
        """Put each alias's location where it was used before its definition."""
        if not self._forward_locations:
            return
        resolved: dict[Attribute, Attribute] = {}
        for placeholder, offset in self._forward_locations.items():
            definition = self.attribute_aliases.get(placeholder.desc.data[1:])
            if definition is None:
                self.raise_error("operation location alias was never defined", offset)
            if not isinstance(definition, LocationAttr):
                self.raise_error(f"expected location, but `{placeholder.desc.data[1:]}' is not one", offset)
            resolved[placeholder] = definition
        for op in module.walk():
            if op.location in resolved:
                op.location = resolved[op.location]
            for region in op.regions:
                for block in region.blocks:
                    for arg in block.args:
                        if arg.location in resolved:
                            arg.location = resolved[arg.location]

    def resolve_operand(self, operand, type):
        name = operand.operand_name
        if name not in self.ssa_values and name not in self.forward_ssa_references:
            self._first_uses[name] = operand.span.start
            self._first_used_type[name] = type
        return super().resolve_operand(operand, type)

    def parse_dense_int_or_fp_elements_attr(self, type):
        # xDSL's version expands a splat into a list of every element (a
        # 10^8-element splat never finishes) and reports a literal of the wrong
        # shape after the type. Here a splat keeps MLIR's one-element storage
        # (dense_elements.py) and a wrong shape is reported at `dense`, in MLIR's words.
        start = self._current_token.span.start
        if self._text.endswith("dense", 0, start):
            start -= len("dense")
        self.parse_punctuation("<", " in dense attribute")
        contents = None
        if self.parse_optional_punctuation(">") is None:
            if (hex_string := self.parse_optional_str_literal()) is not None:
                contents = hex_string
            else:
                contents = self._parse_tensor_literal()
            self.parse_punctuation(">", " in dense attribute")
        if type is None:
            self.parse_punctuation(":", " in dense attribute")
            type = self._parse_dense_literal_type()
        shape = list(type.get_shape())
        count = prod(shape)
        if contents is None:
            if count != 0:
                self.raise_error("expected at least one element in the dense literal", start)
            return DenseIntOrFPElementsAttr(type, BytesAttr(b""))
        if isinstance(contents, str):
            try:
                data = bytes.fromhex(contents[2:])
            except ValueError:
                self.raise_error("elements hex string is invalid", start)
            size = type.element_type.compile_time_size
            if len(data) != size and len(data) != size * count:
                self.raise_error(f"elements hex data size is invalid for provided type: {type}", start)
            if count > 1 and len(data) == size * count and data == data[:size] * count:
                data = data[:size]  # a splat, in splat storage
            return DenseIntOrFPElementsAttr(type, BytesAttr(data))
        values, literal_shape = contents
        if literal_shape and literal_shape != shape:
            self.raise_error(
                f"inferred shape of elements literal ({_shape_list(literal_shape)}) does not match type "
                f"({_shape_list(shape)})",
                start,
            )
        return dense_elements(type, [value.to_type(self, type.element_type) for value in values])

    def _get_op_by_name(self, name: str):
        from mini_iree.compiler.ir.printer import DEFAULT_DIALECTS

        self.last_op_name = name
        stack = self._parser_state.dialect_stack
        assert isinstance(stack, _DefaultDialectStack)
        default = stack[-1]
        if self._name_was_quoted():
            # The generic form names the op in full and sets no default dialect.
            op_type = self.ctx.get_optional_op(name)
            stack.next = default
        else:
            op_type = self.ctx.get_optional_op(name, dialect_stack=[default] if default else [])
            stack.next = DEFAULT_DIALECTS.get(op_type.name, "") if op_type is not None else ""
        if op_type is None:
            self._unknown_op(name, default)
        return op_type

    def _unknown_op(self, name: str, default: str) -> NoReturn:
        """MLIR's errors for an op no dialect defines, at the op's name."""
        at = self._name_starts[-1] if self._name_starts else None
        dialect = name.split(".")[0]
        if self._name_was_quoted():
            if self.ctx.get_optional_dialect(dialect) is None:
                # MLIR points just past the name, where the operands would start.
                self.raise_error(
                    "operation being parsed with an unregistered dialect. If this is intended, please use "
                    "-allow-unregistered-dialect with the MLIR tool used",
                    self._current_token.span.start,
                )
            self.raise_error(
                f"unregistered operation '{name}' found in dialect ('{dialect}') that does not allow unknown "
                "operations",
                at,
            )
        if "." not in name:
            tried = f" (tried '{default}.{name}' as well)" if default else ""
            self.raise_error(f"custom op '{name}' is unknown{tried}", at)
        if self.ctx.get_optional_dialect(dialect) is not None:
            self.raise_error(f"custom op '{name}' is unknown", at)
        loc = self.loc_of(at if at is not None else self.pos)
        available = ", ".join(sorted(self.ctx.registered_dialect_names))
        raise DiagnosticError(
            Diagnostic(loc, f"Dialect `{dialect}' not found for custom op '{name}' "),
            Diagnostic(
                loc,
                f"Available dialects: {available} ; for more info on dialect registration see "
                "https://mlir.llvm.org/getting_started/Faq/"
                "#registered-loaded-dependent-whats-up-with-dialects-management",
                "note",
            ),
        )

    def _name_was_quoted(self) -> bool:
        """Whether the op name just read was a string literal (the generic form)."""
        text = self.lexer.input.content
        i = self._current_token.span.start - 1
        while i >= 0 and text[i].isspace():
            i -= 1
        return i >= 0 and text[i] == '"'

    def parse_optional_type(self):
        token = self._current_token
        if token.kind != MLIRTokenKind.BARE_IDENT and token.kind != MLIRTokenKind.EXCLAMATION_IDENT:
            return super().parse_optional_type()
        text = self._text
        start = token.span.start
        end = _type_text_end(text, start)
        if end is None:
            return super().parse_optional_type()
        key = text[start:end]
        known = self._types.get(key)
        if known is not None:
            self._resume_from(end)
            return known
        parsed = super().parse_optional_type()
        if parsed is not None:
            self._verify_type_encoding(parsed, end)
        # Cached only if the parse ended exactly where the spelling does.
        if parsed is not None:
            after = self._current_token.span.start
            if after >= end and not text[end:after].strip():
                self._types[key] = parsed
        return parsed

    def _verify_type_encoding(self, type_: Attribute, end: int) -> None:
        """Check a tensor's encoding against its shape as the type is read.

        MLIR verifies an encoding when the type is built (`VerifiableTensorEncoding`),
        so a bad one is reported at the type, before any op that holds it.
        """
        check = getattr(getattr(type_, "encoding", None), "verify_encoding", None)
        if check is None:
            return
        try:
            check(type_.get_shape(), type_.get_element_type())  # type: ignore[attr-defined]
        except VerifyException as err:
            self.raise_error(str(err).splitlines()[0], end - 1, end)

    def parse_shape_dimension(self, allow_dynamic: bool = True) -> int:
        start = self._current_token.span.start
        value = super().parse_shape_dimension(allow_dynamic)
        if value >= 2**63:
            self.raise_error("invalid dimension", start)
        return value

    def _parse_optional_integer_or_float_type(self):
        # MLIR's limit (IntegerType::kMaxWidth); xDSL would try to build the range
        # of an i92233720368575807 and run out of memory.
        token = self._current_token
        if token.kind == MLIRTokenKind.BARE_IDENT:
            match = self._builtin_integer_type_regex.match(token.text)
            if match is not None and int(match.group(1)) > 16777215:
                self.raise_error("integer bitwidth is limited to 16777215 bits", token.span)
        return super()._parse_optional_integer_or_float_type()

    def raise_error(self, msg, at_position=None, end_position=None) -> NoReturn:
        # An error at the current token that says what was expected is reported, as
        # MLIR's emitWrongTokenError reports it, just past the previous token (a
        # missing `:` at the end of the line it is missing from, not at the next line).
        current = self._current_token.span
        at_current = at_position is None or (isinstance(at_position, Span) and at_position.start == current.start)
        if at_current and end_position is None and _is_wrong_token(msg):
            at_position = _end_of_previous_token(self._text, current.start)
        super().raise_error(msg, at_position, end_position)

    def notes_for(self, message: str) -> list[Diagnostic]:
        """MLIR's notes for a parse error: where a value used with another type was first used."""
        if (m := re.match(r"definition of SSA value '%(.+)#0' has type", message)) and m.group(1) in self._first_uses:
            used = self._first_used_type.get(m.group(1))
            return [
                Diagnostic(
                    self.loc_of(self._first_uses[m.group(1)]),
                    f"previously used here with type '{used}'" if used else "previously used here",
                    "note",
                )
            ]
        return []

    def _parse_block(self):
        # xDSL loses track of a block defined after a forward reference and fails on
        # a second definition with a KeyError; MLIR says what is wrong, at the label.
        token = self._current_token
        if token.kind == MLIRTokenKind.CARET_IDENT:
            known = self.blocks.get(token.text[1:])
            if known is not None and id(known[0]) in self._defined_blocks:
                self.raise_error(f"redefinition of block '{token.text}'", token.span)
        block = super()._parse_block()
        self._defined_blocks.add(id(block))
        return block

    def parse_optional_builtin_int_or_float_attr(self):
        start = self._current_token.span.start
        try:
            return super().parse_optional_builtin_int_or_float_attr()
        except (DiagnosticException, ValueError) as err:
            if "out of range" in str(err):
                self.raise_error("integer constant out of range for attribute", start)
            raise

    def error_loc(self) -> SourceLoc:
        return self.loc_of(self.op_starts[-1] if self.op_starts else self.pos)

    def parse_located_module(self) -> ModuleOp:
        # An input with nothing but comments and whitespace is an empty module, as in MLIR.
        if self._current_token.kind == MLIRTokenKind.EOF:
            module = ModuleOp([])
            module.location = self._implicit_module_location()
            return module
        try:
            module = self.parse_module()
        except ParseError as err:
            if err.msg.startswith("values used but not defined") and self.forward_ssa_references:
                # xDSL reports the names at the end of the input; MLIR, each at its first use.
                first = min(self._first_uses[name] for name in self.forward_ssa_references)
                self.raise_error("use of undeclared SSA value name", first)
            raise
        self._resolve_forward_locations(module)
        if module is not self._last_top_level_op:
            # The module the parser wrapped the file's ops in (a written `module`
            # is the last top-level op parsed and has its own location).
            module.location = self._implicit_module_location()
        return module

    def _implicit_module_location(self) -> FileLineColLoc:
        """MLIR's location of the module it wraps a file's ops in: the file, at 0:0 (a later
        ``// -----`` chunk: where the chunk starts, after its marker)."""
        line, col = self._module_location
        return FileLineColLoc(self._file_attr, IntAttr(line), IntAttr(col))


def _decode(data: bytes, name: str, line_offset: int) -> str:
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as err:
        good = data[: err.start].decode("utf-8")
        line, col = _LineTable(good, line_offset).at(len(good))
        raise DiagnosticError(Diagnostic(SourceLoc(name, line, col), "invalid UTF-8 byte in input")) from None


def parse_mlir(
    ctx: Context,
    source: str | bytes,
    name: str,
    line_offset: int = 0,
    keep_names: bool = False,
    module_location: tuple[int, int] = (0, 0),
) -> ModuleOp:
    """Parse ``source`` (one file or one ``// -----`` chunk) into a module.

    ``keep_names`` leaves each value the name the source gives it as its
    ``name_hint`` (printing ignores it). ``module_location`` is the line and
    column of the module the ops are wrapped in, if they are (MLIR's: 0:0 for a
    file, the place after the marker for a later chunk). Raises
    ``DiagnosticError`` for any malformed input; never another exception.
    """
    text = _decode(source, name, line_offset) if isinstance(source, bytes) else source
    if text.startswith("\ufeff"):
        # MLIR's lexer does not skip a byte order mark either; say what the invisible character is.
        raise DiagnosticError(
            Diagnostic(SourceLoc(name, line_offset + 1, 1), "unexpected character: a UTF-8 byte order mark (U+FEFF)")
        )
    _forget_elided_resources(ctx)
    try:
        # Building the parser lexes the first token, which can already fail (a lone `"`).
        parser = LocatedParser(ctx, text, name, line_offset, keep_names, module_location)
    except ParseError as err:
        loc = _LineTable(text, line_offset).at(err.span.start)
        raise DiagnosticError(Diagnostic(SourceLoc(name, *loc), err.msg.strip() or "parse error")) from None
    try:
        return parser.parse_located_module()
    except ParseError as err:
        loc = parser.loc_of(err.span.start) if err.span.input.content is text else SourceLoc(name, 1, 1)
        message = err.msg.strip()
        if message == "Operation builtin.unregistered does not have a custom format.":
            # MLIR too can only parse unregistered ops in the generic form.
            message = (
                f"custom op '{parser.last_op_name}' is unknown; an unregistered op must be written in the "
                f'generic form ("{parser.last_op_name}"(...) : ...)'
            )
        elif message.startswith("region ends with missing block declarations") and getattr(err, "refs", None):
            # xDSL reports the region's end; MLIR, the first reference.
            loc, message = parser.loc_of(err.refs[0][0].start), "reference to an undefined block"
        elif err.msg == " in block definition":
            # A token no op can start with, where MLIR reads the next op of the block.
            message = "expected operation name in quotes"
        elif err.msg.startswith(" "):
            # xDSL phrases some errors as a suffix to a token kind it leaves out.
            message = f"expected a block label or '}}' {message}"
        elif message == "End of file reached before closing string literal.":
            # MLIR reports the end of the line the string should have ended on.
            end = text.find("\n", err.span.start)
            loc, message = parser.loc_of(len(text) if end < 0 else end), "expected '\"' in string literal"
        else:
            message = _mlir_message(message, text, err.span)
        notes = parser.notes_for(message)
        raise DiagnosticError(Diagnostic(loc, message or "parse error"), *notes) from None
    except DiagnosticError:
        # Already located (a parser reporting several errors at once, as MLIR's can).
        raise
    except DiagnosticException as err:
        # Verifiers of attributes and types run while they are being built.
        raise DiagnosticError(Diagnostic(parser.error_loc(), _first_line(err))) from None
    except RecursionError:
        raise DiagnosticError(Diagnostic(parser.error_loc(), "input nests too deeply")) from None
    except Exception as err:  # noqa: BLE001 - malformed input must never show a traceback
        message = _first_line(err) or type(err).__name__
        raise DiagnosticError(Diagnostic(parser.error_loc(), message)) from None


def _forget_elided_resources(ctx: Context) -> None:
    """Let each parse see ``dense_resource<__elided__>`` under its own name.

    xDSL keeps declared resource handles on the (process-wide) builtin dialect
    and renames a handle declared twice (``__elided___0``). Handles without a
    blob, like IREE's elided constants, carry nothing worth keeping between
    parses, so they are dropped before each one.
    """
    from xdsl.dialect_interfaces.op_asm import OpAsmDialectInterface

    builtin = ctx.get_optional_dialect("builtin")
    interface = builtin.get_interface(OpAsmDialectInterface) if builtin is not None else None
    if interface is None:
        return
    forget_unbacked_resources(interface)


def _first_line(err: BaseException) -> str:
    text = str(err).strip()
    return text.splitlines()[0] if text else type(err).__name__
