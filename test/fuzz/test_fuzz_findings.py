"""Inputs the fuzzers found, minimized (the rest are in test/test_diagnostics.py and test/tools/)."""

from __future__ import annotations

from conftest import run_opt


def test_hoist_into_globals_with_an_unnamed_nested_module(tmp_path):
    # A nested `module` is a symbol op without a name; collecting symbol names crashed on it.
    path = tmp_path / "nested.mlir"
    path.write_text("util.func public @empty() {\n  util.return\n}\nmodule {\n}\n")
    result = run_opt([str(path), "-p", "iree-util-hoist-into-globals"])
    assert result.returncode == 0, result.stderr
    assert result.stdout.count("module {") == 2


def test_block_argument_locations_round_trip(tmp_path):
    # --mlir-print-debuginfo prints `%arg0: index loc(...)`; a custom op's argument list must read it back.
    text = (
        "module {\n"
        "  stream.executable private @ex {\n"
        '    stream.executable.export public @fn workgroups(%arg0: index loc("x.mlir":3:4)) -> (index, index, index) {\n'
        '      stream.return %arg0, %arg0, %arg0 : index, index, index loc("x.mlir":4:5)\n'
        '    } loc("x.mlir":2:3)\n'
        '  } loc("x.mlir":1:1)\n'
        '} loc("x.mlir":1:1)\n'
    )
    path = tmp_path / "args.mlir"
    path.write_text(text)
    result = run_opt([str(path), "--mlir-print-debuginfo"])
    assert result.returncode == 0, result.stderr
    assert result.stdout == text


def test_non_ascii_string_in_a_dialect_attribute_round_trips(tmp_path):
    # The printer escapes non-ASCII bytes (`\EF\BB\BF`); xDSL lexed such a literal as bytes,
    # which an attribute's own parser (parse_str_literal) refused.
    path = tmp_path / "bom.mlir"
    path.write_bytes('func.func @f() attributes {a = #rocm.builtin.tuning_module<"x\ufeffy">} {\n  return\n}\n'.encode())
    first = run_opt([str(path)])
    assert first.returncode == 0, first.stderr
    assert '"x\\EF\\BB\\BFy"' in first.stdout
    again = tmp_path / "again.mlir"
    again.write_text(first.stdout)
    second = run_opt([str(again)])
    assert second.returncode == 0, second.stderr
    assert second.stdout == first.stdout
