"""Parity tests compare the layout algebra with the real implementations (pip install -e '.[parity]').

The extra installs NVIDIA's pycute (inside the nvidia-cutlass wheel) and jaxlib (XLA's shape
parser and printer); without them each parity module is skipped, saying which package is missing.
"""

from __future__ import annotations

import importlib

import pytest

EXTRA = "pip install -e '.[parity]'"


def require(module: str, what: str):
    """Import `module` or skip with the reason (the parity extra is optional)."""
    try:
        return importlib.import_module(module)
    except ImportError:
        pytest.skip(f"parity extra not installed: {what} ({module}) is missing; {EXTRA}", allow_module_level=True)
