// Two M loops (d0, d1), read together by every map: collapse-dimensions makes
// them one M, and the matmul it then is gets data-tiled (IREE 3.13 does the same).
#lhs = affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>
#rhs = affine_map<(d0, d1, d2, d3) -> (d3, d2)>
#out = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>
func.func @multi_m(%lhs: tensor<2x?x8xf32>, %rhs: tensor<8x4xf32>) -> tensor<2x?x4xf32> {
  %c1 = arith.constant 1 : index
  %m = tensor.dim %lhs, %c1 : tensor<2x?x8xf32>
  %cst = arith.constant 0.000000e+00 : f32
  %0 = tensor.empty(%m) : tensor<2x?x4xf32>
  %1 = linalg.fill ins(%cst : f32) outs(%0 : tensor<2x?x4xf32>) -> tensor<2x?x4xf32>
  %2 = linalg.generic {indexing_maps = [#lhs, #rhs, #out], iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%lhs, %rhs : tensor<2x?x8xf32>, tensor<8x4xf32>) outs(%1 : tensor<2x?x4xf32>) {
  ^bb0(%a: f32, %b: f32, %c: f32):
    %p = arith.mulf %a, %b : f32
    %s = arith.addf %c, %p : f32
    linalg.yield %s : f32
  } -> tensor<2x?x4xf32>
  return %2 : tensor<2x?x4xf32>
}
