// RUN: mini-iree-opt %s --split-input-file | mini-iree-opt --split-input-file | filecheck %s
// RUN: mini-iree-opt %s --split-input-file --mlir-print-op-generic | mini-iree-opt --split-input-file | filecheck %s

// The math dialect is xDSL's; IREE's tests use it on scalars (in linalg bodies) and tensors.

// CHECK-LABEL: func.func @math_ops
// CHECK: math.rsqrt %{{.*}} : f32
// CHECK: math.absf %{{.*}} fastmath<fast> : tensor<4xf32>
// CHECK: math.absi %{{.*}} : i32
// CHECK: math.exp %{{.*}} : tensor<4xf32>
// CHECK: math.floor %{{.*}} : f32
// CHECK: math.roundeven %{{.*}} : f32
// CHECK: math.fma %{{.*}}, %{{.*}}, %{{.*}} : f32
// CHECK: math.powf %{{.*}}, %{{.*}} : f32
// CHECK: math.sin %{{.*}} : f32
// CHECK: math.cos %{{.*}} : f32
func.func @math_ops(%a: f32, %b: tensor<4xf32>, %i: i32) -> (f32, tensor<4xf32>, i32) {
  %0 = math.rsqrt %a : f32
  %1 = math.absf %b fastmath<fast> : tensor<4xf32>
  %2 = math.absi %i : i32
  %3 = math.exp %1 : tensor<4xf32>
  %4 = math.floor %0 : f32
  %5 = math.roundeven %4 : f32
  %6 = math.fma %5, %5, %5 : f32
  %7 = math.powf %6, %0 : f32
  %8 = math.sin %7 : f32
  %9 = math.cos %8 : f32
  return %9, %3, %2 : f32, tensor<4xf32>, i32
}
