"""Malformed input of every kind gives one ``FILE:LINE:COL: error:`` line (two where MLIR gives two) and exit 1."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from conftest import REFERENCE, run_opt

DIAG = re.compile(r"^(?P<file>[^\n]+):(?P<line>\d+):(?P<col>\d+): error: \S.*$")
NOTE = re.compile(r"^(?P<file>[^\n]+):(?P<line>\d+):(?P<col>\d+): note: (?P<message>\S.*)$")


def diagnostic_lines(stderr: str, file: str) -> list[re.Match]:
    """The ``FILE:LINE:COL: error:`` lines of ``stderr``. Each may be followed, as MLIR's
    SourceMgr handler prints it, by its source line and a caret under the column;
    those pairs are checked against ``file`` and left out. So are the notes after an
    error (the op it is about, printed to its last line; other sites, with their
    source lines)."""
    lines = stderr.splitlines()
    path = Path(file)
    source = path.read_bytes().decode("utf-8", errors="replace").split("\n") if path.is_file() else []
    found: list[re.Match] = []
    i = 0
    while i < len(lines):
        m = DIAG.match(lines[i])
        note = NOTE.match(lines[i]) if m is None else None
        assert m is not None or (note is not None and found), stderr
        current = m or note
        assert current.group("file") == file
        if m is not None:
            found.append(m)
        i += 1
        if note is not None and note.group("message").startswith("see current operation: "):
            while i < len(lines) and DIAG.match(lines[i]) is None and NOTE.match(lines[i]) is None:
                i += 1
        elif i < len(lines) and DIAG.match(lines[i]) is None and NOTE.match(lines[i]) is None:
            line, col = int(current.group("line")), int(current.group("col"))
            shown = "".join(c if c.isprintable() or c == "\t" else " " for c in source[line - 1].rstrip("\r"))
            assert lines[i] == shown.expandtabs(8), stderr
            assert lines[i + 1] == " " * (col - 1) + "^", stderr
            i += 2
    return found


def assert_one_diagnostic(result, file: str) -> re.Match:
    assert result.returncode == 1, (result.stdout, result.stderr)
    assert "Traceback" not in result.stderr
    found = diagnostic_lines(result.stderr, file)
    assert len(found) == 1, result.stderr
    return found[0]


def write(tmp_path, name: str, data: bytes | str) -> str:
    path = tmp_path / name
    path.write_bytes(data.encode() if isinstance(data, str) else data)
    return str(path)


MALFORMED = {
    "garbage": "%0 = ??? $$$\n",
    "truncated_func": "func.func @f(%a: tensor<4xf32>) -> tensor<4xf32> {\n  return %a : tens",
    "truncated_type": "%0 = \"test.op\"() : () -> tensor<4x",
    "huge_int": "%0 = arith.constant 123456789012345678901234567890 : i32\n",
    "huge_dim": "%0 = \"test.op\"() : () -> tensor<99999999999999999999999999999xf32>\n",
    "unknown_op": "%0 = nosuch.op : i32\n",
    "undefined_value": "func.func @f() {\n  return %x : i32\n}\n",
    "unbalanced": "func.func @f() {\n",
    "bad_attr_alias": "#map = affine_map<(d0) -> (d1)>\n",
    "nul_bytes": "\x00\x00\x00",
    # A truncated target attribute: a long string that never closes (this once
    # sent xDSL's string lexer into exponential backtracking).
    "unterminated_long_string": '#t = {cpu_features = "' + "+avx,+avx2,+fma," * 300,
}


@pytest.mark.parametrize("name", sorted(MALFORMED))
def test_malformed_input(tmp_path, name):
    path = write(tmp_path, f"{name}.mlir", MALFORMED[name])
    assert_one_diagnostic(run_opt([path]), path)


def test_invalid_utf8_points_at_the_byte(tmp_path):
    path = write(tmp_path, "utf8.mlir", b"// fine\n// also \xff fine\n")
    m = assert_one_diagnostic(run_opt([path]), path)
    assert (m.group("line"), m.group("col")) == ("2", "9")


def test_verifier_error_points_at_the_op(tmp_path):
    text = 'func.func @f() -> i32 {\n  %0 = "test.op"() : () -> i64\n  return %0 : i64\n}\n'
    path = write(tmp_path, "verify.mlir", text)
    result = run_opt([path])
    m = assert_one_diagnostic(result, path)
    assert (m.group("line"), m.group("col")) == ("3", "3")
    assert "'func.return' op" in m.group(0)
    # As mlir-opt, the op is shown in a note, in generic form.
    assert f'{path}:3:3: note: see current operation: "func.return"(%0) : (i64) -> ()' in result.stderr.splitlines()
    quiet = run_opt([path, "--mlir-print-op-on-diagnostic=false"])
    assert "note" not in quiet.stderr and quiet.stderr.startswith(m.group(0))


@pytest.mark.parametrize("text", ["", "\n\n", "// only a comment\n", "  \t\n// a\n// b"])
def test_empty_input_is_an_empty_module(tmp_path, text):
    path = write(tmp_path, "empty.mlir", text)
    result = run_opt([path])
    assert result.returncode == 0, result.stderr
    assert result.stdout == "module {\n}\n"


def test_missing_file():
    result = run_opt(["/nonexistent/x.mlir"])
    assert_one_diagnostic(result, "<cmdline>")


@pytest.mark.parametrize(
    "args, message",
    [
        (["-p", "no-such-pass"], "'no-such-pass' does not refer to a registered pass or pass pipeline"),
        (["-p", "cse{bogus=1}"], "no such option 'bogus' for pass 'cse'"),
        (["--pass-pipeline", "cse"], "expected pass pipeline to be wrapped with the anchor operation type"),
        (["--pass-pipeline", "builtin.module(cse"], "expected ')' to close 'builtin.module('"),
        (["--pass-pipeline", "builtin.module(func.func(nope))"], "'nope' does not refer to a registered pass"),
        (["-p", "cse", "--pass-pipeline", "builtin.module(cse)"], "cannot be used together"),
    ],
)
def test_bad_pipeline(tmp_path, args, message):
    path = write(tmp_path, "ok.mlir", "")
    result = run_opt([path, *args])
    m = assert_one_diagnostic(result, "<cmdline>")
    assert message in m.group(0)


def test_unknown_pass_column(tmp_path):
    path = write(tmp_path, "ok.mlir", "")
    result = run_opt([path, "--pass-pipeline", "builtin.module(cse, func.func(nope))"])
    m = assert_one_diagnostic(result, "<cmdline>")
    assert m.group("col") == str(len("builtin.module(cse, func.func(") + 1)


def test_output_file_not_written_on_error(tmp_path):
    out = tmp_path / "out.mlir"
    out.write_text("previous contents\n")
    path = write(tmp_path, "bad.mlir", "%0 = ???\n")
    result = run_opt([path, "-o", str(out)])
    assert result.returncode == 1
    assert out.read_text() == "previous contents\n"
    assert [p.name for p in tmp_path.iterdir() if p.name.startswith(".mini-iree-opt")] == []


def test_output_file_written_on_success(tmp_path):
    out = tmp_path / "out.mlir"
    path = write(tmp_path, "good.mlir", "")
    assert run_opt([path, "-o", str(out)]).returncode == 0
    assert out.read_text() == "module {\n}\n"


def test_split_input_file_error_in_one_chunk(tmp_path):
    text = "\n// -----\n%0 = ???\n// -----\n// comment only\n"
    path = write(tmp_path, "split.mlir", text)
    result = run_opt([path, "--split-input-file"])
    m = assert_one_diagnostic(result, path)
    assert m.group("line") == "3"
    # The two good chunks are still printed, separated as MLIR separates them.
    assert result.stdout == "module {\n}\n// -----\nmodule {\n}\n"


def _reference_texts() -> list[bytes]:
    if not REFERENCE.is_dir():
        return []
    return [p.read_bytes() for p in sorted(REFERENCE.glob("**/*.mlir"))]


REFERENCE_TEXTS = _reference_texts()


@pytest.mark.skipif(not REFERENCE_TEXTS, reason="reference dumps not found beside the checkout")
@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_truncated_or_corrupted_reference_never_crashes(tmp_path, data):
    """Cut a real dump anywhere, or flip a byte: a clean diagnostic or success."""
    text = data.draw(st.sampled_from(REFERENCE_TEXTS))
    cut = data.draw(st.integers(0, len(text)))
    mutated = text[:cut]
    if data.draw(st.booleans()) and mutated:
        pos = data.draw(st.integers(0, len(mutated) - 1))
        mutated = mutated[:pos] + bytes([data.draw(st.integers(0, 255))]) + mutated[pos + 1 :]
    path = write(tmp_path, "fuzz.mlir", mutated)
    result = run_opt([path])
    assert "Traceback" not in result.stderr
    if result.returncode != 0:
        assert_clean_diagnostics(result, path)


def assert_clean_diagnostics(result, file: str) -> None:
    """Exit 1 with nothing but ``FILE:LINE:COL: error:`` lines: one, or a few
    where MLIR reports a few at once (a struct cut before a key gives
    "expected valid keyword" and "expected a parameter name in struct")."""
    assert result.returncode == 1, (result.stdout, result.stderr)
    assert "Traceback" not in result.stderr
    assert 1 <= len(diagnostic_lines(result.stderr, file)) <= 2, result.stderr


def test_wrong_terminator_in_a_region_is_rejected(tmp_path):
    # `return` is func.return only directly in a func.func (its default dialect);
    # a flow.dispatch.region sets none, so MLIR does not know the op there.
    text = (
        "func.func @f(%arg0: tensor<4xf32>) -> tensor<4xf32> {\n"
        "  %0 = flow.dispatch.region -> (tensor<4xf32>) {\n"
        "    return %arg0 : tensor<4xf32>\n"
        "  }\n"
        "  return %0 : tensor<4xf32>\n"
        "}\n"
    )
    path = write(tmp_path, "terminator.mlir", text)
    m = assert_one_diagnostic(run_opt([path]), path)
    assert (m.group("line"), m.group("col")) == ("3", "5")
    assert m.group(0).endswith("error: custom op 'return' is unknown")


@pytest.mark.parametrize(
    "text, message",
    [
        # util.func sets no default dialect either.
        ("util.func @f() {\n  return\n}\n", "custom op 'return' is unknown"),
        # At the top level the default dialect is builtin.
        ("return\n", "custom op 'return' is unknown (tried 'builtin.return' as well)"),
    ],
)
def test_bare_op_names_resolve_only_in_the_default_dialect(tmp_path, text, message):
    path = write(tmp_path, "bare.mlir", text)
    m = assert_one_diagnostic(run_opt([path]), path)
    assert m.group(0).endswith(f"error: {message}")


def test_bare_op_names_where_mlir_allows_them(tmp_path):
    text = "module {\n  func.func @f() {\n    return\n  }\n}\n"
    result = run_opt([write(tmp_path, "ok.mlir", text)])
    assert result.returncode == 0, result.stderr
    assert result.stdout == text


@pytest.mark.parametrize(
    "data, where, message",
    [
        (b"\xef\xbb\xbfmodule {\n}\n", (1, 1), "unexpected character: a UTF-8 byte order mark (U+FEFF)"),
        (b'"', (1, 1), "End of file reached before closing string literal."),
        (b'  "abc', (1, 3), "End of file reached before closing string literal."),
        (b"func.func @f(%a: i92233720368575807) {\n  return\n}\n", (1, 18), "integer bitwidth is limited to 16777215 bits"),
    ],
)
def test_lexer_level_errors(tmp_path, data, where, message):
    path = write(tmp_path, "lex.mlir", data)
    m = assert_one_diagnostic(run_opt([path]), path)
    assert (int(m.group("line")), int(m.group("col"))) == where
    assert m.group(0).endswith(f"error: {message}")


def test_explicit_unknown_locations_round_trip(tmp_path):
    text = 'module {\n  "test.op"() : () -> () loc(unknown)\n} loc(unknown)\n'
    path = write(tmp_path, "loc.mlir", text)
    flags = ["--mlir-print-debuginfo", "--allow-unregistered-dialect"]
    inline = run_opt([path, *flags, "--mlir-print-local-scope"])
    assert inline.returncode == 0, inline.stderr
    assert inline.stdout == text
    # MLIR gives `loc(unknown)` an alias like any location, defined after the module.
    aliased = run_opt([path, *flags])
    assert aliased.stdout == 'module {\n  "test.op"() : () -> () loc(#loc)\n} loc(#loc)\n#loc = loc(unknown)\n'
    again = run_opt([write(tmp_path, "again.mlir", aliased.stdout), *flags])
    assert again.stdout == aliased.stdout, again.stderr


def test_location_aliases_as_mlir_prints_them(tmp_path):
    # The order and placement iree-opt 3.13 gives this program: block-argument
    # locations in full (their aliases before the module), op locations by alias
    # after it, parts of a fused or call-site location aliased first.
    text = (
        'func.func @f(%arg0: i32 loc(unknown), %arg1: i32 loc(fused["q.py":1:1, "r.py":2:2])) -> i32 {\n'
        "  %0 = arith.addi %arg0, %arg1 : i32 loc(unknown)\n"
        '  %1 = arith.addi %0, %arg1 : i32 loc("q.py":1:1)\n'
        '  %2 = arith.addi %1, %arg1 : i32 loc(fused["r.py":2:2])\n'
        '  %3 = arith.addi %2, %arg1 : i32 loc("nm")\n'
        '  %4 = "arith.addi"(%3, %arg1) : (i32, i32) -> i32 loc(callsite("a.py":1:1 at callsite("b.py":2:2 at "c.py":3:3)))\n'
        "  return %4 : i32\n"
        "}\n"
    )
    path = write(tmp_path, "aliases.mlir", text)
    result = run_opt([path, "--mlir-print-debuginfo"])
    assert result.returncode == 0, result.stderr
    assert result.stdout == (
        '#loc2 = loc(unknown)\n#loc3 = loc("q.py":1:1)\n#loc4 = loc("r.py":2:2)\n#loc10 = loc(fused[#loc3, #loc4])\n'
        "module {\n"
        "  func.func @f(%arg0: i32 loc(unknown), %arg1: i32 loc(fused[#loc3, #loc4])) -> i32 {\n"
        "    %0 = arith.addi %arg0, %arg1 : i32 loc(#loc2)\n"
        "    %1 = arith.addi %0, %arg1 : i32 loc(#loc3)\n"
        "    %2 = arith.addi %1, %arg1 : i32 loc(#loc4)\n"
        "    %3 = arith.addi %2, %arg1 : i32 loc(#loc5)\n"
        "    %4 = arith.addi %3, %arg1 : i32 loc(#loc12)\n"
        "    return %4 : i32 loc(#loc9)\n"
        "  } loc(#loc1)\n"
        "} loc(#loc)\n"
        f'#loc = loc("{path}":0:0)\n#loc1 = loc("{path}":1:1)\n#loc5 = loc("nm")\n#loc6 = loc("a.py":1:1)\n'
        f'#loc7 = loc("b.py":2:2)\n#loc8 = loc("c.py":3:3)\n#loc9 = loc("{path}":7:3)\n'
        "#loc11 = loc(callsite(#loc7 at #loc8))\n#loc12 = loc(callsite(#loc6 at #loc11))\n"
    )
    again = run_opt([write(tmp_path, "again.mlir", result.stdout), "--mlir-print-debuginfo"])
    assert again.stdout == result.stdout, again.stderr


def test_op_location_is_its_name(tmp_path):
    # MLIR locates `%0 = arith.addi ...` at `arith.addi`, and the module it wraps a file in at 0:0.
    path = write(tmp_path, "at.mlir", "func.func @f(%a: i32) -> i32 {\n  %sum = arith.addi %a, %a : i32\n  return %sum : i32\n}\n")
    result = run_opt([path, "--mlir-print-debuginfo", "--mlir-print-local-scope"])
    assert f'arith.addi %arg0, %arg0 : i32 loc("{path}":2:10)' in result.stdout
    assert result.stdout.endswith(f'}} loc("{path}":0:0)\n')


def test_location_alias_never_defined(tmp_path):
    path = write(tmp_path, "undefined.mlir", "func.func @f() {\n  return loc(#loc9)\n}\n")
    m = assert_one_diagnostic(run_opt([path]), path)
    assert (int(m.group("line")), int(m.group("col"))) == (2, 14)
    assert m.group(0).endswith("error: operation location alias was never defined")


def test_verify_each_false_still_verifies_the_input(tmp_path):
    # As in MLIR, --verify-each=false skips the verifier after passes, not on the input.
    text = 'func.func @f() -> i32 {\n  %0 = "test.op"() : () -> i64\n  return %0 : i64\n}\n'
    path = write(tmp_path, "verify.mlir", text)
    m = assert_one_diagnostic(run_opt([path, "--verify-each=false"]), path)
    assert "'func.return' op" in m.group(0)


def test_malformed_expected_error_regex(tmp_path):
    text = "// expected-error-re @+1 {{a {{[}} b}}\n%0 = ???\n"
    path = write(tmp_path, "re.mlir", text)
    result = run_opt([path, "--verify-diagnostics"])
    assert result.returncode == 1
    assert "Traceback" not in result.stderr
    assert f"{path}:1:4: error: invalid regex: unterminated character set at position 3\n" in result.stderr


def test_notes_for_the_other_sites_of_a_location(tmp_path):
    # A call site adds `called from` at each caller (MLIR's SourceMgr handler); a
    # fused location adds each of its other sites, each with its source line.
    text = (
        "func.func @f(%a: tensor<4xf32>) -> tensor<5xf32> {\n"
        "  %0 = arith.addf %a, %a : tensor<4xf32>\n"
        "  %1 = tensor.cast %0 : tensor<4xf32> to tensor<5xf32> LOC\n"
        "  return %1 : tensor<5xf32>\n"
        "}\n"
    )
    called = write(tmp_path, "called.mlir", "")
    write(tmp_path, "called.mlir", text.replace("LOC", f'loc(callsite("{called}":2:8 at callsite("{called}":1:1 at "{called}":4:3)))'))
    lines = run_opt([called]).stderr.splitlines()
    assert lines[0].startswith(f"{called}:2:8: error: 'tensor.cast' op")
    assert lines[1:3] == ["  %0 = arith.addf %a, %a : tensor<4xf32>", "       ^"]
    assert lines[3] == f"{called}:1:1: note: called from"
    assert lines[6] == f"{called}:4:3: note: called from"
    assert lines[7:9] == ["  return %1 : tensor<5xf32>", "  ^"]
    assert lines[9].startswith(f"{called}:2:8: note: see current operation: %1 = \"tensor.cast\"(%0)")

    fused = write(tmp_path, "fused.mlir", "")
    write(tmp_path, "fused.mlir", text.replace("LOC", f'loc(fused["{fused}":3:8, "{fused}":2:8])'))
    lines = run_opt([fused]).stderr.splitlines()
    assert lines[0].startswith(f"{fused}:3:8: error: 'tensor.cast' op")
    assert lines[3] == f"{fused}:2:8: note: also located here (fused location)"
    assert lines[4:6] == ["  %0 = arith.addf %a, %a : tensor<4xf32>", "       ^"]
    assert "see current operation" in lines[6]


def test_see_current_operation_prints_the_whole_op(tmp_path):
    # An error about an op with a region shows the op with its body, in generic form,
    # and nothing after it is taken for a source line.
    text = (
        '"func.func"() <{function_type = (i32) -> i64, sym_name = "f"}> ({\n'
        "^bb0(%arg0: i64):\n"
        '  "func.return"(%arg0) : (i64) -> ()\n'
        "}) : () -> ()\n"
    )
    path = write(tmp_path, "body.mlir", text)
    result = run_opt([path])
    assert_one_diagnostic(result, path)
    note = f"{path}:1:1: note: see current operation: "
    assert result.stderr.endswith(note + text.replace("\n\n", "\n")), result.stderr


# Parse errors as iree-opt 3.13 reports them: the position and the words. An error that
# names the token it expected is reported just past the previous token (MLIR's
# emitWrongTokenError), so a missing `:` is shown at the end of the line it is missing from.
MLIR_PARSE_ERRORS = [
    ("func.func @f(%a: i32) -> i32 {\n  %0 = arith.addi %a, %a\n  return %0 : i32\n}\n", (2, 25), "expected ':'"),
    ("func.func @f(%a: i32) -> i32 {\n  %0 = arith.addi %a, %a : i32\n  return %0 : i32\n", (3, 18),
     "expected operation name in quotes"),
    ("func.func @f(%a: i32) -> i32 {\n  return %a : i32\n}\n}\n", (3, 2), "expected operation name in quotes"),
    ("func.func @f(%a: i32 %b: i32) {\n  return\n}\n", (1, 21), "expected ')'"),
    ("func.func @f(%a i32) {\n  return\n}\n", (1, 16), "expected ':'"),
    ("func.func @f(%a: i32) -> i32 {\n  %0 = arith.addi %a, %a : i33x\n  return %0 : i32\n}\n", (2, 27),
     "expected non-function type"),
    ("func.func @f(%a: i32) -> i32 {\n  %0 = arith.foo %a, %a : i32\n  return %0 : i32\n}\n", (2, 8),
     "custom op 'arith.foo' is unknown"),
    ("func.func @f(%a: i32) -> i32 {\n  %0 = foo.bar %a, %a : i32\n  return %0 : i32\n}\n", (2, 8),
     "Dialect `foo' not found for custom op 'foo.bar' "),
    ('func.func @f() {\n  "arith.foo"() : () -> ()\n  return\n}\n', (2, 3),
     "unregistered operation 'arith.foo' found in dialect ('arith') that does not allow unknown operations"),
    ("func.func @f(%a: i32) -> i32 {\n  %0 = arith.addi %a, %a : i32\n  %0 = arith.addi %a, %a : i32\n  return %0 : i32\n}\n",
     (3, 3), "redefinition of SSA value '%0'"),
    ("func.func @f(%a: i32) -> i32 {\n  %0 = arith.addi %a, %a : i64\n  return %0 : i32\n}\n", (2, 19),
     "use of value '%a' expects different type than prior uses: 'i64' vs 'i32'"),
    ("func.func @f(%a: i32) -> i32 {\n  %0 = arith.addi %a, %1 : i32\n  %1 = arith.constant 1 : i64\n  return %0 : i32\n}\n",
     (3, 3), "definition of SSA value '%1#0' has type 'i64'"),
    ("func.func @f(%a: i32) -> i32 {\n  %0, %1 = arith.addi %a, %a : i32\n  return %0 : i32\n}\n", (2, 3),
     "operation defines 1 results but was provided 2 to bind"),
    ("func.func @f() -> i32 {\n  %0 = arith.constant 99999999999999999999 : i32\n  return %0 : i32\n}\n", (2, 23),
     "integer constant out of range for attribute"),
    ("func.func @f() {\n  cf.br ^bb9\n}\n", (2, 9), "reference to an undefined block"),
    ("func.func @f() {\n  cf.br ^bb1\n^bb1:\n  return\n^bb1:\n  return\n}\n", (5, 1), "redefinition of block '^bb1'"),
    ("func.func @f(%a: tensor<4xf32, #enc>) {\n  return\n}\n", (1, 36), "undefined symbol alias id 'enc'"),
    ("#map = affine_map<(d0) -> (d1)>\nfunc.func @f() {\n  return\n}\n", (1, 28), "use of undeclared identifier"),
    ('func.func @f() attributes {x = "abc\n} {\n  return\n}\n', (1, 36), "expected '\"' in string literal"),
]  # fmt: skip


@pytest.mark.parametrize("text, where, message", MLIR_PARSE_ERRORS)
def test_parse_errors_as_mlir_reports_them(tmp_path, text, where, message):
    path = write(tmp_path, "bad.mlir", text)
    result = run_opt([path])
    assert result.returncode == 1 and "Traceback" not in result.stderr
    first = result.stderr.splitlines()[0]
    assert first == f"{path}:{where[0]}:{where[1]}: error: {message}", result.stderr


def test_a_value_used_with_two_types_notes_its_first_use(tmp_path):
    path = write(tmp_path, "types.mlir", MLIR_PARSE_ERRORS[11][0])
    lines = run_opt([path]).stderr.splitlines()
    assert lines[3:6] == [f"{path}:2:23: note: previously used here with type 'i32'",
                          "  %0 = arith.addi %a, %1 : i32", " " * 22 + "^"]  # fmt: skip


def test_only_a_whole_location_may_name_a_later_alias(tmp_path):
    # As MLIR: `loc(#loc9)` may come before `#loc9 = ...`; a part of a location may not.
    nested = write(tmp_path, "nested.mlir", 'func.func @f() {\n  return loc(fused["a":1:1, #loc9])\n}\n#loc9 = loc("b":2:2)\n')
    m = assert_one_diagnostic(run_opt([nested]), nested)
    assert m.group(0).endswith("2:29: error: undefined symbol alias id 'loc9'")
    # Alias definitions after the ops do not make the wrapping module's location explicit.
    whole = write(tmp_path, "whole.mlir", 'func.func @f() {\n  return loc(#loc9)\n}\n#loc9 = loc(fused["b":2:2, "c":1:1])\n')
    result = run_opt([whole, "--mlir-print-debuginfo", "--mlir-print-local-scope"])
    assert 'return loc(fused["b":2:2, "c":1:1])' in result.stdout
    assert result.stdout.endswith(f'}} loc("{whole}":0:0)\n')
