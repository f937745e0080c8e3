// The plain program behind matmul_chain_padded.mlir: two chained matmuls with a 1000-wide K.
func.func @matmul_chain(%lhs: tensor<?x1000xf32>, %rhs0: tensor<1000x1000xf32>, %rhs1: tensor<1000x24xf32>) -> tensor<?x24xf32> {
  %c0 = arith.constant 0 : index
  %cst = arith.constant 0.0 : f32
  %m = tensor.dim %lhs, %c0 : tensor<?x1000xf32>
  %e0 = tensor.empty(%m) : tensor<?x1000xf32>
  %f0 = linalg.fill ins(%cst : f32) outs(%e0 : tensor<?x1000xf32>) -> tensor<?x1000xf32>
  %0 = linalg.matmul ins(%lhs, %rhs0 : tensor<?x1000xf32>, tensor<1000x1000xf32>) outs(%f0 : tensor<?x1000xf32>) -> tensor<?x1000xf32>
  %e1 = tensor.empty(%m) : tensor<?x24xf32>
  %f1 = linalg.fill ins(%cst : f32) outs(%e1 : tensor<?x24xf32>) -> tensor<?x24xf32>
  %1 = linalg.matmul ins(%0, %rhs1 : tensor<?x1000xf32>, tensor<1000x24xf32>) outs(%f1 : tensor<?x24xf32>) -> tensor<?x24xf32>
  return %1 : tensor<?x24xf32>
}
