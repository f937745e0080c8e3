// A matmul by a constant weight: the weight's set_encoding is a constant expression,
// hoisted into a util.global initialized once (iree-util-hoist-into-globals).
// walkthrough-pipeline: data-tiling{target=x86_64:+avx512f}
func.func @matmul_const_weight(%x: tensor<?x4xf32>) -> tensor<?x3xf32> {
  %c0 = arith.constant 0 : index
  %w = arith.constant dense<[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0], [7.0, 8.0, 9.0], [-1.0, -2.0, 0.5]]> : tensor<4x3xf32>
  %m = tensor.dim %x, %c0 : tensor<?x4xf32>
  %cst = arith.constant 0.000000e+00 : f32
  %0 = tensor.empty(%m) : tensor<?x3xf32>
  %1 = linalg.fill ins(%cst : f32) outs(%0 : tensor<?x3xf32>) -> tensor<?x3xf32>
  %2 = linalg.matmul ins(%x, %w : tensor<?x4xf32>, tensor<4x3xf32>) outs(%1 : tensor<?x3xf32>) -> tensor<?x3xf32>
  return %2 : tensor<?x3xf32>
}
