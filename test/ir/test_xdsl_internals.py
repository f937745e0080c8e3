"""The canary: every assumption ``compiler/ir/xdsl_internals.py`` makes about xDSL, checked on real objects.

mini-iree's fast paths read a few of xDSL's private attributes and closures,
all through ``xdsl_internals``. When an xDSL upgrade renames one, the fast
paths would at best fall back to the slow ones without a word; these tests
fail instead, each naming the assumption that broke. The contract was written
against xDSL ``WRITTEN_AGAINST``: on another version, start reading here.
"""

from __future__ import annotations

import inspect
import re
from collections.abc import Callable
from importlib.metadata import version

import pytest
from xdsl.dialects import arith, test
from xdsl.dialects.builtin import IndexType, IntegerAttr, ModuleOp
from xdsl.ir import Block, Operation, Region
from xdsl.irdl.declarative_assembly_format import FormatProgram
from xdsl.pattern_rewriter import (
    GreedyRewritePatternApplier,
    PatternRewriter,
    PatternRewriteWalker,
    RewritePattern,
    op_type_rewrite_pattern,
)

from mini_iree.compiler.ir import xdsl_internals as xi

WRITTEN_AGAINST = "0.74.0"
INSTALLED = version("xdsl")

# Op classes of mini-iree's own dialects with a fast plan today: 252 with IRDL's
# generated verifier, 123 with a declarative format (xDSL 0.74). A little under,
# so that a few ops changing hands do not trip it, but a silent fallback does.
MIN_GENERATED_VERIFIERS = 240
MIN_GENERATED_FORMATS = 115


def _broken(assumption: str) -> str:
    return (
        f"xDSL {INSTALLED} broke an assumption of compiler/ir/xdsl_internals.py "
        f"(written against xDSL {WRITTEN_AGAINST}): {assumption}"
    )


def _program() -> tuple[Region, Block, Block, list[Operation]]:
    """Two blocks: constants and a test.termop using them that branches to the second, holding one more op."""
    constants = [arith.ConstantOp(IntegerAttr(i, IndexType())) for i in range(2)]
    second = Block(arg_types=[IndexType()])
    user = test.TestTermOp(operands=[constants[0].result, constants[1].result], successors=[second])
    tail = test.TestOp(operands=[second.args[0]])
    second.add_op(tail)
    first = Block([*constants, user])
    region = Region([first, second])
    ModuleOp(Region(Block([test.TestOp(regions=[region])])))
    return region, first, second, [*constants, user, tail]


def _accessor_cases() -> list[tuple[str, Callable[[], tuple[object, object]]]]:
    """(accessor name, a thunk giving (what the accessor reads, what the public API says))."""

    def case(name: str, subject: Callable[[], object], public: Callable[[object], object]):
        def thunk() -> tuple[object, object]:
            obj = subject()
            return getattr(xi, name)(obj), public(obj)

        return name, thunk

    def region():
        return _program()[0]

    def block():
        return _program()[1]

    def second_block():
        return _program()[2]

    def user():
        return _program()[3][2]

    def constant():
        return _program()[3][0]

    return [
        case("operand_tuple", user, lambda op: tuple(op.operands)),
        case("successor_tuple", user, lambda op: tuple(op.successors)),
        case("block_arg_tuple", second_block, lambda b: tuple(b.args)),
        case("value_type", lambda: user().operands[0], lambda v: v.type),
        case("first_block", region, lambda r: r.first_block),
        case("last_block", region, lambda r: r.last_block),
        case("next_block", block, lambda b: b.next_block),
        case("prev_block", second_block, lambda b: b.prev_block),
        case("first_op", block, lambda b: b.first_op),
        case("last_op", block, lambda b: b.last_op),
        case("next_op", constant, lambda op: op.next_op),
        case("prev_op", user, lambda op: op.prev_op),
        case("first_use", lambda: constant().results[0], lambda v: next(iter(v.uses))),
        case("next_use", lambda: constant().results[0].first_use, lambda use: None),
        case("use_operation", lambda: constant().results[0].first_use, lambda use: use.operation),
    ]


def test_the_version_the_contract_was_written_against() -> None:
    # Not a failure by itself: the other tests say what broke. This one says where to start.
    assert INSTALLED == WRITTEN_AGAINST, _broken(
        "the version changed; if every other test here passes, raise WRITTEN_AGAINST"
    )


@pytest.mark.parametrize(("name", "thunk"), _accessor_cases(), ids=lambda c: c if isinstance(c, str) else "")
def test_each_accessor_reads_the_attribute_the_public_api_reads(
    name: str, thunk: Callable[[], tuple[object, object]]
) -> None:
    attribute = getattr(xi, name).__reduce__()[1][0]
    try:
        fast, public = thunk()
    except AttributeError as err:
        pytest.fail(_broken(f"`{name}` reads `{attribute}`, which the object no longer has ({err})"))
    assert fast == public, _broken(f"`{name}` reads `{attribute}`, which no longer holds what the public API gives")


def test_the_walks_read_the_linked_lists() -> None:
    region, _, _, _ = _program()
    module = region.parent_op().parent_op()
    assert xi.nested_ops(module) == list(module.walk()), _broken("nested_ops no longer walks as Operation.walk")
    for reverse in (False, True):
        assert xi.nested_ops_post_order(module, reverse) == list(module.walk(region_first=True, reverse=reverse)), (
            _broken("nested_ops_post_order no longer walks as Operation.walk(region_first=True)")
        )


def test_generated_printers_are_print_with_format_over_a_format_program() -> None:
    cls = arith.AddiOp
    assert cls.assembly_format, "the probe op lost its assembly format: choose another"
    printer = cls.__dict__.get("print")
    assert getattr(printer, "__name__", None) == "print_with_format", _broken(
        "irdl_op_definition no longer names the printer it generates from an assembly_format `print_with_format`"
    )
    assert any(isinstance(cell.cell_contents, FormatProgram) for cell in printer.__closure__ or ()), _broken(
        "the generated `print_with_format` no longer holds its FormatProgram in its closure"
    )
    assert xi.has_generated_printer(cls)
    assert isinstance(xi.generated_format_program(cls), FormatProgram)
    assert xi.generated_format_program(ModuleOp) is None  # a print of its own


@pytest.mark.parametrize("cls", [arith.AddiOp, arith.ConstantOp, test.TestOp], ids=lambda c: c.__name__)
def test_generated_verifiers_close_over_op_def_and_custom_verify(cls: type[Operation]) -> None:
    code = cls.verify_.__code__
    assert set(code.co_freevars) in ({"op_def"}, {"op_def", "custom_verify"}), _broken(
        f"IRDL's generated `verify_` closes over {sorted(code.co_freevars)}, not op_def[, custom_verify]"
    )
    parts = xi.generated_verifier_parts(cls)
    assert parts is not None, _broken("generated_verifier_parts no longer finds the op_def in the closure")
    assert parts[0] is cls.get_irdl_definition()


def test_a_custom_verify_is_the_classes_own() -> None:
    class_verify = arith.ConstantOp.__dict__.get("verify_")
    parts = xi.generated_verifier_parts(arith.ConstantOp)
    assert parts is not None and class_verify is not None
    # IRDL wraps the class's own verify_: the closure holds the original function.
    custom = parts[1]
    assert custom is not None and custom.__name__ == "verify_", _broken(
        "the generated `verify_` no longer closes over the class's own `verify_` as `custom_verify`"
    )


def _our_op_classes() -> set[type[Operation]]:
    from mini_iree.dialects import _OURS, get_all_dialects

    return {op for name, load in get_all_dialects().items() if name in _OURS for op in load().operations}


def test_most_of_our_op_classes_have_a_generated_verifier_plan() -> None:
    planned = [cls for cls in _our_op_classes() if xi.generated_verifier_parts(cls) is not None]
    assert len(planned) >= MIN_GENERATED_VERIFIERS, _broken(
        f"only {len(planned)} op classes of mini-iree's dialects (at least {MIN_GENERATED_VERIFIERS} expected) "
        "have a verify_ generated_verifier_parts understands: the incremental verifier falls back to xDSL's"
    )


def test_most_of_our_op_classes_have_a_generated_format_program() -> None:
    planned = [cls for cls in _our_op_classes() if xi.generated_format_program(cls) is not None]
    assert len(planned) >= MIN_GENERATED_FORMATS, _broken(
        f"only {len(planned)} op classes of mini-iree's dialects (at least {MIN_GENERATED_FORMATS} expected) "
        "have a FormatProgram generated_format_program finds: the format printer falls back to xDSL's"
    )


# --- the pattern walker ---


def test_the_walker_populates_its_worklist_in_populate_worklist() -> None:
    method = getattr(PatternRewriteWalker, "_populate_worklist", None)
    assert method is not None, _broken("PatternRewriteWalker has no `_populate_worklist` to override")
    assert list(inspect.signature(method).parameters) == ["self", "op"], _broken(
        f"`_populate_worklist` takes {list(inspect.signature(method).parameters)}, not (self, op)"
    )


class _Record(RewritePattern):
    def __init__(self) -> None:
        self.seen: list[Operation] = []

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter) -> None:
        self.seen.append(op)


def test_a_sweep_starts_from_the_ops_sweep_ops_lists() -> None:
    region, _, _, ops = _program()
    chosen = [ops[3], ops[0]]

    class _Chosen(xi.SweepPopulatingWalker):
        def sweep_ops(self, op):
            return chosen

    record = _Record()
    _Chosen(GreedyRewritePatternApplier([record], dce_enabled=False)).rewrite_region(region)
    assert record.seen == chosen, _broken(
        "the walker no longer fills each sweep's worklist through `_populate_worklist` and pops `_worklist` "
        "in push-reversed order"
    )

    record = _Record()
    xi.SweepPopulatingWalker(GreedyRewritePatternApplier([record], dce_enabled=False)).rewrite_region(region)
    assert record.seen == ops  # sweep_ops None: xDSL's own population, every op in walk order


def test_op_type_rewrite_pattern_keeps_the_expected_type_in_its_closure() -> None:
    class _Constants(RewritePattern):
        @op_type_rewrite_pattern
        def match_and_rewrite(self, op: arith.ConstantOp, rewriter: PatternRewriter) -> None: ...

    class _Either(RewritePattern):
        @op_type_rewrite_pattern
        def match_and_rewrite(self, op: arith.ConstantOp | test.TestOp, rewriter: PatternRewriter) -> None: ...

    assert xi.op_type_pattern_types(_Constants.match_and_rewrite) == (arith.ConstantOp,), _broken(
        "op_type_rewrite_pattern's wrapper no longer closes over `expected_type` and `func`: the pattern walker "
        "cannot tell which ops a pattern rewrites and visits every op"
    )
    assert xi.op_type_pattern_types(_Either.match_and_rewrite) == (arith.ConstantOp, test.TestOp)
    assert xi.op_type_pattern_types(_Record.match_and_rewrite) is None


# --- the lexer, value names, resources ---


def test_the_string_literal_lexer_reads_the_patched_class_attributes(monkeypatch: pytest.MonkeyPatch) -> None:
    from xdsl.utils.mlir_lexer import MLIRLexer, MLIRTokenKind

    import mini_iree.compiler.ir.parsing as parsing
    from xdsl.utils.lexer import Input

    def lex(text: str):
        return MLIRLexer(Input(text, "<canary>")).lex()

    assert MLIRLexer._unescaped_characters_regex is parsing._STRING_LITERAL, _broken(
        "MLIRLexer has no class attribute `_unescaped_characters_regex` holding mini-iree's string pattern"
    )
    # The patched lexer is the one `lex` calls: a UTF-8 escape makes a string, not bytes.
    assert lex(r'"x\C3\A9"').kind == MLIRTokenKind.STRING_LIT, _broken(
        "MLIRLexer.lex no longer lexes string literals through `_lex_string_literal`"
    )
    # And xDSL's `_lex_string_literal` matches with the class attribute.
    monkeypatch.setattr(MLIRLexer, "_unescaped_characters_regex", re.compile('"a"'))
    assert lex('"a"').kind == MLIRTokenKind.STRING_LIT
    with pytest.raises(Exception):  # noqa: B017, PT011 - any lexing error: "b" no longer matches
        lex('"b"')
        pytest.fail(_broken("`_lex_string_literal` no longer matches with `_unescaped_characters_regex`"))


def test_a_name_hint_is_set_unchecked() -> None:
    value = arith.ConstantOp(IntegerAttr(0, IndexType())).result
    xi.set_name_hint_unchecked(value, "x_0")
    assert value.name_hint == "x_0", _broken("SSAValue.name_hint no longer reads `_name`")
    xi.set_name_hint_unchecked(value, None)
    assert value.name_hint is None


def test_unbacked_resources_are_forgotten() -> None:
    from xdsl.dialect_interfaces.op_asm import OpAsmDialectInterface
    from xdsl.dialects.builtin import Builtin

    interface = Builtin.get_interface(OpAsmDialectInterface)
    assert interface is not None
    storage = getattr(interface, "_blob_storage", None)
    assert isinstance(storage, dict), _broken("OpAsmDialectInterface keeps no `_blob_storage` dict")
    key = interface.declare_resource("canary")
    assert key in storage, _broken("declared resource handles are no longer kept in `_blob_storage`")
    xi.forget_unbacked_resources(interface)
    assert key not in storage
