"""Command-line parsing shared by the tools: one ``error:`` line and status 1, as the LLVM tools do.

argparse prints a whole usage block and exits with status 2 on a bad flag;
mlir-opt prints one line naming the flag. ``ArgumentParser`` here raises
``CommandLineError`` instead, whose text the tool prints as
``error: MESSAGE (see 'TOOL --help')``. Help text is wrapped without breaking
pass names at their hyphens. ``non_negative`` is the type of a count or seed
flag; ``one_line_warnings`` keeps Python's warning format (a source path and
line) away from the user.
"""

from __future__ import annotations

import argparse
import contextlib
import difflib
import os
import re
import sys
import textwrap
import warnings
from collections.abc import Iterator, Sequence
from typing import NoReturn


class CommandLineError(Exception):
    """A bad flag or flag value; ``str()`` is the message without ``error:``."""


class HelpFormatter(argparse.HelpFormatter):
    """argparse's formatter, but `iree-dispatch-creation-set-encoding` stays on one line, and a flag whose
    value can only follow an `=` (an action with an ``equals_metavar``) shows as LLVM shows it: `--flag[=VALUE]`."""

    def _split_lines(self, text: str, width: int) -> list[str]:
        text = self._whitespace_matcher.sub(" ", text).strip()  # type: ignore[attr-defined]
        return textwrap.wrap(text, width, break_on_hyphens=False, break_long_words=False)

    def _format_action_invocation(self, action: argparse.Action) -> str:
        metavar = getattr(action, "equals_metavar", None)
        if metavar:
            return ", ".join(f"{option}[={metavar}]" for option in action.option_strings)
        return super()._format_action_invocation(action)


class ArgumentParser(argparse.ArgumentParser):
    def __init__(self, *args, **kwargs):
        kwargs.setdefault("formatter_class", HelpFormatter)
        # LLVM's tools take no abbreviations: `--mlir-print-ir-after` is not `--mlir-print-ir-after-all`.
        kwargs.setdefault("allow_abbrev", False)
        super().__init__(*args, **kwargs)

    def error(self, message: str) -> NoReturn:
        raise CommandLineError(f"{message} (see '{self.prog} --help')")

    def parse_args(self, args: Sequence[str] | None = None, namespace=None):  # type: ignore[override]
        parsed, extra = self.parse_known_args(args, namespace)
        if extra:
            self.error(self._unknown_message(extra[0]))
        return parsed

    def _unknown_message(self, arg: str) -> str:
        if not arg.startswith("-") or arg == "-":
            return f"unexpected positional argument '{arg}'"
        flag = arg.split("=", 1)[0]
        known = [s for action in self._actions for s in action.option_strings]
        close = difflib.get_close_matches(flag, known, n=1)
        hint = f"; did you mean '{close[0]}'?" if close else ""
        return f"unknown command line argument '{flag}'{hint}"


def llvm_dashes(args: Sequence[str], parser: argparse.ArgumentParser) -> list[str]:
    """The arguments with LLVM's single-dash spelling of long flags made argparse's double-dash one.

    LLVM's command-line library reads `-split-input-file` as `--split-input-file`,
    and IREE's tests write both. A token is rewritten only when the name before its
    `=` is one of the parser's long flags; others (`-p`, `-o`, an unknown `-flag`)
    are left for argparse. The value after a flag that takes one is never touched,
    nor anything after `--`.
    """
    long_names = {s[2:] for action in parser._actions for s in action.option_strings if s.startswith("--")}
    takes_value = {s for action in parser._actions if action.nargs is None for s in action.option_strings}
    out: list[str] = []
    skip_value = False
    for index, token in enumerate(args):
        if skip_value:
            out.append(token)
            skip_value = False
            continue
        if token == "--":
            out.extend(args[index:])
            break
        if token.startswith("-") and not token.startswith("--") and token[1:].split("=", 1)[0] in long_names:
            token = "-" + token
        skip_value = "=" not in token and token in takes_value
        out.append(token)
    return out


def non_negative(text: str) -> int:
    """An integer flag value that must be 0 or more (a size, a count, a seed)."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"'{text}' value invalid for integer argument") from None
    if value < 0:
        raise argparse.ArgumentTypeError(f"'{text}' must not be negative")
    return value


# A warning whose text is already a diagnostic line: `FILE:LINE:COL: warning: ...` or `warning: ...`.
_DIAGNOSTIC = re.compile(r"^(\S+:\d+:\d+: )?warning: ")


@contextlib.contextmanager
def one_line_warnings() -> Iterator[None]:
    """Print each Python warning raised inside as one line on stderr, without Python's source path and line.

    A warning already worded as a diagnostic is printed as it is, any other as ``warning: MESSAGE``.
    """

    def show(message, category, filename, lineno, file=None, line=None) -> None:
        text = str(message)
        (file or sys.stderr).write(f"{text}\n" if _DIAGNOSTIC.match(text) else f"warning: {text}\n")

    with warnings.catch_warnings():
        warnings.showwarning = show
        yield


def report_internal_error(err: Exception) -> int:
    """A crash as one line on stderr and exit status 1 (the Python traceback with ``MINI_IREE_TRACEBACK=1``).

    Call it inside the ``except`` clause that caught ``err``.
    """
    if os.environ.get("MINI_IREE_TRACEBACK"):
        raise err
    sys.stderr.write(f"error: internal error: {type(err).__name__}: {err} (set MINI_IREE_TRACEBACK=1 for details)\n")
    return 1
