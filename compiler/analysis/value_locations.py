"""Where a value comes from in the source: MLIR's ``Value::getLoc``.

A region argument that stands for a captured value (``stream.async.execute``'s
block arguments) takes the captured value's location, as IREE's stream passes
give it.
"""

from __future__ import annotations

from xdsl.dialects.builtin import LocationAttr
from xdsl.ir import OpResult, SSAValue

from mini_iree.compiler.ir.locations import is_unknown

__all__ = ["value_location"]


def value_location(value: SSAValue, fallback: LocationAttr) -> LocationAttr:
    """MLIR's ``Value::getLoc``: the defining op's location, or the block argument's (else ``fallback``)."""
    location = value.owner.location if isinstance(value, OpResult) else getattr(value, "location", None)
    return fallback if location is None or is_unknown(location) else location
