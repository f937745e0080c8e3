"""Structural checks over every attribute class of every dialect we register.

An attribute's equality and hash come from its dataclass fields. A parameter
declared on an undecorated base class is not a dataclass field, so two
attributes that differ only there would compare equal, share one ``#alias`` and
be uniqued into one. Every parameter must therefore be a field.
"""

import dataclasses

import pytest
from xdsl.ir import ParametrizedAttribute

from mini_iree.dialects import _OURS, get_all_dialects

OUR_DIALECTS = sorted(_OURS)


def _param_attrs(name):
    dialect = get_all_dialects()[name]()
    return [a for a in dialect.attributes if issubclass(a, ParametrizedAttribute)]


@pytest.mark.parametrize("dialect", OUR_DIALECTS)
def test_parameters_take_part_in_equality(dialect):
    bad = []
    for attr in _param_attrs(dialect):
        params = [name for name, _ in attr.get_irdl_definition().parameters]
        fields = {f.name for f in dataclasses.fields(attr)}
        missing = [p for p in params if p not in fields]
        if missing:
            bad.append(f"{attr.name}: {missing}")
    assert not bad, "parameters outside dataclass fields: " + "; ".join(bad)
