// RUN: not mini-iree-run %s --input=2x3xf32=1 2>&1 | filecheck %s --check-prefix=ARITY
// RUN: not mini-iree-run %s --input=2x3xf32=1 --input=2x3xf32=1 2>&1 | filecheck %s --check-prefix=SHAPE
// RUN: not mini-iree-run %s --input=2x3xf32=1 --input=3x4xi32=1 2>&1 | filecheck %s --check-prefix=DTYPE
// RUN: not mini-iree-run %s --input=2x3xf32=1,2 --input=3x4xf32=1 2>&1 | filecheck %s --check-prefix=COUNT
// RUN: not mini-iree-run %s --input=2x3xq7=1 2>&1 | filecheck %s --check-prefix=TYPE
// RUN: not mini-iree-run %s --function=nope 2>&1 | filecheck %s --check-prefix=NOFUNC
// RUN: not mini-iree-run %s --input=@%t.missing.npy 2>&1 | filecheck %s --check-prefix=NOFILE

// ARITY: errors.mlir:[[# @LINE + 8]]:1: error: 'func.func' op @f takes 2 arguments, got 1
// SHAPE: errors.mlir:[[# @LINE + 7]]:35: error: 'func.func' op argument 1 of @f must be tensor<3x?xf32>, got 2x3xf32
// DTYPE: error: 'func.func' op argument 1 of @f must be tensor<3x?xf32>, got 3x4xi32
// COUNT: error: input '2x3xf32' needs 6 values (or one to splat), got 2
// TYPE: error: unknown element type 'q7' in input '2x3xq7=1'
// NOFUNC: error: no function named '@nope' in the module (functions: @f)
// NOFILE: error: could not read '{{.*}}missing.npy'
// CHECK-NOT: Traceback
func.func @f(%a: tensor<2x3xf32>, %b: tensor<3x?xf32>) -> tensor<2x?xf32> {
  %c1 = arith.constant 1 : index
  %n = tensor.dim %b, %c1 : tensor<3x?xf32>
  %e = tensor.empty(%n) : tensor<2x?xf32>
  %r = linalg.matmul ins(%a, %b : tensor<2x3xf32>, tensor<3x?xf32>) outs(%e : tensor<2x?xf32>) -> tensor<2x?xf32>
  return %r : tensor<2x?xf32>
}
