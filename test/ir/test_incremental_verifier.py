"""The incremental verify-each (``ModuleVerifier``) reports what a full verification reports.

Each case parses a valid module, verifies it once (the full first check), then
changes the IR the way a faulty pass could and verifies again. The incremental
check must fail, and with exactly the diagnostics (message, location, notes) of
a fresh ``verify_op_tree`` of the same IR. Valid changes must pass, and ops the
change cannot affect must not be verified again.
"""

from __future__ import annotations

import pytest
from xdsl.dialects import arith
from xdsl.dialects.builtin import FloatAttr, FunctionType, IndexType, IntegerAttr, StringAttr, TensorType, f32, i32, i64
from xdsl.ir import Operation

from mini_iree.compiler.ir import verifier as verifier_module
from mini_iree.compiler.ir.verifier import op_checks
from mini_iree.compiler.ir.diagnostics import CURRENT_OPERATION, DiagnosticError, SourceLoc
from mini_iree.compiler.ir.parsing import parse_mlir
from mini_iree.compiler.ir.verifier import ModuleVerifier, verify_op_tree
from mini_iree.compiler.tools.opt_main import MiniIREEOptMain

START = SourceLoc("input.mlir", 1, 1)

TWO_FUNCS = """\
func.func @f(%a: f32, %b: f32, %n: i32) -> f32 {
  %0 = arith.addf %a, %b : f32
  %1 = arith.mulf %0, %b : f32
  %2 = arith.addi %n, %n : i32
  return %1 : f32
}
func.func @g(%x: f32) -> f32 {
  %c = arith.constant 1.000000e+00 : f32
  %0 = arith.addf %x, %c : f32
  %1 = func.call @f(%0, %0, %n) : (f32, f32, i32) -> f32
  return %1 : f32
}
"""

# `%n` in @g is not defined there; the text is completed per test below.
TWO_FUNCS = TWO_FUNCS.replace("func.func @g(%x: f32)", "func.func @g(%x: f32, %n: i32)")

NESTED = """\
#id = affine_map<(d0) -> (d0)>
func.func @nested(%t: tensor<?xf32>, %s: f32) -> tensor<?xf32> {
  %c0 = arith.constant 0 : index
  %cst = arith.constant 2.000000e+00 : f32
  %d = tensor.dim %t, %c0 : tensor<?xf32>
  %e = tensor.empty(%d) : tensor<?xf32>
  %f = linalg.fill ins(%s : f32) outs(%e : tensor<?xf32>) -> tensor<?xf32>
  %m = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]}
      ins(%t : tensor<?xf32>) outs(%f : tensor<?xf32>) {
  ^bb0(%in: f32, %out: f32):
    %y = arith.addf %in, %cst : f32
    linalg.yield %y : f32
  } -> tensor<?xf32>
  return %m : tensor<?xf32>
}
"""


@pytest.fixture(scope="module")
def ctx():
    return MiniIREEOptMain([]).ctx


def parse(ctx, text: str):
    module = parse_mlir(ctx, text, "input.mlir")
    verifier = ModuleVerifier()
    verifier.verify(module, START)  # the first check is a full one
    return module, verifier


def ops_named(module: Operation, name: str) -> list[Operation]:
    return [op for op in module.walk() if op.name == name]


def func(module: Operation, sym: str) -> Operation:
    return next(op for op in ops_named(module, "func.func") if op.properties["sym_name"] == StringAttr(sym))


def diagnostics(error: DiagnosticError) -> list[str]:
    """The diagnostics, without the note that prints the op (the same op either way)."""
    return [str(d) for d in error.diagnostics if not d.message.startswith(CURRENT_OPERATION)]


def assert_same_error(module: Operation, verifier: ModuleVerifier) -> list[str]:
    """The incremental check fails exactly as a fresh full check does."""
    with pytest.raises(DiagnosticError) as full:
        verify_op_tree(module, START)
    with pytest.raises(DiagnosticError) as incremental:
        verifier.verify(module, START)
    assert diagnostics(incremental.value) == diagnostics(full.value)
    return diagnostics(full.value)


def test_changed_operand_type(ctx):
    module, verifier = parse(ctx, TWO_FUNCS)
    addf = ops_named(func(module, "f"), "arith.addf")[0]
    n = func(module, "f").body.block.args[2]  # an i32 where an f32 is expected
    addf.operands[0] = n
    messages = assert_same_error(module, verifier)
    assert messages[0].startswith("input.mlir:2:8: error: 'arith.addf' op")


def test_op_moved_into_another_region(ctx):
    # The moved op is unchanged; the function it now sits in is isolated from above.
    module, verifier = parse(ctx, TWO_FUNCS)
    mulf = ops_named(func(module, "f"), "arith.mulf")[0]
    g_add = ops_named(func(module, "g"), "arith.addf")[0]
    users = [use.operation for use in mulf.results[0].uses]
    for user in users:
        user.operands = [mulf.operands[1] if v is mulf.results[0] else v for v in user.operands]
    mulf.detach()
    func(module, "g").body.block.insert_op_after(mulf, g_add)
    messages = assert_same_error(module, verifier)
    assert "IsolatedFromAbove" in messages[0] or "does not dominate" in messages[0]


def test_terminator_removed(ctx):
    module, verifier = parse(ctx, TWO_FUNCS)
    ret = ops_named(func(module, "f"), "func.return")[0]
    ret.detach()
    ret.erase()
    messages = assert_same_error(module, verifier)
    assert "terminator" in messages[0]


def test_attribute_changed(ctx):
    module, verifier = parse(ctx, TWO_FUNCS)
    constant = ops_named(module, "arith.constant")[0]
    constant.properties["value"] = IntegerAttr(1, i64)  # the result stays f32
    assert_same_error(module, verifier)


def test_parent_type_read_by_the_terminator(ctx):
    # Only the function's type changes; its `return`, unchanged, no longer matches it.
    module, verifier = parse(ctx, TWO_FUNCS)
    f = func(module, "f")
    f.properties["function_type"] = FunctionType.from_lists([f32, f32, i32], [i32])
    messages = assert_same_error(module, verifier)
    assert "'func.return' op" in messages[0]


def test_producer_moved_after_its_user(ctx):
    # The user is not touched at all: only the op defining its operand moves.
    module, verifier = parse(ctx, TWO_FUNCS)
    addf, mulf = ops_named(func(module, "f"), "arith.addf")[0], ops_named(func(module, "f"), "arith.mulf")[0]
    addf.detach()
    mulf.parent.insert_op_after(addf, mulf)
    messages = assert_same_error(module, verifier)
    assert messages == [
        "input.mlir:3:8: error: operand #0 does not dominate this use",
        "input.mlir:2:8: note: operand defined here (op in the same block)",
    ]


def test_user_enclosing_op_moved_before_the_producer(ctx):
    # The generic moves above the fill whose result it reads.
    module, verifier = parse(ctx, NESTED)
    generic = ops_named(module, "linalg.generic")[0]
    fill = ops_named(module, "linalg.fill")[0]
    generic.detach()
    fill.parent.insert_op_before(generic, fill)
    messages = assert_same_error(module, verifier)
    assert messages[0].startswith("input.mlir:8:8: error: operand #1 does not dominate this use")


def test_definition_moved_below_the_op_around_its_use(ctx):
    # `arith.addf %in, %cst` in the generic's body is untouched and so is the
    # generic; only the constant it reads moves below the generic.
    module, verifier = parse(ctx, NESTED)
    cst = next(op for op in ops_named(module, "arith.constant") if isinstance(op.properties["value"], FloatAttr))
    ret = ops_named(module, "func.return")[0]
    cst.detach()
    ret.parent.insert_op_before(cst, ret)
    messages = assert_same_error(module, verifier)
    assert messages == [
        "input.mlir:11:10: error: operand #1 does not dominate this use",
        "input.mlir:4:10: note: operand defined here (op in a parent region)",
    ]


def test_symbol_user_whose_symbol_changed(ctx):
    # The call is untouched; the function it names now returns another type.
    module, verifier = parse(ctx, TWO_FUNCS)
    f = func(module, "f")
    f.properties["function_type"] = FunctionType.from_lists([f32, f32, i32], [i32])
    ops_named(f, "func.return")[0].operands = [ops_named(f, "arith.addi")[0].results[0]]
    messages = assert_same_error(module, verifier)
    assert "'func.call' op" in messages[0]


def test_symbol_renamed_under_a_caller(ctx):
    module, verifier = parse(ctx, TWO_FUNCS)
    func(module, "f").properties["sym_name"] = StringAttr("h")
    messages = assert_same_error(module, verifier)
    assert "'func.call' op" in messages[0]


def test_valid_change_passes_and_verifies_only_what_it_can_affect(ctx, monkeypatch):
    module, verifier = parse(ctx, NESTED)
    verified: list[str] = []
    original = verifier_module.verify_one

    def counting(op, fallback, own, isolation_scope):
        verified.append(op.name)
        original(op, fallback, own, isolation_scope)

    monkeypatch.setattr(verifier_module, "verify_one", counting)
    # Nothing changed: nothing to verify.
    verifier.verify(module, START)
    assert verified == []
    # A new op before the `tensor.dim`: the new op and the ops around it, not the linalg.map body.
    dim = ops_named(module, "tensor.dim")[0]
    c = arith.ConstantOp(IntegerAttr(7, i32))
    dim.parent.insert_op_before(c, dim)
    verifier.verify(module, START)
    assert "arith.constant" in verified and "func.func" in verified
    assert "linalg.yield" not in verified and "arith.addf" not in verified


def test_invalid_then_fixed_then_broken_again(ctx):
    # After a failed check the next one starts from scratch and still finds later breakage.
    module, verifier = parse(ctx, TWO_FUNCS)
    constant = ops_named(module, "arith.constant")[0]
    good = constant.properties["value"]
    constant.properties["value"] = IntegerAttr(1, i64)
    assert_same_error(module, verifier)
    constant.properties["value"] = good
    verifier.verify(module, START)
    addi = ops_named(module, "arith.addi")[0]
    addi.operands[0] = func(module, "f").body.block.args[0]
    assert_same_error(module, verifier)


def test_op_moved_within_a_block(ctx):
    # Two ops in the middle of a block swap places; neither op nor the function
    # changes otherwise, so only the order of the block tells.
    module, verifier = parse(ctx, NESTED)
    dim, empty = ops_named(module, "tensor.dim")[0], ops_named(module, "tensor.empty")[0]
    dim.detach()
    empty.parent.insert_op_after(dim, empty)
    messages = assert_same_error(module, verifier)
    assert messages == [
        "input.mlir:6:8: error: operand #0 does not dominate this use",
        "input.mlir:5:8: note: operand defined here (op in the same block)",
    ]


def test_op_moved_above_a_definition_its_body_uses(ctx):
    # The generic (reading only arguments) moves above the constant its body
    # reads; the constant itself keeps its place and its neighbours.
    text = NESTED.replace("outs(%f : tensor<?xf32>)", "outs(%t : tensor<?xf32>)")
    text = text.replace("  %cst = arith.constant 2.000000e+00 : f32\n", "  %c1 = arith.constant 1 : index\n  %cst = arith.constant 2.000000e+00 : f32\n")
    module, verifier = parse(ctx, text)
    generic = ops_named(module, "linalg.generic")[0]
    c0 = ops_named(module, "arith.constant")[0]
    generic.detach()
    c0.parent.insert_op_after(generic, c0)
    messages = assert_same_error(module, verifier)
    assert messages[0] == "input.mlir:12:10: error: operand #1 does not dominate this use"


MATMUL = """\
func.func @mm(%a: tensor<?x?xf32>, %b: tensor<?x?xf32>, %s: f32) -> tensor<?x?xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %m = tensor.dim %a, %c0 : tensor<?x?xf32>
  %n = tensor.dim %b, %c1 : tensor<?x?xf32>
  %e = tensor.empty(%m, %n) : tensor<?x?xf32>
  %f = linalg.fill ins(%s : f32) outs(%e : tensor<?x?xf32>) -> tensor<?x?xf32>
  %r = linalg.matmul ins(%a, %b : tensor<?x?xf32>, tensor<?x?xf32>) outs(%f : tensor<?x?xf32>) -> tensor<?x?xf32>
  return %r : tensor<?x?xf32>
}
"""


def counting_verifications(monkeypatch) -> list[str]:
    verified: list[str] = []
    original = verifier_module.verify_one

    def counting(op, fallback, own, isolation_scope):
        verified.append(op.name)
        original(op, fallback, own, isolation_scope)

    monkeypatch.setattr(verifier_module, "verify_one", counting)
    return verified


def test_user_reading_its_producer_verified_again(ctx):
    # Only the constant changes; the `linalg.pack` using it as a tile, untouched,
    # reads the constant's value (a zero tile is invalid).
    text = """\
func.func @tiles(%src: tensor<?x?xf32>, %dest: tensor<?x?x?x16xf32>, %pad: f32) -> tensor<?x?x?x16xf32> {
  %c8 = arith.constant 8 : index
  %pack = linalg.pack %src padding_value(%pad : f32) inner_dims_pos = [0, 1] inner_tiles = [%c8, 16] into %dest : tensor<?x?xf32> -> tensor<?x?x?x16xf32>
  return %pack : tensor<?x?x?x16xf32>
}
"""
    module, verifier = parse(ctx, text)
    ops_named(module, "arith.constant")[0].properties["value"] = IntegerAttr(0, IndexType())
    messages = assert_same_error(module, verifier)
    assert messages[0] == "input.mlir:3:11: error: 'linalg.pack' op invalid zero tile factor"


def test_self_contained_user_of_a_changed_producer_not_verified_again(ctx, monkeypatch):
    # The fill gets a new (valid) attribute: its user, the matmul, reads only
    # itself and is left alone; the fill and the function around it are checked.
    module, verifier = parse(ctx, MATMUL)
    verified = counting_verifications(monkeypatch)
    ops_named(module, "linalg.fill")[0].attributes["tag"] = StringAttr("x")
    verifier.verify(module, START)
    assert "linalg.fill" in verified and "func.func" in verified
    assert "linalg.matmul" not in verified


def test_self_contained_ops_in_a_changed_parent_not_verified_again(ctx, monkeypatch):
    # The function gets a new attribute: nothing nested in it reads that.
    module, verifier = parse(ctx, MATMUL)
    verified = counting_verifications(monkeypatch)
    func(module, "mm").attributes["tag"] = StringAttr("x")
    verifier.verify(module, START)
    assert verified.count("func.func") == 1
    assert not {"tensor.dim", "tensor.empty", "linalg.fill", "linalg.matmul", "linalg.yield"} & set(verified)


def test_self_contained_op_left_last_in_its_block_still_fails(ctx):
    # The matmul reads only itself, but once the return is gone it ends a block
    # that needs a terminator.
    module, verifier = parse(ctx, MATMUL)
    ret = ops_named(module, "func.return")[0]
    ret.detach()
    ret.erase()
    messages = assert_same_error(module, verifier)
    assert messages[0].split("error: ", 1)[1].startswith('block with no terminator, has %0 = "linalg.matmul"')


def test_self_contained_op_with_a_changed_own_type_still_fails(ctx):
    # Changing an operand to one of another type is a change of the op itself.
    module, verifier = parse(ctx, MATMUL)
    matmul = ops_named(module, "linalg.matmul")[0]
    matmul.operands[2] = func(module, "mm").body.block.args[2]  # an f32 where a tensor is expected
    messages = assert_same_error(module, verifier)
    assert "'linalg.matmul' op" in messages[0]


def test_own_constraints_remembered_per_type_and_attribute_objects(ctx, monkeypatch):
    # A second full check of the same IR checks no op's own constraints again;
    # an op given an invalid attribute object is still checked and fails.
    module, _ = parse(ctx, TWO_FUNCS)
    checked: list[str] = []
    original = op_checks._Plan._check_own

    def counting(plan, op):
        checked.append(op.name)
        return original(plan, op)

    monkeypatch.setattr(op_checks._Plan, "_check_own", counting)
    verify_op_tree(module, START)
    assert checked == []
    ops_named(module, "arith.constant")[0].properties["value"] = IntegerAttr(1, i64)
    with pytest.raises(DiagnosticError):
        verify_op_tree(module, START)
    assert "arith.constant" in checked


def test_contraction_signature_remembered_but_other_types_checked(ctx):
    # Two matmuls: the first verifies (and is remembered); the second, given an
    # init of another type than its result, still fails.
    text = MATMUL.replace("  return %r", "  %r2 = linalg.matmul ins(%a, %b : tensor<?x?xf32>, tensor<?x?xf32>) outs(%f : tensor<?x?xf32>) -> tensor<?x?xf32>\n  return %r")
    module, verifier = parse(ctx, text)
    second = ops_named(module, "linalg.matmul")[1]
    second.operands[2] = func(module, "mm").body.block.args[0]
    verify_op_tree(module, START)  # same type: still valid
    cast = ops_named(module, "tensor.empty")[0]
    other = parse_mlir(ctx, "%x = \"test.op\"() : () -> tensor<4x?xf32>", "other.mlir")
    value = ops_named(other, "test.op")[0]
    value.detach()
    cast.parent.insert_op_before(value, cast)
    second.operands[2] = value.results[0]
    messages = assert_same_error(module, verifier)
    assert "'linalg.matmul' op" in messages[0]


# -- moves the previous op of each op does not show --------------------------------

REORDER = """\
func.func @r(%a: f32) -> f32 {
  %s = arith.addf %a, %a : f32
  %p = arith.mulf %a, %a : f32
  %d = arith.addf %p, %a : f32
  %q = arith.subf %a, %a : f32
  %u = arith.mulf %d, %a : f32
  %t = arith.addf %u, %s : f32
  return %t : f32
}
"""


def test_pair_moved_past_its_user_keeping_each_ops_neighbour(ctx):
    # `%p, %d` move after `%u`, which reads `%d`: the op before `%d` and the op
    # before `%u` stay the same, and so do the first and last op of the block.
    module, verifier = parse(ctx, REORDER)
    adds, muls = ops_named(module, "arith.addf"), ops_named(module, "arith.mulf")
    p, d, u = muls[0], adds[1], muls[1]
    for op in (p, d):
        op.detach()
    u.parent.insert_ops_after([p, d], u)
    messages = assert_same_error(module, verifier)
    assert messages == [
        "input.mlir:6:8: error: operand #0 does not dominate this use",
        "input.mlir:4:8: note: operand defined here (op in the same block)",
    ]


def test_definition_detached_from_the_middle_of_a_block(ctx):
    # `%d` leaves the module while `%u` still reads it; `%u` itself, the ops
    # next to `%d` and the ends of the block are untouched. The function
    # around the place `%d` left is checked again, as a full check does.
    module, verifier = parse(ctx, REORDER)
    ops_named(module, "arith.addf")[1].detach()
    messages = assert_same_error(module, verifier)
    assert messages[0].startswith(
        "input.mlir:1:1: error: 'func.func' op Operation using value defined out of its IsolatedFromAbove parent"
    )


# (blocks without arguments: only the blocks themselves tell where they went)
SWAP = """\
func.func @p() -> f32 {
  %a = arith.constant 1.000000e+00 : f32
  return %a : f32
}
func.func @q() -> i32 {
  %c = arith.constant 1 : i32
  return %c : i32
}
"""


def test_regions_exchanged_between_ops(ctx):
    # Each `return` keeps its block but now ends another function.
    module, verifier = parse(ctx, SWAP)
    p, q = func(module, "p"), func(module, "q")
    first, second = p.regions[0], q.regions[0]
    p.detach_region(first)
    q.detach_region(second)
    p.add_region(second)
    q.add_region(first)
    messages = assert_same_error(module, verifier)
    assert "'func.return' op" in messages[0]


def test_blocks_exchanged_between_regions(ctx):
    module, verifier = parse(ctx, SWAP)
    p, q = func(module, "p"), func(module, "q")
    first, second = p.body.block, q.body.block
    p.body.detach_block(first)
    q.body.detach_block(second)
    p.body.add_block(second)
    q.body.add_block(first)
    messages = assert_same_error(module, verifier)
    assert "'func.return' op" in messages[0]


# -- results remembered per signature -------------------------------------------------


def test_equal_types_built_again_share_what_was_verified(ctx, monkeypatch):
    # A new `tensor.empty` whose types are new objects equal to checked ones is
    # not checked against its definition again; one of another signature is.
    # (Signatures found valid are remembered across modules: forgetting them
    # makes the second signature new whatever ran before.)
    op_checks._SIGNATURES.clear()
    module, verifier = parse(ctx, MATMUL)
    checked: list[str] = []
    original = op_checks._Plan._check_own

    def counting(plan, op):
        checked.append(op.name)
        return original(plan, op)

    monkeypatch.setattr(op_checks._Plan, "_check_own", counting)
    empty = ops_named(module, "tensor.empty")[0]
    ty = empty.results[0].type
    twin = type(empty).create(
        operands=list(empty.operands),
        result_types=[TensorType(ty.element_type, ty.get_shape())],
        properties=dict(empty.properties),
        attributes=dict(empty.attributes),
    )
    assert twin.results[0].type is not ty and twin.results[0].type == ty
    empty.parent.insert_op_after(twin, empty)
    verifier.verify(module, START)
    assert "tensor.empty" not in checked
    other = type(empty).create(operands=[], result_types=[TensorType(f32, [4])])
    empty.parent.insert_op_after(other, empty)
    verifier.verify(module, START)
    assert "tensor.empty" in checked


def test_keyed_verifier_still_fails_with_another_operand_count(ctx):
    # `tensor.empty`'s own verifier is not run again for a signature found
    # valid; dropping a size operand makes another signature, which fails.
    module, verifier = parse(ctx, MATMUL)
    empty = ops_named(module, "tensor.empty")[0]
    empty.operands = list(empty.operands)[:1]
    messages = assert_same_error(module, verifier)
    assert "'tensor.empty' op" in messages[0]


def test_matmul_body_terminator_changed(ctx):
    # Only the yield inside the matmul's body changes: the matmul's own verifier
    # reads it, although the matmul itself is the same.
    module, verifier = parse(ctx, MATMUL)
    matmul = ops_named(module, "linalg.matmul")[0]
    block = matmul.regions[0].block
    c = arith.ConstantOp(IntegerAttr(1, i32))
    block.insert_op_before(c, block.last_op)
    block.last_op.operands = [c.results[0]]
    messages = assert_same_error(module, verifier)
    assert "'linalg.matmul' op" in messages[0]


def test_property_added_to_an_op_that_had_none(ctx):
    # The first check saw no attribute or property at all on the `return`; one
    # added in place afterwards is still seen.
    module, verifier = parse(ctx, TWO_FUNCS)
    ret = ops_named(module, "func.return")[0]
    assert not ret.properties and not ret.attributes
    ret.properties["bogus"] = StringAttr("x")
    messages = assert_same_error(module, verifier)
    assert "'func.return' op" in messages[0]
