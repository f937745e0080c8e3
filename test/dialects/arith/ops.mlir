// RUN: mini-iree-opt %s --split-input-file | mini-iree-opt --split-input-file | filecheck %s
// RUN: mini-iree-opt %s --split-input-file --mlir-print-op-generic | mini-iree-opt --split-input-file | filecheck %s

// The constant forms of the reference dumps, with MLIR's result names.
// CHECK-LABEL: func.func @constants
// CHECK: %c0 = arith.constant 0 : index
// CHECK: %c32_i64 = arith.constant 32 : i64
// CHECK: %cst = arith.constant 0.000000e+00 : f32
// CHECK: %true = arith.constant true
// CHECK: %cst_0 = arith.constant dense<1.000000e+00> : tensor<513x1023xf32>
// CHECK: %cst_1 = arith.constant dense<{{\[\[}}1.000000e+00, 2.000000e+00], [3.000000e+00, 4.000000e+00]]> : tensor<2x2xf32>
// CHECK: %cst_2 = arith.constant dense_resource<__elided__> : tensor<256x512xf32>
func.func @constants() -> (index, i64, f32, i1, tensor<513x1023xf32>, tensor<2x2xf32>, tensor<256x512xf32>) {
  %0 = arith.constant 0 : index
  %1 = arith.constant 32 : i64
  %2 = arith.constant 0.0 : f32
  %3 = arith.constant true
  %4 = arith.constant dense<1.0> : tensor<513x1023xf32>
  %5 = arith.constant dense<[[1.0, 2.0], [3.0, 4.0]]> : tensor<2x2xf32>
  %6 = arith.constant dense_resource<__elided__> : tensor<256x512xf32>
  return %0, %1, %2, %3, %4, %5, %6 : index, i64, f32, i1, tensor<513x1023xf32>, tensor<2x2xf32>, tensor<256x512xf32>
}

// -----

// Reassembling a 64-bit push constant from two i32 halves, as IREE's dispatches do.
// CHECK-LABEL: func.func @integer_ops
// CHECK: %[[LO:.+]] = arith.extui %{{.*}} : i32 to i64
// CHECK: %[[HI:.+]] = arith.extui %{{.*}} {stream.alignment = 64 : index} : i32 to i64
// CHECK: %[[SH:.+]] = arith.shli %[[HI]], %{{.*}} : i64
// CHECK: arith.ori %[[LO]], %[[SH]] : i64
func.func @integer_ops(%a: i32, %b: i32) -> i64 {
  %c32_i64 = arith.constant 32 : i64
  %0 = arith.extui %a : i32 to i64
  %1 = arith.extui %b {stream.alignment = 64 : index} : i32 to i64
  %2 = arith.shli %1, %c32_i64 : i64
  %3 = arith.ori %0, %2 : i64
  return %3 : i64
}

// -----

// CHECK-LABEL: func.func @index_ops
// CHECK: arith.muli %{{.*}}, %{{.*}} : index
// CHECK: arith.muli %{{.*}}, %{{.*}} overflow<nsw> : index
// CHECK: arith.ceildivsi %{{.*}}, %{{.*}} : index
// CHECK: arith.divsi %{{.*}}, %{{.*}} : index
// CHECK: arith.divui %{{.*}}, %{{.*}} : index
// CHECK: arith.cmpi ult, %{{.*}}, %{{.*}} : index
// CHECK: arith.andi %{{.*}}, %{{.*}} : i1
func.func @index_ops(%i: index, %j: index, %p: i1) -> (index, index, index, index, index, i1) {
  %0 = arith.muli %i, %j : index
  %1 = arith.muli %i, %j overflow<nsw> : index
  %2 = arith.ceildivsi %i, %j : index
  %3 = arith.divsi %i, %j : index
  %4 = arith.divui %i, %j : index
  %5 = arith.cmpi ult, %i, %j : index
  %6 = arith.andi %5, %p : i1
  return %0, %1, %2, %3, %4, %6 : index, index, index, index, index, i1
}

// -----

// CHECK-LABEL: func.func @float_ops
// CHECK: arith.mulf %{{.*}}, %{{.*}} : f32
// CHECK: arith.addf %{{.*}}, %{{.*}} : f32
// CHECK: arith.maximumf %{{.*}}, %{{.*}} : f32
func.func @float_ops(%x: f32, %y: f32) -> f32 {
  %0 = arith.mulf %x, %y : f32
  %1 = arith.addf %0, %y : f32
  %2 = arith.maximumf %1, %x : f32
  return %2 : f32
}

// -----

// MX block-scaled casts, and int-to-float casts on whole tensors (i1 included).

// CHECK-LABEL: func.func @scaled_casts
// CHECK: arith.scaling_extf %{{.*}}, %{{.*}} : f4E2M1FN, f8E8M0FNU to f32
// CHECK: arith.scaling_truncf %{{.*}}, %{{.*}} fastmath<fast> : f32, f8E8M0FNU to f4E2M1FN
// CHECK: arith.scaling_extf %{{.*}}, %{{.*}} : tensor<4xf16>, tensor<4xf16> to tensor<4xf32>
func.func @scaled_casts(%a: f4E2M1FN, %s: f8E8M0FNU, %x: f32, %t: tensor<4xf16>, %ts: tensor<4xf16>) -> (f32, f4E2M1FN, tensor<4xf32>) {
  %0 = arith.scaling_extf %a, %s : f4E2M1FN, f8E8M0FNU to f32
  %1 = arith.scaling_truncf %x, %s fastmath<fast> : f32, f8E8M0FNU to f4E2M1FN
  %2 = arith.scaling_extf %t, %ts : tensor<4xf16>, tensor<4xf16> to tensor<4xf32>
  return %0, %1, %2 : f32, f4E2M1FN, tensor<4xf32>
}

// -----

// CHECK-LABEL: func.func @int_to_float_tensors
// CHECK: arith.uitofp %{{.*}} : tensor<64x256xi1> to tensor<64x256xf32>
// CHECK: arith.sitofp %{{.*}} : tensor<4xi8> to tensor<4xf16>
func.func @int_to_float_tensors(%m: tensor<64x256xi1>, %c: tensor<4xi8>) -> (tensor<64x256xf32>, tensor<4xf16>) {
  %0 = arith.uitofp %m : tensor<64x256xi1> to tensor<64x256xf32>
  %1 = arith.sitofp %c : tensor<4xi8> to tensor<4xf16>
  return %0, %1 : tensor<64x256xf32>, tensor<4xf16>
}

// -----

// Integer extensions and truncation of whole tensors, as IREE narrows loaded i1 tensors.
// CHECK-LABEL: func.func @integer_resize_tensors
// CHECK: arith.trunci %{{.*}} : tensor<?xi8> to tensor<?xi1>
// CHECK: arith.extui %{{.*}} : tensor<?xi1> to tensor<?xi8>
// CHECK: arith.extsi %{{.*}} : tensor<?xi8> to tensor<?xi32>
func.func @integer_resize_tensors(%t: tensor<?xi8>) -> (tensor<?xi8>, tensor<?xi32>) {
  %0 = arith.trunci %t : tensor<?xi8> to tensor<?xi1>
  %1 = arith.extui %0 : tensor<?xi1> to tensor<?xi8>
  %2 = arith.extsi %t : tensor<?xi8> to tensor<?xi32>
  return %1, %2 : tensor<?xi8>, tensor<?xi32>
}
