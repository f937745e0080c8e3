func.func @bmm(%a: tensor<4x?x?xf16>, %b: tensor<4x?x?xf16>) -> tensor<4x?x?xf32> {
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %m = tensor.dim %a, %c1 : tensor<4x?x?xf16>
  %n = tensor.dim %b, %c2 : tensor<4x?x?xf16>
  %z = arith.constant 0.0 : f32
  %e = tensor.empty(%m, %n) : tensor<4x?x?xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<4x?x?xf32>) -> tensor<4x?x?xf32>
  %r = linalg.batch_matmul ins(%a, %b : tensor<4x?x?xf16>, tensor<4x?x?xf16>) outs(%f : tensor<4x?x?xf32>) -> tensor<4x?x?xf32>
  return %r : tensor<4x?x?xf32>
}
