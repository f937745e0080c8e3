// i8 x i8 -> i32 on aarch64 with i8mm: integer tiles (8x8x8), results compared exactly.
// walkthrough-pipeline: data-tiling{target=aarch64:+neon,+i8mm}
func.func @matmul_i8i8i32(%lhs: tensor<?x?xi8>, %rhs: tensor<?x?xi8>) -> tensor<?x?xi32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %m = tensor.dim %lhs, %c0 : tensor<?x?xi8>
  %n = tensor.dim %rhs, %c1 : tensor<?x?xi8>
  %zero = arith.constant 0 : i32
  %0 = tensor.empty(%m, %n) : tensor<?x?xi32>
  %1 = linalg.fill ins(%zero : i32) outs(%0 : tensor<?x?xi32>) -> tensor<?x?xi32>
  %2 = linalg.matmul ins(%lhs, %rhs : tensor<?x?xi8>, tensor<?x?xi8>) outs(%1 : tensor<?x?xi32>) -> tensor<?x?xi32>
  return %2 : tensor<?x?xi32>
}
