func.func @vecmat(%lhs: tensor<?xf32>, %rhs: tensor<?x?xf32>) -> tensor<?xf32> {
  %c1 = arith.constant 1 : index
  %n = tensor.dim %rhs, %c1 : tensor<?x?xf32>
  %cst = arith.constant 0.000000e+00 : f32
  %0 = tensor.empty(%n) : tensor<?xf32>
  %1 = linalg.fill ins(%cst : f32) outs(%0 : tensor<?xf32>) -> tensor<?xf32>
  %2 = linalg.vecmat ins(%lhs, %rhs : tensor<?xf32>, tensor<?x?xf32>) outs(%1 : tensor<?xf32>) -> tensor<?xf32>
  return %2 : tensor<?xf32>
}
