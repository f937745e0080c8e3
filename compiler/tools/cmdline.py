"""Command-line parsing shared by the tools: one ``error:`` line and status 1, as the LLVM tools do.

argparse prints a whole usage block and exits with status 2 on a bad flag;
mlir-opt prints one line naming the flag. ``ArgumentParser`` here raises
``CommandLineError`` instead, whose text the tool prints as
``error: MESSAGE (see 'TOOL --help')``. Help text is wrapped without breaking
pass names at their hyphens.
"""

from __future__ import annotations

import argparse
import difflib
import textwrap
from collections.abc import Sequence
from typing import NoReturn


class CommandLineError(Exception):
    """A bad flag or flag value; ``str()`` is the message without ``error:``."""


class HelpFormatter(argparse.HelpFormatter):
    """argparse's formatter, but `iree-dispatch-creation-set-encoding` stays on one line."""

    def _split_lines(self, text: str, width: int) -> list[str]:
        text = self._whitespace_matcher.sub(" ", text).strip()  # type: ignore[attr-defined]
        return textwrap.wrap(text, width, break_on_hyphens=False, break_long_words=False)


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
