#lhs = affine_map<(d0, d1, d2) -> (d0, d2)>
#rhs = affine_map<(d0, d1, d2) -> (d1, d2)>
#out = affine_map<(d0, d1, d2) -> (d0, d1)>
func.func @matmul_transpose_b(%lhs: tensor<?x64xf32>, %rhs: tensor<32x64xf32>) -> tensor<?x32xf32> {
  %c0 = arith.constant 0 : index
  %m = tensor.dim %lhs, %c0 : tensor<?x64xf32>
  %cst = arith.constant 0.000000e+00 : f32
  %0 = tensor.empty(%m) : tensor<?x32xf32>
  %1 = linalg.fill ins(%cst : f32) outs(%0 : tensor<?x32xf32>) -> tensor<?x32xf32>
  %2 = linalg.generic {indexing_maps = [#lhs, #rhs, #out], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%lhs, %rhs : tensor<?x64xf32>, tensor<32x64xf32>) outs(%1 : tensor<?x32xf32>) {
  ^bb0(%a: f32, %b: f32, %c: f32):
    %p = arith.mulf %a, %b : f32
    %s = arith.addf %c, %p : f32
    linalg.yield %s : f32
  } -> tensor<?x32xf32>
  return %2 : tensor<?x32xf32>
}
