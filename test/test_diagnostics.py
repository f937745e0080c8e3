"""Malformed input of every kind gives one ``FILE:LINE:COL: error:`` line (two where MLIR gives two) and exit 1."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from conftest import REFERENCE, run_opt

DIAG = re.compile(r"^(?P<file>[^\n]+):(?P<line>\d+):(?P<col>\d+): error: \S.*$")


def diagnostic_lines(stderr: str, file: str) -> list[re.Match]:
    """The ``FILE:LINE:COL: error:`` lines of ``stderr``. Each may be followed, as MLIR's
    SourceMgr handler prints it, by its source line and a caret under the column;
    those pairs are checked against ``file`` and left out."""
    lines = stderr.splitlines()
    path = Path(file)
    source = path.read_bytes().decode("utf-8", errors="replace").split("\n") if path.is_file() else []
    found: list[re.Match] = []
    i = 0
    while i < len(lines):
        m = DIAG.match(lines[i])
        assert m is not None, stderr
        assert m.group("file") == file
        found.append(m)
        i += 1
        if i < len(lines) and DIAG.match(lines[i]) is None:
            line, col = int(m.group("line")), int(m.group("col"))
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
    m = assert_one_diagnostic(run_opt([path]), path)
    assert (m.group("line"), m.group("col")) == ("3", "3")
    assert "'func.return' op" in m.group(0)


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
    result = run_opt([write(tmp_path, "loc.mlir", text), "--mlir-print-debuginfo", "--allow-unregistered-dialect"])
    assert result.returncode == 0, result.stderr
    assert result.stdout == text


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
