"""Write a tool's output file as mlir-opt does: ``-`` is stdout, nothing is half-written.

A regular file (or a new one) is written to a temporary file beside it and
renamed over it, so a failure never leaves half an output; the file keeps its
mode (a new file gets the mode the umask gives, as ``open`` would). Anything
else (``/dev/null``, a FIFO, a terminal) is written in place: renaming over a
device node would replace it with a regular file. A symlink is followed, so the
link stays and its target gets the text.
"""

from __future__ import annotations

import os
import stat
import sys
import tempfile


class OutputError(Exception):
    """The output file cannot be written; the message is ready for ``error: ...``."""


def _umask_mode() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return 0o666 & ~mask


def check_writable(path: str) -> None:
    """Fail early (before any work) when ``path`` cannot possibly be written."""
    if path == "-":
        return
    target = os.path.realpath(path)
    folder = os.path.dirname(target) or "."
    if os.path.isdir(target):
        raise OutputError(f"cannot open output file '{path}': Is a directory")
    if not os.path.isdir(folder):
        raise OutputError(f"cannot open output file '{path}': No such file or directory")


def write_output(path: str, data: str | bytes) -> None:
    """Write ``data`` to ``path`` (``-`` = stdout); ``OutputError`` when it cannot be written."""
    if path == "-":
        if isinstance(data, bytes):
            sys.stdout.buffer.write(data)
        else:
            sys.stdout.write(data)
        sys.stdout.flush()
        return
    target = os.path.realpath(path)
    try:
        st = os.stat(target)
    except FileNotFoundError:
        st = None
    except OSError as err:
        raise OutputError(f"cannot open output file '{path}': {err.strerror}") from None
    try:
        if st is not None and not stat.S_ISREG(st.st_mode):
            with open(target, "wb" if isinstance(data, bytes) else "w") as f:
                f.write(data)
        else:
            _replace(target, data, st)
    except OSError as err:
        raise OutputError(f"cannot open output file '{path}': {err.strerror}") from None


def _replace(target: str, data: str | bytes, st: os.stat_result | None) -> None:
    folder = os.path.dirname(target) or "."
    fd, tmp = tempfile.mkstemp(dir=folder, prefix=".mini-iree-", suffix=".tmp")
    try:
        with os.fdopen(fd, "wb" if isinstance(data, bytes) else "w") as f:
            f.write(data)
        # mkstemp makes the file 0600; give it the mode the real file has (or would get).
        os.chmod(tmp, stat.S_IMODE(st.st_mode) if st is not None else _umask_mode())
        if st is not None and hasattr(os, "chown") and (st.st_uid, st.st_gid) != (os.getuid(), os.getgid()):
            try:
                os.chown(tmp, st.st_uid, st.st_gid)
            except OSError:
                pass  # only the owner or root may give a file away; the contents are what matters
        os.replace(tmp, target)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise
