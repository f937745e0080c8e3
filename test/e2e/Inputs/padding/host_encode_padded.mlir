// A function input relaid out on the host (`flow.tensor.encode` to `#iree_encoding.padding<[0, ?]>`, as a
// hoisted set_encoding leaves it): the encoding dispatch writes the padded storage, the matmul reads it.
util.func public @host_encode(%arg0: !hal.buffer_view, %arg1: !hal.buffer_view) -> !hal.buffer_view {
  %cst = arith.constant 0.000000e+00 : f32
  %0 = hal.buffer_view.dim<%arg0 : !hal.buffer_view>[0] : index
  %1 = hal.tensor.import %arg0 "input0" : !hal.buffer_view -> tensor<?x1000xf32>{%0}
  %2 = hal.tensor.import %arg1 "input1" : !hal.buffer_view -> tensor<1000x24xf32>
  %3 = flow.tensor.encode %1 : tensor<?x1000xf32>{%0} -> tensor<?x1000xf32, #iree_encoding.padding<[0, ?]>>{%0}
  %5 = flow.dispatch.region -> (tensor<?x24xf32>{%0}) {
    %7 = iree_encoding.unset_encoding %3 : tensor<?x1000xf32, #iree_encoding.padding<[0, ?]>> -> tensor<?x1000xf32>{%0}
    %8 = tensor.empty(%0) : tensor<?x24xf32>
    %9 = linalg.fill ins(%cst : f32) outs(%8 : tensor<?x24xf32>) -> tensor<?x24xf32>
    %10 = linalg.matmul ins(%7, %2 : tensor<?x1000xf32>, tensor<1000x24xf32>) outs(%9 : tensor<?x24xf32>) -> tensor<?x24xf32>
    flow.return %10 : tensor<?x24xf32>
  }
  %6 = hal.tensor.export %5 "output0" : tensor<?x24xf32>{%0} -> !hal.buffer_view
  util.return %6 : !hal.buffer_view
}
