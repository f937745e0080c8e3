// RUN: mini-iree-run %s --input=2x3xf32=1,2,3,4,5,6 --input="3x2xf32=[1 0][0 1][1 1]" | filecheck %s
// RUN: mini-iree-run %s --input=2x3xf32=1 --input=3x2xf32=0.5 | filecheck %s --check-prefix=SPLAT
// RUN: mini-iree-run %s --input=0x3xf32=0 --input=3x1xf32=2 | filecheck %s --check-prefix=EMPTY

// The walkthrough's dynamic matmul, run with iree-run-module's input syntax.

// CHECK:      EXEC @matmul_f32f32f32
// CHECK-NEXT: result[0]: hal.buffer_view
// CHECK-NEXT: 2x2xf32=[4 5][10 11]

// SPLAT: 2x2xf32=[1.5 1.5][1.5 1.5]

// EMPTY: 0x1xf32=
func.func @matmul_f32f32f32(%arg0: tensor<?x?xf32>, %arg1: tensor<?x?xf32>) -> tensor<?x?xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %dim = tensor.dim %arg0, %c0 : tensor<?x?xf32>
  %dim_0 = tensor.dim %arg1, %c1 : tensor<?x?xf32>
  %cst = arith.constant 0.000000e+00 : f32
  %0 = tensor.empty(%dim, %dim_0) : tensor<?x?xf32>
  %1 = linalg.fill ins(%cst : f32) outs(%0 : tensor<?x?xf32>) -> tensor<?x?xf32>
  %2 = linalg.matmul ins(%arg0, %arg1 : tensor<?x?xf32>, tensor<?x?xf32>) outs(%1 : tensor<?x?xf32>) -> tensor<?x?xf32>
  return %2 : tensor<?x?xf32>
}
