// A matrix-vector product: N is 1, so the resolver picks a narrow tile and codegen
// expresses the matvec as an mmt4d with unit dims. (gfx942 refuses matvec, as IREE does.)
// walkthrough-pipeline: data-tiling{target=x86_64:+avx512f}
func.func @matvec(%lhs: tensor<?x?xf32>, %rhs: tensor<?xf32>) -> tensor<?xf32> {
  %c0 = arith.constant 0 : index
  %m = tensor.dim %lhs, %c0 : tensor<?x?xf32>
  %cst = arith.constant 0.000000e+00 : f32
  %0 = tensor.empty(%m) : tensor<?xf32>
  %1 = linalg.fill ins(%cst : f32) outs(%0 : tensor<?xf32>) -> tensor<?xf32>
  %2 = linalg.matvec ins(%lhs, %rhs : tensor<?x?xf32>, tensor<?xf32>) outs(%1 : tensor<?xf32>) -> tensor<?xf32>
  return %2 : tensor<?xf32>
}
