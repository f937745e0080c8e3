"""The parser's shortcuts give what xDSL's parser gives.

``LocatedParser`` lexes the common tokens with one regular expression
(``_CommonTokenLexer``), takes a single ``%name =`` without xDSL's list parsing,
and builds op locations from shared parts. Each case compares with xDSL's own
lexer or parser on the same text, including errors and their positions.
"""

from __future__ import annotations

import pytest
from xdsl.parser import Parser
from xdsl.utils.exceptions import ParseError
from xdsl.utils.lexer import Input
from xdsl.utils.mlir_lexer import MLIRLexer, MLIRTokenKind

from mini_iree.compiler.ir.diagnostics import DiagnosticError, SourceLoc
from mini_iree.compiler.ir.parsing import (
    LocatedParser,
    _CommonTokenLexer,
    _end_of_previous_token,
    _is_wrong_token,
    parse_mlir,
)
from mini_iree.compiler.tools.opt_main import MiniIREEOptMain

from conftest import REPO


def _tokens(lexer_class: type[MLIRLexer], text: str) -> list[tuple]:
    lexer = lexer_class(Input(text, "t"))
    out: list[tuple] = []
    while True:
        try:
            token = lexer.lex()
        except ParseError as err:
            out.append(("error", err.span.start, err.span.end, err.msg))
            return out
        out.append((token.kind, token.span.start, token.span.end))
        if token.kind == MLIRTokenKind.EOF:
            return out


TRICKY = [
    "%0 = arith.constant 0 : index // comment\n  %c1_i32 = x",
    "%0abc %_x %$y %-z %.w %a.b$c-d",
    "% x",  # a `%` without a suffix is MLIRLexer's error
    "%",
    "éclair _x x9$.y",  # a non-ASCII letter starts a bare identifier too
    "{-# x #-} {a} -> - ... ..",
    'a<"str\\22ing" : "x\\C3\\A9">',
    "dense<[1.5e+3, -2, 0x7F]> ?x4x?",
    "@sym @\"quoted\" ^bb0(%arg0: i32): #map !t",
    "a|b*c+d/e",
    "",
    "  \n\t// only a comment",
]


@pytest.mark.parametrize("text", TRICKY)
def test_common_token_lexer_tokens_are_mlir_lexers(text: str):
    assert _tokens(_CommonTokenLexer, text) == _tokens(MLIRLexer, text)


def test_common_token_lexer_on_every_test_input():
    files = sorted((REPO / "test").rglob("*.mlir")) + [REPO / "examples" / "matmul.mlir"]
    assert files
    for path in files:
        text = path.read_text(encoding="utf-8", errors="replace")
        assert _tokens(_CommonTokenLexer, text) == _tokens(MLIRLexer, text), path


@pytest.fixture(scope="module")
def ctx():
    return MiniIREEOptMain([]).ctx


@pytest.mark.parametrize(
    "text",
    [
        '%a, %b = "test.op"() : () -> (i32, i32)\n"test.op"(%a, %b) : (i32, i32) -> ()',
        '%a:2 = "test.op"() : () -> (i32, i32)\n"test.op"(%a#1) : (i32) -> ()',
        '%a = "test.op"() : () -> i32',
    ],
)
def test_result_lists_parse_as_with_xdsl(ctx, text: str):
    ours = parse_mlir(ctx, text, "t.mlir")
    theirs = Parser(ctx, text, "t.mlir").parse_module()
    assert [len(op.results) for op in ours.ops] == [len(op.results) for op in theirs.ops]


@pytest.mark.parametrize("text", ['%a "test.op"() : () -> i32', "%a : = x", "%a, = x", "%a:x = y"])
def test_result_list_errors_are_xdsls(ctx, text: str):
    with pytest.raises(ParseError) as theirs:
        Parser(ctx, text, "t.mlir").parse_module()
    with pytest.raises(ParseError) as ours:
        LocatedParser(ctx, text, "t.mlir").parse_module()
    # The same error; one that names the token it expected is moved, as MLIR moves it,
    # to just past the previous token.
    expected_at = theirs.value.span.start
    if _is_wrong_token(theirs.value.msg):
        expected_at = _end_of_previous_token(text, expected_at)
    assert (ours.value.span.start, ours.value.msg) == (expected_at, theirs.value.msg)
    with pytest.raises(DiagnosticError):
        parse_mlir(ctx, text, "t.mlir")


def test_op_locations(ctx):
    text = 'func.func @f() {\n  %a = "test.op"() : () -> i32\n    "test.op"(%a) : (i32) -> ()\n  return\n}\n'
    module = parse_mlir(ctx, text, "dir/t.mlir", line_offset=10)
    func = next(iter(module.ops))
    ops = list(func.body.block.ops)
    assert func.location == SourceLoc("dir/t.mlir", 11, 1).to_attr()
    assert [op.location for op in ops] == [
        SourceLoc("dir/t.mlir", 12, 8).to_attr(),  # at the op's name, as MLIR locates it
        SourceLoc("dir/t.mlir", 13, 5).to_attr(),
        SourceLoc("dir/t.mlir", 14, 3).to_attr(),
    ]
