"""The `scf` dialect: xDSL's structured control flow plus `scf.forall`.

xDSL 0.74 covers `scf.for/if/while/parallel/yield/...` with MLIR's syntax and we
reuse those ops as they are. It has no `scf.forall`, the loop IREE uses to
distribute work over workgroups and threads, nor its terminator
`scf.forall.in_parallel`; both are defined here after upstream MLIR
(https://mlir.llvm.org/docs/Dialects/SCFDialect/#scfforall-scfforallop).

The ops allowed inside `scf.forall.in_parallel` (such as the `tensor` dialect's
`tensor.parallel_insert_slice`) carry the `ParallelCombiningOpInterface` trait
defined here.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from xdsl.dialects.builtin import (
    DYNAMIC_INDEX,
    ArrayAttr,
    DenseArrayBase,
    IndexType,
    IntegerAttr,
    TensorType,
    i1,
    i64,
)
from xdsl.dialects import scf as xdsl_scf
from xdsl.dialects.scf import Scf as _XDSLScf
from xdsl.dialects.utils import (
    get_dynamic_index_list,
    parse_assignment,
    parse_dynamic_index_list_without_types,
    print_assignment,
    print_dynamic_index_list,
    split_dynamic_index_list,
)
from xdsl.ir import Attribute, Block, Dialect, Operation, Region, SSAValue
from xdsl.irdl import (
    AttrSizedOperandSegments,
    IRDLOperation,
    irdl_op_definition,
    opt_prop_def,
    prop_def,
    region_def,
    traits_def,
    var_operand_def,
    var_result_def,
)
from xdsl.parser import Parser, UnresolvedOperand
from xdsl.pattern_rewriter import PatternRewriter, RewritePattern, op_type_rewrite_pattern
from xdsl.printer import Printer
from xdsl.rewriter import InsertPoint
from xdsl.traits import (
    ConstantLike,
    SingleBlockImplicitTerminator,
    IsTerminator,
    NoTerminator,
    OpTrait,
    Pure,
    RecursiveMemoryEffect,
    ensure_terminator,
)
from xdsl.utils.exceptions import VerifyException

# ---------------------------------------------------------------------------
# Helpers
# ---------------------------------------------------------------------------


@dataclass(frozen=True)
class ParallelCombiningOpInterface(OpTrait):
    """Marks ops that may appear in `scf.forall.in_parallel` (MLIR's interface).

    Such an op combines the value computed by one iteration of the loop into one of
    the loop's shared outputs. `destinations` names the operand fields holding
    the `shared_outs` block arguments the op writes into (MLIR's
    `getUpdatedDestinations`); `tensor.parallel_insert_slice` writes into `dest`.
    """

    destinations: tuple[str, ...] = ("dest",)

    def updated_destinations(self, op: Operation) -> list[SSAValue]:
        return [getattr(op, name) for name in self.destinations]

    def verify(self, op: Operation) -> None:
        # MLIR checks this from `scf.forall.in_parallel` but reports it on the
        # combining op; checking it here puts the diagnostic on the same op.
        terminator = op.parent_op()
        if not isinstance(terminator, InParallelOp):
            return
        forall = terminator.parent_op()
        if not isinstance(forall, ForallOp):
            return
        out_args = forall.region_out_args
        for dest in self.updated_destinations(op):
            if dest not in out_args:
                raise VerifyException("may only insert into an output block argument")


def _constant_int(value: SSAValue) -> int | None:
    """The integer a constant-like op defines (MLIR's `getConstantIntValue`)."""
    owner = value.owner
    if not isinstance(owner, Operation) or not owner.has_trait(ConstantLike):
        return None
    attr = owner.properties.get("value", owner.attributes.get("value"))
    if isinstance(attr, IntegerAttr):
        return attr.value.data
    return None


def _parse_index_list_in_parens(parser: Parser) -> tuple[list[SSAValue], list[int]]:
    dynamic, static = parse_dynamic_index_list_without_types(
        parser, DYNAMIC_INDEX, delimiter=Parser.Delimiter.PAREN
    )
    return [parser.resolve_operand(v, IndexType()) for v in dynamic], list(static)


def _print_index_list_in_parens(printer: Printer, dynamic: Sequence[SSAValue], static: Sequence[int]) -> None:
    if sum(1 for v in static if v == DYNAMIC_INDEX) != len(dynamic):
        # Only reachable for IR that failed verification: keep the printer total.
        printer.print_string("(<<malformed index list>>)")
        return
    print_dynamic_index_list(printer, DYNAMIC_INDEX, dynamic, static, delimiter=Parser.Delimiter.PAREN)


def _verify_list_of_operands_or_integers(
    name: str, num_elements: int, static: Sequence[int], values: Sequence[SSAValue]
) -> None:
    """MLIR's `verifyListOfOperandsOrIntegers` (ViewLikeInterface.cpp)."""
    if len(static) != num_elements:
        raise VerifyException(f"expected {num_elements} {name} values, got {len(static)}")
    num_dynamic = sum(1 for v in static if v == DYNAMIC_INDEX)
    if len(values) != num_dynamic:
        raise VerifyException(f"expected {num_dynamic} dynamic {name} values")


def _split_mixed(values: Sequence[SSAValue | Operation | int]) -> tuple[list[int], list[SSAValue]]:
    return split_dynamic_index_list([v if isinstance(v, int) else SSAValue.get(v) for v in values], DYNAMIC_INDEX)


# ---------------------------------------------------------------------------
# scf.forall / scf.forall.in_parallel
# ---------------------------------------------------------------------------


@irdl_op_definition
class InParallelOp(IRDLOperation):
    """Terminator of `scf.forall`: the parallel writes into the shared outputs.

    ```mlir
    scf.forall.in_parallel {
      tensor.parallel_insert_slice %t into %out[%i] [4] [1] : tensor<4xf32> into tensor<?xf32>
    }
    ```

    Its single block holds only ParallelCombiningOpInterface ops and has no
    terminator. When the loop has no `shared_outs` the terminator is empty and the
    custom syntax leaves it out.
    See https://mlir.llvm.org/docs/Dialects/SCFDialect/#scfforallin_parallel-scfinparallelop
    """

    name = "scf.forall.in_parallel"

    region = region_def("single_block")

    traits = traits_def(IsTerminator(), Pure(), NoTerminator())

    def __init__(self, ops: Sequence[Operation] = ()):
        super().__init__(regions=[Region(Block(ops))])

    def verify_(self) -> None:
        # MLIR's HasParent<"ForallOp"> trait, with its message (xDSL's trait words
        # it differently).
        if not isinstance(self.parent_op(), ForallOp):
            raise VerifyException(f"expects parent op '{ForallOp.name}'")
        for op in self.region.block.ops:
            if not op.has_trait(ParallelCombiningOpInterface):
                raise VerifyException("expected only ParallelCombiningOpInterface ops")

    @classmethod
    def parse(cls, parser: Parser) -> InParallelOp:
        region = parser.parse_region()
        if not region.blocks:
            region.add_block(Block())
        attrs = parser.parse_optional_attr_dict()
        op = cls.create(regions=[region])
        op.attributes |= attrs
        return op

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_region(
            self.region, print_entry_block_args=False, print_empty_block=False, print_block_terminators=False
        )
        printer.print_op_attributes(self.attributes)


@irdl_op_definition
class ForallOp(IRDLOperation):
    """A parallel loop nest whose iterations may write disjoint parts of shared outputs.

    ```mlir
    %r = scf.forall (%i, %j) = (0, 0) to (%m, %n) step (64, 64)
        shared_outs(%o = %init) -> (tensor<?x?xf32>) {
      ...
      scf.forall.in_parallel {
        tensor.parallel_insert_slice %tile into %o[%i, %j] [64, 64] [1, 1]
            : tensor<64x64xf32> into tensor<?x?xf32>
      }
    } {mapping = [#iree_codegen.workgroup_mapping<y>, #iree_codegen.workgroup_mapping<x>]}

    scf.forall (%i, %j) in (%m, %n) { ... }   // normalized: lower bounds 0, steps 1
    ```

    Bounds and steps are mixed lists of constants and index values. The body block
    takes one index per loop followed by one argument per shared output. With no
    shared outputs the loop has no results and its (empty) terminator is implicit.
    See https://mlir.llvm.org/docs/Dialects/SCFDialect/#scfforall-scfforallop
    """

    name = "scf.forall"

    dynamicLowerBound = var_operand_def(IndexType)
    dynamicUpperBound = var_operand_def(IndexType)
    dynamicStep = var_operand_def(IndexType)
    outputs = var_operand_def(TensorType)

    staticLowerBound = prop_def(DenseArrayBase.constr(i64))
    staticUpperBound = prop_def(DenseArrayBase.constr(i64))
    staticStep = prop_def(DenseArrayBase.constr(i64))
    mapping = opt_prop_def(ArrayAttr)

    res = var_result_def()

    region = region_def("single_block")

    irdl_options = (AttrSizedOperandSegments(as_property=True),)
    traits = traits_def(RecursiveMemoryEffect())

    def __init__(
        self,
        lower_bounds: Sequence[SSAValue | Operation | int],
        upper_bounds: Sequence[SSAValue | Operation | int],
        steps: Sequence[SSAValue | Operation | int],
        outputs: Sequence[SSAValue | Operation] = (),
        body: Region | Block | None = None,
        mapping: ArrayAttr | None = None,
    ):
        """Build a loop; without `body`, an empty one taking the induction
        variables and the shared outputs, terminated by an empty `in_parallel`."""
        static_lbs, dynamic_lbs = _split_mixed(lower_bounds)
        static_ubs, dynamic_ubs = _split_mixed(upper_bounds)
        static_steps, dynamic_steps = _split_mixed(steps)
        properties: dict[str, Attribute] = {
            "staticLowerBound": DenseArrayBase.from_list(i64, static_lbs),
            "staticUpperBound": DenseArrayBase.from_list(i64, static_ubs),
            "staticStep": DenseArrayBase.from_list(i64, static_steps),
        }
        if mapping is not None:
            properties["mapping"] = mapping
        if body is None:
            arg_types = [IndexType()] * len(static_lbs) + [SSAValue.get(o).type for o in outputs]
            body = Block(arg_types=arg_types)
        super().__init__(
            operands=[dynamic_lbs, dynamic_ubs, dynamic_steps, outputs],
            result_types=[[SSAValue.get(o).type for o in outputs]],
            properties=properties,
            regions=[body if isinstance(body, Region) else Region(body)],
        )
        _ensure_in_parallel_terminator(self.region)

    # -- accessors ----------------------------------------------------------

    @property
    def rank(self) -> int:
        return len(self.staticLowerBound.get_values())

    @property
    def induction_vars(self) -> Sequence[SSAValue]:
        return self.region.block.args[: self.rank]

    @property
    def region_out_args(self) -> Sequence[SSAValue]:
        return self.region.block.args[self.rank :]

    @property
    def mixed_lower_bound(self) -> list[SSAValue | int]:
        return get_dynamic_index_list(self.staticLowerBound.get_values(), self.dynamicLowerBound, DYNAMIC_INDEX)

    @property
    def mixed_upper_bound(self) -> list[SSAValue | int]:
        return get_dynamic_index_list(self.staticUpperBound.get_values(), self.dynamicUpperBound, DYNAMIC_INDEX)

    @property
    def mixed_step(self) -> list[SSAValue | int]:
        return get_dynamic_index_list(self.staticStep.get_values(), self.dynamicStep, DYNAMIC_INDEX)

    def is_normalized(self) -> bool:
        """All lower bounds are 0 and all steps 1 (constants defined by ops count too)."""

        def all_equal(static: Sequence[int], dynamic: Sequence[SSAValue], expected: int) -> bool:
            if sum(1 for v in static if v == DYNAMIC_INDEX) != len(dynamic):
                return False
            mixed = get_dynamic_index_list(static, dynamic, DYNAMIC_INDEX)
            return all((v if isinstance(v, int) else _constant_int(v)) == expected for v in mixed)

        return all_equal(self.staticLowerBound.get_values(), self.dynamicLowerBound, 0) and all_equal(
            self.staticStep.get_values(), self.dynamicStep, 1
        )

    # -- verification -------------------------------------------------------

    def verify_(self) -> None:
        num_loops = self.rank
        if len(self.res) != len(self.outputs):
            raise VerifyException(f"produces {len(self.res)} results, but has only {len(self.outputs)} outputs")
        body = self.region.block
        if len(body.args) != num_loops + len(self.outputs):
            raise VerifyException(f"region expects {num_loops} arguments")
        for i, arg in enumerate(body.args[:num_loops]):
            if not isinstance(arg.type, IndexType):
                raise VerifyException(f"expects {i}-th block argument to be an index")
        for i, (arg, out) in enumerate(zip(body.args[num_loops:], self.outputs)):
            if arg.type != out.type:
                raise VerifyException(f"type mismatch between {i}-th output and corresponding block argument")
        if self.mapping is not None and self.mapping.data and len(self.mapping.data) != num_loops:
            raise VerifyException("mapping attribute size must match op rank")
        _verify_list_of_operands_or_integers(
            "lower bound", num_loops, self.staticLowerBound.get_values(), self.dynamicLowerBound
        )
        _verify_list_of_operands_or_integers(
            "upper bound", num_loops, self.staticUpperBound.get_values(), self.dynamicUpperBound
        )
        _verify_list_of_operands_or_integers("step", num_loops, self.staticStep.get_values(), self.dynamicStep)
        # The terminator check of MLIR's SingleBlockImplicitTerminator trait, with
        # its message.
        last = body.last_op
        if last is None:
            raise VerifyException("expects a non-empty block")
        if not isinstance(last, InParallelOp):
            raise VerifyException(f"expects regions to end with '{InParallelOp.name}', found '{last.name}'")

    # -- custom syntax ------------------------------------------------------

    @classmethod
    def parse(cls, parser: Parser) -> ForallOp:
        ivs = parser.parse_comma_separated_list(
            Parser.Delimiter.PAREN, lambda: parser.parse_argument(expect_type=False)
        )
        if parser.parse_optional_keyword("in") is not None:
            dynamic_lbs, static_lbs = [], [0] * len(ivs)
            dynamic_ubs, static_ubs = _parse_index_list_in_parens(parser)
            dynamic_steps, static_steps = [], [1] * len(ivs)
        else:
            parser.parse_punctuation("=")
            dynamic_lbs, static_lbs = _parse_index_list_in_parens(parser)
            parser.parse_keyword("to")
            dynamic_ubs, static_ubs = _parse_index_list_in_parens(parser)
            parser.parse_keyword("step")
            dynamic_steps, static_steps = _parse_index_list_in_parens(parser)

        out_args: list[Parser.UnresolvedArgument] = []
        out_operands: list[UnresolvedOperand] = []
        result_types: list[Attribute] = []
        if parser.parse_optional_keyword("shared_outs") is not None:
            pos = parser.pos
            for arg, operand in parser.parse_comma_separated_list(
                Parser.Delimiter.PAREN, lambda: parse_assignment(parser)
            ):
                out_args.append(arg)
                out_operands.append(operand)
            if parser.parse_optional_punctuation("->") is not None:
                # MLIR's `functional-type`-like result list: one type may stand without parentheses.
                if parser.parse_optional_punctuation("(") is not None:
                    result_types = [parser.parse_type()]
                    while parser.parse_optional_punctuation(",") is not None:
                        result_types.append(parser.parse_type())
                    parser.parse_punctuation(")")
                else:
                    result_types = [parser.parse_type()]
            if len(out_operands) != len(result_types):
                parser.raise_error(
                    f"number of operands and types do not match: got {len(out_operands)} operands "
                    f"and {len(result_types)} types",
                    pos,
                )
        outputs = [parser.resolve_operand(o, t) for o, t in zip(out_operands, result_types)]

        block_args = [iv.resolve(IndexType()) for iv in ivs] + [
            arg.resolve(t) for arg, t in zip(out_args, result_types)
        ]
        region = parser.parse_region(block_args)
        attrs = parser.parse_optional_attr_dict()

        properties: dict[str, Attribute] = {
            "staticLowerBound": DenseArrayBase.from_list(i64, static_lbs),
            "staticUpperBound": DenseArrayBase.from_list(i64, static_ubs),
            "staticStep": DenseArrayBase.from_list(i64, static_steps),
        }
        # `mapping` is an inherent attribute (a property) that MLIR prints in the
        # trailing attribute dictionary.
        if "mapping" in attrs:
            properties["mapping"] = attrs.pop("mapping")
        op = cls.build(
            operands=[dynamic_lbs, dynamic_ubs, dynamic_steps, outputs],
            result_types=[result_types],
            properties=properties,
            attributes=attrs,
            regions=[region],
        )
        _ensure_in_parallel_terminator(op.region)
        return op

    def print(self, printer: Printer) -> None:
        printer.print_string(" (")
        printer.print_list(self.induction_vars, printer.print_ssa_value)
        if self.is_normalized():
            printer.print_string(") in ")
            _print_index_list_in_parens(printer, self.dynamicUpperBound, self.staticUpperBound.get_values())
        else:
            printer.print_string(") = ")
            _print_index_list_in_parens(printer, self.dynamicLowerBound, self.staticLowerBound.get_values())
            printer.print_string(" to ")
            _print_index_list_in_parens(printer, self.dynamicUpperBound, self.staticUpperBound.get_values())
            printer.print_string(" step ")
            _print_index_list_in_parens(printer, self.dynamicStep, self.staticStep.get_values())
        if self.outputs:
            printer.print_string(" shared_outs(")
            printer.print_list(
                zip(self.region_out_args, self.outputs), lambda pair: print_assignment(printer, *pair)
            )
            printer.print_string(")")
        printer.print_string(" ")
        if self.outputs:
            printer.print_string("-> (")
            printer.print_list(self.result_types, printer.print_attribute)
            printer.print_string(") ")
        printer.print_region(
            self.region,
            print_entry_block_args=False,
            print_empty_block=False,
            print_block_terminators=bool(self.res),
        )
        attrs = dict(self.attributes)
        if self.mapping is not None:
            attrs["mapping"] = self.mapping
        # MLIR prints an op's attribute dictionary sorted by name.
        printer.print_op_attributes(dict(sorted(attrs.items())))


def _ensure_in_parallel_terminator(region: Region) -> None:
    """Add the implicit empty `scf.forall.in_parallel` if the body has no terminator."""
    if not region.blocks:
        region.add_block(Block())
    if len(region.blocks) != 1:
        return  # malformed; the verifier reports it
    block = region.block
    last = block.last_op
    if last is None or not last.has_trait(IsTerminator, value_if_unregistered=False):
        block.add_op(InParallelOp())


def _parse_arrow_type_list(parser: Parser) -> list[Attribute]:
    """MLIR's `parseArrowTypeList` after the `->`: a parenthesized list, or a single type."""
    if parser.parse_optional_punctuation("(") is None:
        return [parser.parse_type()]
    if parser.parse_optional_punctuation(")") is not None:
        return []
    types = parser.parse_comma_separated_list(parser.Delimiter.NONE, parser.parse_type)
    parser.parse_punctuation(")")
    return types


def _parse_if(cls: type[xdsl_scf.IfOp], parser: Parser) -> xdsl_scf.IfOp:
    # `scf.if %c -> (types) { ... } else { ... } attr-dict`
    cond = parser.parse_operand(i1)
    return_types = _parse_arrow_type_list(parser) if parser.parse_optional_punctuation("->") else []
    then_region = cls.parse_region_with_yield(parser)
    else_region = cls.parse_region_with_yield(parser) if parser.parse_optional_keyword("else") else Region()
    attr_dict = parser.parse_optional_attr_dict()
    return cls(cond, return_types, then_region, else_region, attr_dict)


def _parse_for(cls: type[xdsl_scf.ForOp], parser: Parser) -> xdsl_scf.ForOp:
    # `scf.for %i = %lb to %ub step %s [iter_args(%a = %init, ...) -> (types)] [: type] { ... } attr-dict`
    unresolved_indvar = parser.parse_argument(expect_type=False)
    parser.parse_punctuation("=")
    lb = parser.parse_unresolved_operand()
    parser.parse_keyword("to")
    ub = parser.parse_unresolved_operand()
    parser.parse_keyword("step")
    step = parser.parse_unresolved_operand()
    pos = parser.pos
    unresolved_iter_args: list[Parser.UnresolvedArgument] = []
    iter_arg_operands_unresolved: list[UnresolvedOperand] = []
    iter_arg_types: list[Attribute] = []
    if parser.parse_optional_keyword("iter_args"):
        for iter_arg, operand in parser.parse_comma_separated_list(
            Parser.Delimiter.PAREN, lambda: parse_assignment(parser)
        ):
            unresolved_iter_args.append(iter_arg)
            iter_arg_operands_unresolved.append(operand)
        parser.parse_punctuation("->")
        iter_arg_types = _parse_arrow_type_list(parser)
    iter_arg_operands = parser.resolve_operands(iter_arg_operands_unresolved, iter_arg_types, pos)
    iter_args = [arg.resolve(t) for arg, t in zip(unresolved_iter_args, iter_arg_types)]
    indvar_type = parser.parse_type() if parser.parse_optional_punctuation(":") else IndexType()
    indvar = unresolved_indvar.resolve(indvar_type)
    body = parser.parse_region((indvar, *iter_args))
    attrs = parser.parse_optional_attr_dict()
    bounds = [parser.resolve_operand(v, indvar_type) for v in (lb, ub, step)]
    for_op = cls(*bounds, iter_arg_operands, body)
    for_op.attributes |= attrs
    if not iter_args:
        for trait in for_op.get_traits_of_type(SingleBlockImplicitTerminator):
            ensure_terminator(for_op, trait)
    return for_op


# xDSL's scf.if and scf.for want their result types in parentheses; MLIR also reads a single
# type without them (`-> tensor<4xf32>`), as IREE's tests write it. They print with them.
xdsl_scf.IfOp.parse = classmethod(_parse_if)  # type: ignore[method-assign, assignment]
xdsl_scf.ForOp.parse = classmethod(_parse_for)  # type: ignore[method-assign, assignment]


class ForOpIterArgsFolder(RewritePattern):
    """MLIR's ``ForOpIterArgsFolder`` (an ``scf.for`` canonicalization): an iteration argument that
    never changes (the body yields it as it came, or yields its initial value) is its initial
    value, in the body and after the loop; one that neither the body nor anything after the loop
    uses goes; one with the same initial and yielded values as an earlier one is that one. The
    loop is built again without them."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: xdsl_scf.ForOp, rewriter: PatternRewriter) -> None:
        body = op.body.block
        yield_op = body.last_op
        if not isinstance(yield_op, xdsl_scf.YieldOp) or len(yield_op.operands) != len(op.iter_args):
            return
        # Per iteration argument: the position of the kept argument it becomes, or its initial value.
        becomes: list[int | SSAValue] = []
        first_with: dict[tuple[SSAValue, SSAValue], int] = {}  # (init, yielded) -> kept position
        kept: list[int] = []  # the original positions kept
        for index, (init, arg, result, yielded) in enumerate(
            zip(op.iter_args, body.args[1:], op.results, yield_op.operands)
        ):
            if yielded is arg or yielded is init or (not arg.uses and not result.uses):
                becomes.append(init)
            elif (init, yielded) in first_with:
                becomes.append(first_with[(init, yielded)])
            else:
                first_with[(init, yielded)] = len(kept)
                becomes.append(len(kept))
                kept.append(index)
        if len(kept) == len(op.iter_args):
            return
        inits = [op.iter_args[i] for i in kept]
        new_body = Block(arg_types=[body.args[0].type, *(init.type for init in inits)])
        for arg in new_body.args:
            arg.location = op.location  # as MLIR's ForOp::build, at the loop's location
        new_op = xdsl_scf.ForOp(op.lb, op.ub, op.step, inits, Region(new_body))
        new_op.attributes |= op.attributes
        new_op.location = op.location
        # The old body moves in: its kept arguments become the new ones, the others what they are.
        args = [new_body.args[0]] + [new_body.args[1 + b] if isinstance(b, int) else b for b in becomes]
        rewriter.inline_block(body, InsertPoint.at_end(new_body), args)
        new_yield = xdsl_scf.YieldOp(*(yield_op.operands[i] for i in kept))
        new_yield.location = yield_op.location
        rewriter.replace(yield_op, new_yield)
        rewriter.replace(op, new_op, [new_op.results[b] if isinstance(b, int) else b for b in becomes])


def _for_canonicalization_patterns(cls: type) -> tuple[RewritePattern, ...]:
    # MLIR's scf.for patterns first, then xDSL's.
    from xdsl.transforms.canonicalization_patterns.scf import RehoistConstInLoops, SimplifyTrivialLoops

    return (ForOpIterArgsFolder(), SimplifyTrivialLoops(), RehoistConstInLoops())


xdsl_scf.ForOpHasCanonicalizationPatternsTrait.get_canonicalization_patterns = classmethod(  # type: ignore[method-assign]
    _for_canonicalization_patterns
)


Scf = Dialect(
    "scf",
    [*_XDSLScf.operations, ForallOp, InParallelOp],
    [*_XDSLScf.attributes],
)
