"""Dense elements attributes with MLIR's splat storage.

MLIR's ``DenseElementsAttr`` stores a splat (every element equal) as one
element and a flag, so ``dense<0.0> : tensor<99999999xf32>`` costs a few bytes.
xDSL's ``DenseIntOrFPElementsAttr`` stores every element, and its parser builds
a Python list of them first. mini-iree keeps xDSL's class and stores a splat
as the bytes of its one element: an attribute whose data holds one element
while its type holds more is a splat. xDSL already reads it so (``is_splat()``
and the printer see one value; ``get_values()`` gives that one value), and the
interpreter broadcasts it (``interpreter.core.constant_value``).

Splat storage is the canonical form: the parser and ``dense_elements`` make it
whenever all elements are equal, so attributes compare equal exactly when
MLIR's would. Code that needs every element reads them with ``element_values``.
"""

from __future__ import annotations

from collections.abc import Sequence
from math import prod

from xdsl.dialects.builtin import BytesAttr, DenseIntOrFPElementsAttr, IntegerType

__all__ = ["dense_elements", "element_values", "is_splat"]


def dense_elements(type_, values: Sequence) -> DenseIntOrFPElementsAttr:
    """The attribute of ``type_`` holding ``values`` (one value: a splat), in splat storage when all are equal."""
    element_type = type_.get_element_type()
    if isinstance(element_type, IntegerType):
        values = [element_type.get_normalized_value(v) for v in values]
    count = prod(type_.get_shape())
    if values and all(v == values[0] for v in values):
        values = values[:1]
    elif len(values) != count:
        raise ValueError(f"{len(values)} values for a type of {count} elements")
    return DenseIntOrFPElementsAttr(type_, BytesAttr(element_type.pack(values)))


def is_splat(attr: DenseIntOrFPElementsAttr) -> bool:
    """Every element equal (an empty attribute is no splat), without unpacking the elements."""
    data = attr.data.data
    size = attr.get_element_type().compile_time_size
    if not data:
        return False
    return len(data) == size or data == data[:size] * (len(data) // size)


def element_values(attr: DenseIntOrFPElementsAttr) -> tuple:
    """Every element of ``attr`` in row-major order (a splat's value repeated)."""
    values = attr.get_values()
    count = prod(attr.get_shape())
    if len(values) == 1 and count != 1:
        return values * count
    return values
