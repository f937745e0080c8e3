// linalg.batch_matmul with a dynamic M and N and a static K: the LHS is tensor<4x?x32xf32>.
func.func @batch_matmul(%lhs: tensor<4x?x32xf32>, %rhs: tensor<4x32x?xf32>) -> tensor<4x?x?xf32> {
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %m = tensor.dim %lhs, %c1 : tensor<4x?x32xf32>
  %n = tensor.dim %rhs, %c2 : tensor<4x32x?xf32>
  %cst = arith.constant 0.000000e+00 : f32
  %0 = tensor.empty(%m, %n) : tensor<4x?x?xf32>
  %1 = linalg.fill ins(%cst : f32) outs(%0 : tensor<4x?x?xf32>) -> tensor<4x?x?xf32>
  %2 = linalg.batch_matmul ins(%lhs, %rhs : tensor<4x?x32xf32>, tensor<4x32x?xf32>)
      outs(%1 : tensor<4x?x?xf32>) -> tensor<4x?x?xf32>
  return %2 : tensor<4x?x?xf32>
}
