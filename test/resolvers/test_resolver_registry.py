"""The resolver interface and its registry: passes ask a `LayoutResolver`, only the registry looks at classes."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest
from conftest import REPO
from xdsl.dialects.builtin import DYNAMIC_INDEX, Float32Type, IntAttr, TensorType

from mini_iree.compiler.era import IREE_3_13, WALKTHROUGH
from mini_iree.compiler.resolvers import get_resolver, resolve_encoding_info, serialize_encoding
from mini_iree.compiler.resolvers.cpu import CPUResolver, VMVXResolver
from mini_iree.compiler.resolvers.generic import (
    IdentityResolver,
    SpecializationResolver,
    UnspecializedEncodingResolver,
    UnsupportedResolver,
)
from mini_iree.compiler.resolvers.gpu import GPUResolver
from mini_iree.compiler.resolvers.padding import GPUPaddingResolver
from mini_iree.compiler.resolvers.registry import is_resolver, resolver_for, resolver_of
from mini_iree.compiler.resolvers.targets import parse_target
from mini_iree.dialects import hal, iree_cpu, iree_encoding, iree_gpu
from mini_iree.dialects.iree_codegen import MaterializeEncodingInfo
from mini_iree.dialects.iree_encoding import PaddingAttr

from test_cpu_resolver import encoding  # noqa: E402 - the shared matmul-encoding builder

F32 = Float32Type()

_IMPLEMENTATIONS = [
    (iree_cpu.CPUEncodingResolverAttr(), CPUResolver),
    (iree_cpu.CPUEncodingLayoutAttr(), CPUResolver),
    (iree_cpu.VMVXEncodingResolverAttr(), VMVXResolver),
    (iree_gpu.GPUEncodingResolverAttr(), GPUResolver),
    (iree_gpu.GPUPaddingResolverAttr(), GPUPaddingResolver),
    (iree_encoding.IdentityResolverAttr(), IdentityResolver),
    (iree_encoding.IdentityEncodingAttr(), IdentityResolver),
    (iree_encoding.UnsupportedResolverAttr(), UnsupportedResolver),
    (iree_encoding.UnsupportedEncodingAttr(), UnsupportedResolver),
    (iree_encoding.SpecializationResolverAttr(IntAttr(3)), SpecializationResolver),
    (iree_encoding.UnspecializedEncodingAttr(IntAttr(3)), UnspecializedEncodingResolver),
]


@pytest.mark.parametrize(("attr", "implementation"), _IMPLEMENTATIONS, ids=lambda x: getattr(x, "name", ""))
def test_every_resolver_attribute_has_its_implementation(attr, implementation):
    resolver = resolver_for(attr)
    assert type(resolver) is implementation and resolver.attr == attr
    assert is_resolver(attr)


def test_what_is_no_resolver_has_no_implementation_and_a_target_without_one_gets_the_identity():
    assert resolver_for(None) is None and resolver_for(iree_encoding.IdentityAttr()) is None
    assert not is_resolver(PaddingAttr([0, 0]))
    bare = hal.ExecutableTargetAttr("llvm-cpu", "embedded-elf-x86_64", {})
    assert type(resolver_of(bare)) is IdentityResolver
    assert type(resolver_of(parse_target("gfx942:encoding-layout-resolver=none"))) is IdentityResolver


@pytest.mark.parametrize(
    ("name", "packs", "pads"),
    [
        ("x86_64:+avx512f", True, False),
        ("vmvx", True, False),
        ("gfx942", True, False),
        ("gfx942:encoding-layout-resolver=pad", False, True),
        ("gfx942:encoding-layout-resolver=none", False, False),
    ],
)
def test_capabilities_are_answered_by_the_resolver(name, packs, pads):
    resolver = resolver_of(parse_target(name))
    assert (resolver.packs, resolver.pads) == (packs, pads)
    assert (get_resolver(parse_target(name)) is not None) == packs


def test_layouts_of_a_type_as_each_resolver_gives_them():
    enc = encoding(0)
    typed = TensorType(F32, [DYNAMIC_INDEX, DYNAMIC_INDEX], enc)
    plain = TensorType(F32, [DYNAMIC_INDEX, DYNAMIC_INDEX])
    cpu = resolver_of(parse_target("x86_64:+avx512f"))
    layout = cpu.get_layout(typed, WALKTHROUGH)
    assert layout == serialize_encoding(cpu.target, enc).layouts.data[0]
    assert cpu.serialized_info(layout) == resolve_encoding_info(cpu.target, enc)
    vmvx = resolver_of(parse_target("vmvx"))
    assert vmvx.runtime_source(vmvx.get_layout(typed, WALKTHROUGH)) == enc
    identity = resolver_for(iree_encoding.IdentityResolverAttr())
    assert identity.get_layout(typed, WALKTHROUGH) == iree_encoding.IdentityAttr()
    assert resolver_for(iree_encoding.UnsupportedResolverAttr()).get_layout(typed, WALKTHROUGH) is None
    assert resolver_for(iree_encoding.SpecializationResolverAttr(IntAttr(3))).get_layout(typed, WALKTHROUGH) == (
        iree_encoding.SpecializedAttr(IntAttr(3), plain)
    )
    # A packing resolver and a non-data-tiling encoding: the identity encoding_info.
    padded = TensorType(F32, [DYNAMIC_INDEX, 1000], PaddingAttr([0, DYNAMIC_INDEX]))
    assert cpu.get_layout(padded, WALKTHROUGH) == iree_cpu.CPUEncodingResolverAttr.with_encoding_info(
        MaterializeEncodingInfo()
    )


def test_the_gpu_padding_resolver_is_configured_for_its_target():
    resolver = resolver_of(parse_target("gfx942:encoding-layout-resolver=pad"))
    assert resolver.configured() == iree_gpu.GPUPaddingResolverAttr(128, 4)
    padded = TensorType(F32, [DYNAMIC_INDEX, 1024], PaddingAttr([0, DYNAMIC_INDEX]))
    # 4 KiB rows sit in one cache set: one more 128-byte line each.
    assert resolver.get_layout(padded, WALKTHROUGH) == PaddingAttr([0, 32])
    assert resolver_for(resolver.configured()).padding_layout(padded) == PaddingAttr([0, 32])


def test_the_gpu_resolver_follows_the_era():
    target = parse_target("gfx942")
    enc = encoding(0)
    walkthrough = resolver_of(target).encoding_info(enc, WALKTHROUGH)
    iree313 = resolver_of(target).encoding_info(enc, IREE_3_13)
    assert walkthrough is not None and iree313 is not None
    assert walkthrough.swizzle != iree313.swizzle


# The files that ask resolvers questions: none may branch on a resolver's class.
_ASKERS = [
    "passes/specialize_encodings.py",
    "passes/materialize_device_encoding.py",
    "passes/materialize_encoding_into_padding.py",
    "compiler/materialize_encoding/layouts.py",
    "compiler/materialize_encoding/patterns.py",
    "compiler/materialize_encoding/contraction.py",
    *(str(p.relative_to(REPO)) for p in sorted((REPO / "compiler" / "resolvers").glob("*.py"))
      if p.name != "registry.py"),  # fmt: skip
]
_RESOLVER_CLASSES = {
    "CPUEncodingResolverAttr",
    "CPUEncodingLayoutAttr",
    "VMVXEncodingResolverAttr",
    "GPUEncodingResolverAttr",
    "GPUPaddingResolverAttr",
    "IdentityResolverAttr",
    "IdentityEncodingAttr",
    "UnsupportedResolverAttr",
    "UnsupportedEncodingAttr",
    "SpecializationResolverAttr",
    "UnspecializedEncodingAttr",
    "CPUResolver",
    "VMVXResolver",
    "GPUResolver",
    "GPUPaddingResolver",
}


def _class_checks(path: Path) -> list[int]:
    """Lines with `isinstance(x, C)` / `type(x) is C` where C names a resolver class."""
    found = []
    for node in ast.walk(ast.parse(path.read_text())):
        checked = None
        if isinstance(node, ast.Call) and getattr(node.func, "id", None) == "isinstance" and len(node.args) == 2:
            checked = node.args[1]
        elif isinstance(node, ast.Compare) and any(isinstance(o, ast.Is | ast.IsNot | ast.Eq) for o in node.ops):
            checked = node
        if checked is None:
            continue
        names = {n.id for n in ast.walk(checked) if isinstance(n, ast.Name)}
        names |= {n.attr for n in ast.walk(checked) if isinstance(n, ast.Attribute)}
        if names & _RESOLVER_CLASSES:
            found.append(node.lineno)
    return found


@pytest.mark.parametrize("relative", _ASKERS)
def test_only_the_registry_looks_at_a_resolvers_class(relative):
    assert _class_checks(REPO / relative) == []


def test_the_check_sees_a_class_branch(tmp_path):
    sample = tmp_path / "sample.py"
    sample.write_text(
        "if isinstance(attr, iree_gpu.GPUEncodingResolverAttr):\n    pass\nok = type(a) is VMVXResolver\n"
    )
    assert _class_checks(sample) == [1, 3]
