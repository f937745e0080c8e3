"""find_dynamic_dims / get_dynamic_dims: reuse the sizes the IR already carries."""

from xdsl.context import Context
from xdsl.rewriter import InsertPoint

from mini_iree.compiler.ir.dynamic_dims import find_dynamic_dims, get_dynamic_dims
from mini_iree.compiler.ir.parsing import parse_mlir
from mini_iree.dialects import get_all_dialects

PROGRAM = """
util.func public @f(%arg0: !hal.buffer_view) -> !hal.buffer_view {
  %0 = hal.buffer_view.dim<%arg0 : !hal.buffer_view>[0] : index
  %1 = hal.buffer_view.dim<%arg0 : !hal.buffer_view>[1] : index
  %2 = hal.tensor.import %arg0 "input0" : !hal.buffer_view -> tensor<?x?xf32>{%0, %1}
  %3 = flow.dispatch.region -> (tensor<?x?xf32>{%0, %1}) {
    %cst = arith.constant 0.0 : f32
    %4 = tensor.empty(%0, %1) : tensor<?x?xf32>
    %5 = linalg.fill ins(%cst : f32) outs(%4 : tensor<?x?xf32>) -> tensor<?x?xf32>
    flow.return %5 : tensor<?x?xf32>
  }
  %6 = hal.tensor.export %3 "output0" : tensor<?x?xf32>{%0, %1} -> !hal.buffer_view
  util.return %6 : !hal.buffer_view
}
"""


def _module():
    ctx = Context()
    for name, factory in get_all_dialects().items():
        ctx.register_dialect(name, factory)
    return parse_mlir(ctx, PROGRAM, "test.mlir")


def _ops(module):
    return {op.name: op for op in module.walk()}


def test_dims_come_from_the_producers():
    ops = _ops(_module())
    imported = ops["hal.tensor.import"].results[0]
    assert find_dynamic_dims(imported) == list(ops["hal.tensor.import"].operands[1:])
    fill = ops["linalg.fill"].results[0]
    assert find_dynamic_dims(fill) == list(ops["tensor.empty"].operands)
    region = ops["flow.dispatch.region"].results[0]
    assert find_dynamic_dims(region) == list(ops["flow.dispatch.region"].operands[:2])


def test_missing_dims_become_tensor_dim_ops():
    module = _module()
    ops = _ops(module)
    func = ops["util.func"]
    block = func.regions[0].blocks[0]
    # A block argument of unknown origin: sizes are read with tensor.dim.
    from xdsl.dialects.builtin import DYNAMIC_INDEX, TensorType, f32

    arg = block.insert_arg(TensorType(f32, [DYNAMIC_INDEX, 4]), len(block.args))
    dims = get_dynamic_dims(arg, InsertPoint.at_start(block))
    assert len(dims) == 1
    assert dims[0].owner.name == "tensor.dim"
