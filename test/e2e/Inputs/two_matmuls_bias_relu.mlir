// x @ w1 + b1, relu, then @ w2.
#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d1)>
func.func @mlp(%x: tensor<?x16xf32>, %w1: tensor<16x32xf32>, %b1: tensor<32xf32>, %w2: tensor<32x8xf32>) -> tensor<?x8xf32> {
  %c0 = arith.constant 0 : index
  %m = tensor.dim %x, %c0 : tensor<?x16xf32>
  %cst = arith.constant 0.000000e+00 : f32
  %0 = tensor.empty(%m) : tensor<?x32xf32>
  %1 = linalg.fill ins(%cst : f32) outs(%0 : tensor<?x32xf32>) -> tensor<?x32xf32>
  %2 = linalg.matmul ins(%x, %w1 : tensor<?x16xf32>, tensor<16x32xf32>) outs(%1 : tensor<?x32xf32>) -> tensor<?x32xf32>
  %3 = linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel"]}
      ins(%2, %b1 : tensor<?x32xf32>, tensor<32xf32>) outs(%0 : tensor<?x32xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %s = arith.addf %a, %b : f32
    %r = arith.maximumf %s, %cst : f32
    linalg.yield %r : f32
  } -> tensor<?x32xf32>
  %4 = tensor.empty(%m) : tensor<?x8xf32>
  %5 = linalg.fill ins(%cst : f32) outs(%4 : tensor<?x8xf32>) -> tensor<?x8xf32>
  %6 = linalg.matmul ins(%3, %w2 : tensor<?x32xf32>, tensor<32x8xf32>) outs(%5 : tensor<?x8xf32>) -> tensor<?x8xf32>
  return %6 : tensor<?x8xf32>
}
