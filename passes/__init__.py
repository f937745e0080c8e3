"""Passes mini-iree-opt knows, registered lazily under IREE's flag names.

Each pass lives in its own module named after it (``set_encoding.py`` for
``iree-dispatch-creation-set-encoding``). Add an entry to ``_PASSES`` and the pass
is available to ``-p`` and ``--pass-pipeline``; its module is imported only when a
pipeline names it.
"""

from collections.abc import Callable
from importlib import import_module

from xdsl.passes import ModulePass

# flag name -> "module:Class"
_PASSES: dict[str, str] = {}

# Upstream passes that make pipelines and tests pleasant.
_XDSL_PASSES: dict[str, str] = {
    "canonicalize": "xdsl.transforms.canonicalize:CanonicalizePass",
    "cse": "xdsl.transforms.common_subexpression_elimination:CommonSubexpressionElimination",
    "dce": "xdsl.transforms.dead_code_elimination:DeadCodeElimination",
}


def _factory(spec: str) -> Callable[[], type[ModulePass]]:
    module_name, cls = spec.split(":")

    def load() -> type[ModulePass]:
        return getattr(import_module(module_name), cls)

    return load


def get_all_passes() -> dict[str, Callable[[], type[ModulePass]]]:
    """Every pass flag, mapped to a loader of its pass class."""
    return {name: _factory(spec) for name, spec in {**_XDSL_PASSES, **_PASSES}.items()}


# Named pipelines: name -> pipeline text in -p syntax, expanded in place wherever
# the name appears in -p or --pass-pipeline.
_PIPELINES: dict[str, str] = {}


def get_all_pipelines() -> dict[str, str]:
    """Every named pipeline, mapped to the passes it stands for."""
    return dict(_PIPELINES)
