func.func @matmul_static(%lhs: tensor<255x513xf32>, %rhs: tensor<513x1023xf32>) -> tensor<255x1023xf32> {
  %cst = arith.constant 0.000000e+00 : f32
  %0 = tensor.empty() : tensor<255x1023xf32>
  %1 = linalg.fill ins(%cst : f32) outs(%0 : tensor<255x1023xf32>) -> tensor<255x1023xf32>
  %2 = linalg.matmul ins(%lhs, %rhs : tensor<255x513xf32>, tensor<513x1023xf32>) outs(%1 : tensor<255x1023xf32>) -> tensor<255x1023xf32>
  return %2 : tensor<255x1023xf32>
}
