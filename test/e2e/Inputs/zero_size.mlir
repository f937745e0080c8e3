func.func @matmul_zero_k(%lhs: tensor<?x0xf32>, %rhs: tensor<0x?xf32>) -> tensor<?x?xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %m = tensor.dim %lhs, %c0 : tensor<?x0xf32>
  %n = tensor.dim %rhs, %c1 : tensor<0x?xf32>
  %cst = arith.constant 1.000000e+00 : f32
  %0 = tensor.empty(%m, %n) : tensor<?x?xf32>
  %1 = linalg.fill ins(%cst : f32) outs(%0 : tensor<?x?xf32>) -> tensor<?x?xf32>
  %2 = linalg.matmul ins(%lhs, %rhs : tensor<?x0xf32>, tensor<0x?xf32>) outs(%1 : tensor<?x?xf32>) -> tensor<?x?xf32>
  return %2 : tensor<?x?xf32>
}
