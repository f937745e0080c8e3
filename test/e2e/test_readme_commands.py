"""Every example command of README.md runs from a clean clone.

The commands of the README's ``sh`` blocks that use the project's tools run, in
order, in an empty directory that holds only the repository's tracked
``examples/`` and ``test/`` files: each must exit 0 without a traceback, and
every repository file it names must be tracked by git (a file made by an
earlier command of the README counts too). The quick start's install and test
commands, and the clone of IREE's sources, are not run.
"""

from __future__ import annotations

import re
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import REPO

README = REPO / "README.md"
TOOLS = ("mini-iree-opt", "mini-iree-run", "mini-iree-layout", "mini-iree-walkthrough", "python -c")


def readme_commands() -> list[str]:
    """The command lines of the README's sh blocks (continuations joined, comments dropped)."""
    commands = []
    for block in re.findall(r"```sh\n(.*?)```", README.read_text(), re.S):
        for line in block.replace("\\\n", " ").splitlines():
            # A comment starts a line or follows the command after blanks (`#hal...` in quotes is not one).
            command = re.sub(r"(^|\s+)# .*$", "", line).strip()
            if command and not command.startswith("#"):
                commands.append(command)
    return commands


def runnable(command: str) -> bool:
    return command.startswith(TOOLS)


def tracked_files() -> set[str]:
    out = subprocess.run(["git", "ls-files"], cwd=REPO, capture_output=True, text=True)
    if out.returncode != 0:
        pytest.skip(f"git ls-files failed in {REPO}: not a git checkout")
    return set(out.stdout.split())


def test_the_readme_has_commands_to_run():
    commands = [c for c in readme_commands() if runnable(c)]
    assert len(commands) >= 20
    # The quick start's two commands are exactly these.
    assert "pip install -e . && mini-iree-opt -p 'data-tiling{target=gfx942}' examples/matmul.mlir" in readme_commands()
    assert "pip install -e '.[test,parity]' && pytest" in readme_commands()


def test_every_file_a_command_reads_is_in_the_repository():
    tracked = tracked_files()
    made: set[str] = set()
    for command in readme_commands():
        # What the command makes: -o FILE, --output=@FILE, np.save('FILE', ...).
        made |= set(re.findall(r"(?:-o |--output=@|np\.save\(')([\w./-]+)", command))
        for word in shlex.split(command):
            path = word.split("=", 1)[-1].lstrip("@")
            if re.fullmatch(r"[\w./-]+\.(mlir|npy)", path) and path not in tracked and path not in made:
                pytest.fail(f"README command reads '{path}', which is neither tracked nor made before: {command}")


@pytest.mark.skipif(shutil.which("mini-iree-opt") is None, reason="mini-iree-opt is not on PATH (pip install -e .)")
def test_every_tool_command_runs_from_a_clean_clone(tmp_path):
    tracked = tracked_files()
    for name in tracked:
        if name.startswith(("examples/", "test/")):
            target = tmp_path / name
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(REPO / name, target)
    (tmp_path / "docs").mkdir()
    bin_dir = str(Path(sys.executable).parent)
    for command in readme_commands():
        if not runnable(command):
            continue
        result = subprocess.run(
            ["bash", "-c", command],
            cwd=tmp_path,
            capture_output=True,
            text=True,
            timeout=600,
            env={"PATH": f"{bin_dir}:/usr/bin:/bin", "HOME": str(tmp_path)},
        )
        assert result.returncode == 0, f"{command}\n{result.stderr}"
        assert "Traceback" not in result.stderr and "internal error" not in result.stderr, command
