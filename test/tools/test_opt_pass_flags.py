"""Passes given as flags, as iree-opt / mlir-opt take them, and the run-wide `--iree-era` flag.

    mini-iree-opt --iree-dispatch-creation-set-encoding -split-input-file --canonicalize --cse \
        --iree-util-hoist-into-globals=max-size-increase-threshold=64 in.mlir
"""

from __future__ import annotations

import re

import pytest

from conftest import run_opt
from mini_iree.compiler.tools import opt_main
from mini_iree.compiler.tools.opt_main import MiniIREEOptMain
from mini_iree.passes import get_all_passes, get_all_pipelines

TWO_CONSTANTS = """func.func @f() -> (index, index) {
  %c4 = arith.constant 4 : index
  %c4_0 = arith.constant 4 : index
  return %c4, %c4_0 : index, index
}
"""


@pytest.fixture
def program(tmp_path):
    path = tmp_path / "in.mlir"
    path.write_text(TWO_CONSTANTS)
    return str(path)


def pass_names(args: list[str]) -> list[str]:
    main = MiniIREEOptMain(args)
    assert main.cmdline_error is None, main.cmdline_error.diagnostics
    return [p.name for p in main.passes]


def built(args: list[str]) -> list[str] | str:
    """The passes a command line builds, or its command-line error."""
    main = MiniIREEOptMain(args)
    if main.cmdline_error is not None:
        return main.cmdline_error.diagnostics[0].message
    return [p.name for p in main.passes]


@pytest.mark.parametrize("name", sorted(get_all_passes()))
def test_every_registered_pass_is_a_flag(name, program):
    # The flag builds what `-p NAME` builds (a pass whose options have no defaults fails the same way).
    expected = built(["-p", name, program])
    assert built([f"--{name}", program]) == expected
    # LLVM's single-dash spelling, and an empty option list, mean the same.
    assert built([program, f"-{name}="]) == expected
    assert expected == [name] or isinstance(expected, str)


@pytest.mark.parametrize("name", sorted(get_all_pipelines()))
def test_every_named_pipeline_is_a_flag(name, program):
    # A pipeline flag runs what `-p NAME` runs (its target given where it needs one).
    options = "target=vmvx" if "target" in {o for o, _, _ in get_all_pipelines()[name].options} else ""
    flag = f"--{name}" + (f"={options}" if options else "")
    pipeline = name + (f"{{{options}}}" if options else "")
    assert pass_names([flag, program]) == pass_names(["-p", pipeline, program])


def test_flags_run_in_command_line_order_with_p(program):
    assert pass_names(["--canonicalize", program, "-p", "cse,dce", "--inline", "--cse"]) == [
        "canonicalize",
        "cse",
        "dce",
        "inline",
        "cse",
    ]
    assert pass_names(["-p", "dce", "--cse", program]) == ["dce", "cse"]
    # `-p` given twice: the last one counts, in its place.
    assert pass_names(["-p", "dce", "--canonicalize", "-p", "cse", program]) == ["canonicalize", "cse"]


def test_options_in_mlirs_flag_spelling(program):
    main = MiniIREEOptMain(
        [
            "--iree-util-hoist-into-globals=max-size-increase-threshold=64",
            # What the shell passes for --iree-dispatch-creation-set-encoding="encoding-option=default encoding-dims=true".
            "--iree-dispatch-creation-set-encoding=encoding-option=default encoding-dims=true",
            program,
        ]
    )
    hoist, set_encoding = main.passes
    assert hoist.max_size_increase_threshold == 64
    assert (set_encoding.encoding_option, set_encoding.encoding_dims) == ("default", True)


def test_a_bare_pass_flag_does_not_take_the_next_argument(program):
    result = run_opt(["--cse", program])
    assert result.returncode == 0, result.stderr
    assert result.stdout.count("arith.constant") == 1


def test_the_readme_command_line(tmp_path):
    path = tmp_path / "in.mlir"
    path.write_text(TWO_CONSTANTS + "// -----\n" + TWO_CONSTANTS.replace("@f", "@g"))
    result = run_opt(
        [
            "--iree-dispatch-creation-set-encoding",
            "-split-input-file",
            "--canonicalize",
            "--cse",
            "--iree-util-hoist-into-globals=max-size-increase-threshold=64",
            str(path),
        ]
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.count("// -----") == 1
    assert result.stdout.count("arith.constant") == 2


def test_single_dash_pass_pipeline(program):
    assert pass_names([f"-pass-pipeline=builtin.module(func.func(cse),dce)", program]) == ["cse", "dce"]


def test_pass_pipeline_with_a_pass_flag_is_mlir_opts_error(program):
    result = run_opt(["--pass-pipeline=builtin.module(cse)", "--dce", program])
    assert result.returncode == 1
    assert result.stderr == "<cmdline>:1:1: error: '-pass-pipeline' option can't be used with individual pass options\n"


@pytest.mark.parametrize("flag", ["--iree-no-such-pass", "-iree-no-such-pass", "--iree-no-such-pass=a=1"])
def test_unknown_flags_keep_their_error(flag, program):
    result = run_opt([flag, program])
    assert result.returncode == 1
    name = flag.split("=")[0]
    assert re.fullmatch(
        rf"error: unknown command line argument '{name}'(; did you mean '[^']+'\?)? \(see 'mini-iree-opt --help'\)\n",
        result.stderr,
    ), result.stderr


def test_bad_option_in_a_pass_flag(program):
    result = run_opt(["--cse=no-such=1", program])
    assert result.returncode == 1
    assert result.stderr == "<cmdline>:1:1: error: no such option 'no-such' for pass 'cse' (options: none)\n"


def test_help_lists_the_pass_flags():
    result = run_opt(["--help"])
    assert result.returncode == 0, result.stderr
    out = result.stdout
    section = out.split("Compiler passes to run:\n", 1)[1]
    for name in [*get_all_passes(), *get_all_pipelines()]:
        assert f"  --{name}[='OPTION=VALUE ...']" in section, name
    # Each with its summary (its docstring's first paragraph, MLIR's for upstream passes).
    assert re.search(r"--cse\[='OPTION=VALUE \.\.\.'\]\s+Eliminate common sub-expressions\n", section)
    from mini_iree.passes.set_encoding import SetEncodingPass

    first_words = " ".join(SetEncodingPass.__doc__.split()[:3])
    flat = " ".join(section.split())
    assert f"--iree-dispatch-creation-set-encoding[='OPTION=VALUE ...'] {first_words}" in flat
    # The usage line stands for them with one entry.
    usage = out.split("\n\n", 1)[0]
    assert "[--PASS[=OPTIONS] ...]" in usage and "--cse" not in usage


# -- --iree-era -------------------------------------------------------------------


@pytest.mark.parametrize("era", ["walkthrough", "3.13"])
def test_iree_era_is_stored_and_applied(era, program, monkeypatch):
    applied = []
    monkeypatch.setattr(opt_main, "_apply_run_era", applied.append)
    main = MiniIREEOptMain([f"--iree-era={era}", program])
    assert main.args.iree_era == era
    assert applied == [era]


def test_iree_era_defaults_to_the_walkthrough(program, monkeypatch):
    applied = []
    monkeypatch.setattr(opt_main, "_apply_run_era", applied.append)
    MiniIREEOptMain([program])
    assert applied == ["walkthrough"]


def test_iree_era_runs(program):
    result = run_opt(["-iree-era=3.13", "--cse", program])
    assert result.returncode == 0, result.stderr


def test_unknown_era(program):
    result = run_opt(["--iree-era=2024", program])
    assert result.returncode == 1
    assert "invalid choice: '2024' (choose from 'walkthrough', '3.13')" in result.stderr
    with pytest.raises(opt_main.CommandLineError, match="unknown era '2024'"):
        opt_main._apply_run_era("2024")
