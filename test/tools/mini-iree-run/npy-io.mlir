// RUN: python -c "import numpy as np; np.save('%t.a.npy', np.arange(-3, 3, dtype=np.int8).reshape(2, 3))"
// RUN: mini-iree-run %s --input=@%t.a.npy --input=3x2xi8=100 --output=@%t.c.npy | filecheck %s --check-prefix=QUIET
// RUN: python -c "import numpy as np; c = np.load('%t.c.npy'); print(c.dtype, c.tolist())" | filecheck %s

// i8 x i8 -> i32 products are exact (rows sum to -6 and 3, times 100); --output writes the result instead of printing it.

// QUIET: EXEC @mm_i8
// QUIET-NOT: result[0]
// CHECK: int32 {{\[\[}}-600, -600], [300, 300]]
func.func @mm_i8(%a: tensor<2x3xi8>, %b: tensor<3x2xi8>) -> tensor<2x2xi32> {
  %zero = arith.constant 0 : i32
  %e = tensor.empty() : tensor<2x2xi32>
  %f = linalg.fill ins(%zero : i32) outs(%e : tensor<2x2xi32>) -> tensor<2x2xi32>
  %r = linalg.matmul ins(%a, %b : tensor<2x3xi8>, tensor<3x2xi8>) outs(%f : tensor<2x2xi32>) -> tensor<2x2xi32>
  return %r : tensor<2x2xi32>
}
