"""mini-iree: IREE's data-tiling compiler, small enough to read, executable at every step.

The import package maps onto the repository's top-level folders:
``mini_iree.dialects`` (dialects/), ``mini_iree.passes`` (passes/) and
``mini_iree.compiler`` (compiler/: printer, diagnostics, drivers, ...).
"""

__version__ = "0.1.0"
