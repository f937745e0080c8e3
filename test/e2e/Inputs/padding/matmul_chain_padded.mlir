// Two chained matmuls after `iree-dispatch-creation-set-encoding{encoding-option=padding}`: the
// first dispatch's result, the second's LHS, is handed over as `#iree_encoding.padding<[0, ?]>`, so
// a padding resolver may lengthen its 1000-element (4000-byte) rows; the second dispatch unsets
// the encoding and multiplies the plain tensor.
util.func public @matmul_chain(%arg0: !hal.buffer_view, %arg1: !hal.buffer_view, %arg2: !hal.buffer_view) -> !hal.buffer_view {
  %cst = arith.constant 0.000000e+00 : f32
  %0 = hal.buffer_view.dim<%arg0 : !hal.buffer_view>[0] : index
  %1 = hal.tensor.import %arg0 "input0" : !hal.buffer_view -> tensor<?x1000xf32>{%0}
  %2 = hal.tensor.import %arg1 "input1" : !hal.buffer_view -> tensor<1000x1000xf32>
  %3 = hal.tensor.import %arg2 "input2" : !hal.buffer_view -> tensor<1000x24xf32>
  %4 = flow.dispatch.region -> (tensor<?x1000xf32, #iree_encoding.padding<[0, ?]>>{%0}) {
    %7 = tensor.empty(%0) : tensor<?x1000xf32>
    %8 = linalg.fill ins(%cst : f32) outs(%7 : tensor<?x1000xf32>) -> tensor<?x1000xf32>
    %9 = linalg.matmul ins(%1, %2 : tensor<?x1000xf32>, tensor<1000x1000xf32>) outs(%8 : tensor<?x1000xf32>) -> tensor<?x1000xf32>
    %10 = iree_encoding.set_encoding %9 : tensor<?x1000xf32> -> tensor<?x1000xf32, #iree_encoding.padding<[0, ?]>>
    flow.return %10 : tensor<?x1000xf32, #iree_encoding.padding<[0, ?]>>
  }
  %5 = flow.dispatch.region -> (tensor<?x24xf32>{%0}) {
    %7 = iree_encoding.unset_encoding %4 : tensor<?x1000xf32, #iree_encoding.padding<[0, ?]>> -> tensor<?x1000xf32>{%0}
    %8 = tensor.empty(%0) : tensor<?x24xf32>
    %9 = linalg.fill ins(%cst : f32) outs(%8 : tensor<?x24xf32>) -> tensor<?x24xf32>
    %10 = linalg.matmul ins(%7, %3 : tensor<?x1000xf32>, tensor<1000x24xf32>) outs(%9 : tensor<?x24xf32>) -> tensor<?x24xf32>
    flow.return %10 : tensor<?x24xf32>
  }
  %6 = hal.tensor.export %5 "output0" : tensor<?x24xf32>{%0} -> !hal.buffer_view
  util.return %6 : !hal.buffer_view
}
