// Matmuls with a static size of 0 in M or N (and a chain whose middle link is 0 wide): the
// resolvers must never choose a 0 tile for them, on any target.
func.func @zero_m(%lhs: tensor<0x5xf32>, %rhs: tensor<5x7xf32>) -> tensor<0x7xf32> {
  %cst = arith.constant 0.000000e+00 : f32
  %0 = tensor.empty() : tensor<0x7xf32>
  %1 = linalg.fill ins(%cst : f32) outs(%0 : tensor<0x7xf32>) -> tensor<0x7xf32>
  %2 = linalg.matmul ins(%lhs, %rhs : tensor<0x5xf32>, tensor<5x7xf32>) outs(%1 : tensor<0x7xf32>) -> tensor<0x7xf32>
  return %2 : tensor<0x7xf32>
}

func.func @zero_n(%lhs: tensor<3x5xf32>, %rhs: tensor<5x0xf32>) -> tensor<3x0xf32> {
  %cst = arith.constant 0.000000e+00 : f32
  %0 = tensor.empty() : tensor<3x0xf32>
  %1 = linalg.fill ins(%cst : f32) outs(%0 : tensor<3x0xf32>) -> tensor<3x0xf32>
  %2 = linalg.matmul ins(%lhs, %rhs : tensor<3x5xf32>, tensor<5x0xf32>) outs(%1 : tensor<3x0xf32>) -> tensor<3x0xf32>
  return %2 : tensor<3x0xf32>
}

func.func @zero_batch_m(%lhs: tensor<2x0x5xf32>, %rhs: tensor<2x5x7xf32>) -> tensor<2x0x7xf32> {
  %cst = arith.constant 0.000000e+00 : f32
  %0 = tensor.empty() : tensor<2x0x7xf32>
  %1 = linalg.fill ins(%cst : f32) outs(%0 : tensor<2x0x7xf32>) -> tensor<2x0x7xf32>
  %2 = linalg.batch_matmul ins(%lhs, %rhs : tensor<2x0x5xf32>, tensor<2x5x7xf32>) outs(%1 : tensor<2x0x7xf32>) -> tensor<2x0x7xf32>
  return %2 : tensor<2x0x7xf32>
}

func.func @zero_link(%a: tensor<3x5xf32>, %b: tensor<5x0xf32>, %c: tensor<0x4xf32>) -> tensor<3x4xf32> {
  %cst = arith.constant 0.000000e+00 : f32
  %0 = tensor.empty() : tensor<3x0xf32>
  %1 = linalg.fill ins(%cst : f32) outs(%0 : tensor<3x0xf32>) -> tensor<3x0xf32>
  %2 = linalg.matmul ins(%a, %b : tensor<3x5xf32>, tensor<5x0xf32>) outs(%1 : tensor<3x0xf32>) -> tensor<3x0xf32>
  %3 = tensor.empty() : tensor<3x4xf32>
  %4 = linalg.fill ins(%cst : f32) outs(%3 : tensor<3x4xf32>) -> tensor<3x4xf32>
  %5 = linalg.matmul ins(%2, %c : tensor<3x0xf32>, tensor<0x4xf32>) outs(%4 : tensor<3x4xf32>) -> tensor<3x4xf32>
  return %5 : tensor<3x4xf32>
}
