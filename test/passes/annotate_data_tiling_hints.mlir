// RUN: mini-iree-opt %s -p iree-dispatch-creation-annotate-data-tiling-hints --split-input-file | filecheck %s
// RUN: mini-iree-opt %s -p 'iree-dispatch-creation-annotate-data-tiling-hints{data-tiling-op-types=scaled_matmul}' --split-input-file | filecheck %s --check-prefix=NOMATMUL

func.func @matmul_static(%lhs: tensor<16x32xf32>, %rhs: tensor<32x8xf32>, %acc: tensor<16x8xf32>) -> tensor<16x8xf32> {
  %0 = linalg.matmul ins(%lhs, %rhs : tensor<16x32xf32>, tensor<32x8xf32>) outs(%acc : tensor<16x8xf32>) -> tensor<16x8xf32>
  return %0 : tensor<16x8xf32>
}
// CHECK-LABEL: func.func @matmul_static(
// CHECK:         linalg.matmul {iree.opt.data_tiling} ins(
// NOMATMUL-LABEL: func.func @matmul_static(
// NOMATMUL-NOT:    iree.opt.data_tiling
// NOMATMUL:        return

// -----

func.func @matmul_dynamic(%lhs: tensor<?x?xf32>, %rhs: tensor<?x?xf32>, %acc: tensor<?x?xf32>) -> tensor<?x?xf32> {
  %0 = linalg.matmul ins(%lhs, %rhs : tensor<?x?xf32>, tensor<?x?xf32>) outs(%acc : tensor<?x?xf32>) -> tensor<?x?xf32>
  return %0 : tensor<?x?xf32>
}
// CHECK-LABEL: func.func @matmul_dynamic(
// CHECK:         linalg.matmul {iree.opt.data_tiling} ins(

// -----

func.func @batch_matmul(%lhs: tensor<2x16x32xf32>, %rhs: tensor<2x32x8xf32>, %acc: tensor<2x16x8xf32>) -> tensor<2x16x8xf32> {
  %0 = linalg.batch_matmul ins(%lhs, %rhs : tensor<2x16x32xf32>, tensor<2x32x8xf32>) outs(%acc : tensor<2x16x8xf32>) -> tensor<2x16x8xf32>
  return %0 : tensor<2x16x8xf32>
}
// CHECK-LABEL: func.func @batch_matmul(
// CHECK:         linalg.batch_matmul {iree.opt.data_tiling} ins(

// -----

func.func @matvec(%lhs: tensor<16x32xf32>, %rhs: tensor<32xf32>, %acc: tensor<16xf32>) -> tensor<16xf32> {
  %0 = linalg.matvec ins(%lhs, %rhs : tensor<16x32xf32>, tensor<32xf32>) outs(%acc : tensor<16xf32>) -> tensor<16xf32>
  return %0 : tensor<16xf32>
}
// CHECK-LABEL: func.func @matvec(
// CHECK:         linalg.matvec {iree.opt.data_tiling} ins(

// -----

func.func @vecmat(%lhs: tensor<32xf32>, %rhs: tensor<32x8xf32>, %acc: tensor<8xf32>) -> tensor<8xf32> {
  %0 = linalg.vecmat ins(%lhs, %rhs : tensor<32xf32>, tensor<32x8xf32>) outs(%acc : tensor<8xf32>) -> tensor<8xf32>
  return %0 : tensor<8xf32>
}
// CHECK-LABEL: func.func @vecmat(
// CHECK:         linalg.vecmat {iree.opt.data_tiling} ins(

// -----

func.func @batch_matvec(%lhs: tensor<2x16x32xf32>, %rhs: tensor<2x32xf32>, %acc: tensor<2x16xf32>) -> tensor<2x16xf32> {
  %0 = linalg.batch_matvec ins(%lhs, %rhs : tensor<2x16x32xf32>, tensor<2x32xf32>) outs(%acc : tensor<2x16xf32>) -> tensor<2x16xf32>
  return %0 : tensor<2x16xf32>
}
// CHECK-LABEL: func.func @batch_matvec(
// CHECK:         linalg.batch_matvec {iree.opt.data_tiling} ins(

// -----

#map = affine_map<(d0, d1, d2) -> (d0, d2)>
#map1 = affine_map<(d0, d1, d2) -> (d1, d2)>
#map2 = affine_map<(d0, d1, d2) -> (d0, d1)>
func.func @matmul_transpose_b_generic(%lhs: tensor<16x32xf32>, %rhs: tensor<8x32xf32>, %acc: tensor<16x8xf32>) -> tensor<16x8xf32> {
  %0 = linalg.generic {indexing_maps = [#map, #map1, #map2], iterator_types = ["parallel", "parallel", "reduction"]} ins(%lhs, %rhs : tensor<16x32xf32>, tensor<8x32xf32>) outs(%acc : tensor<16x8xf32>) {
  ^bb0(%in: f32, %in_0: f32, %out: f32):
    %1 = arith.mulf %in, %in_0 : f32
    %2 = arith.addf %out, %1 : f32
    linalg.yield %2 : f32
  } -> tensor<16x8xf32>
  return %0 : tensor<16x8xf32>
}
// CHECK-LABEL: func.func @matmul_transpose_b_generic(
// CHECK:         linalg.generic {indexing_maps = [#map, #map1, #map2], iterator_types = ["parallel", "parallel", "reduction"]} ins(%{{.*}}, %{{.*}} : tensor<16x32xf32>, tensor<8x32xf32>) outs(%{{.*}} : tensor<16x8xf32>) attrs = {iree.opt.data_tiling} {

// -----

func.func @matmul_f16f16f32(%lhs: tensor<?x?xf16>, %rhs: tensor<?x?xf16>, %acc: tensor<?x?xf32>) -> tensor<?x?xf32> {
  %0 = linalg.matmul ins(%lhs, %rhs : tensor<?x?xf16>, tensor<?x?xf16>) outs(%acc : tensor<?x?xf32>) -> tensor<?x?xf32>
  return %0 : tensor<?x?xf32>
}
// CHECK-LABEL: func.func @matmul_f16f16f32(
// CHECK:         linalg.matmul {iree.opt.data_tiling} ins(

// -----

func.func @matmul_i8i8i32(%lhs: tensor<?x?xi8>, %rhs: tensor<?x?xi8>, %acc: tensor<?x?xi32>) -> tensor<?x?xi32> {
  %0 = linalg.matmul ins(%lhs, %rhs : tensor<?x?xi8>, tensor<?x?xi8>) outs(%acc : tensor<?x?xi32>) -> tensor<?x?xi32>
  return %0 : tensor<?x?xi32>
}
// CHECK-LABEL: func.func @matmul_i8i8i32(
// CHECK:         linalg.matmul {iree.opt.data_tiling} ins(

// -----

#map = affine_map<(d0, d1, d2) -> (d0, d2)>
#map1 = affine_map<(d0, d1, d2) -> (d2, d1)>
#map2 = affine_map<(d0, d1, d2) -> (d0, d1)>
func.func @matmul_unsigned_generic(%lhs: tensor<16x32xi8>, %rhs: tensor<32x8xi8>, %acc: tensor<16x8xi32>) -> tensor<16x8xi32> {
  %0 = linalg.generic {indexing_maps = [#map, #map1, #map2], iterator_types = ["parallel", "parallel", "reduction"]} ins(%lhs, %rhs : tensor<16x32xi8>, tensor<32x8xi8>) outs(%acc : tensor<16x8xi32>) {
  ^bb0(%in: i8, %in_0: i8, %out: i32):
    %1 = arith.extui %in : i8 to i32
    %2 = arith.extsi %in_0 : i8 to i32
    %3 = arith.muli %1, %2 : i32
    %4 = arith.addi %out, %3 : i32
    linalg.yield %4 : i32
  } -> tensor<16x8xi32>
  return %0 : tensor<16x8xi32>
}
// CHECK-LABEL: func.func @matmul_unsigned_generic(
// CHECK:         linalg.generic {{.*}} attrs = {iree.opt.data_tiling} {

// -----

// A dispatch region whose workgroup count is already fixed is left as it is.
func.func @matmul_in_dispatch_with_workgroup_count(%lhs: tensor<16x32xf32>, %rhs: tensor<32x8xf32>, %acc: tensor<16x8xf32>) -> tensor<16x8xf32> {
  %c1 = arith.constant 1 : index
  %0 = flow.dispatch.region[%c1] -> (tensor<16x8xf32>) {
    %1 = linalg.matmul ins(%lhs, %rhs : tensor<16x32xf32>, tensor<32x8xf32>) outs(%acc : tensor<16x8xf32>) -> tensor<16x8xf32>
    flow.return %1 : tensor<16x8xf32>
  } count(%arg3: index) -> (index, index, index) {
    flow.return %arg3, %arg3, %arg3 : index, index, index
  }
  return %0 : tensor<16x8xf32>
}
// CHECK-LABEL: func.func @matmul_in_dispatch_with_workgroup_count(
// CHECK-NOT:     iree.opt.data_tiling
// CHECK:         return

// -----

// Only the function with no preset hint is annotated; the preset one is left as written.
func.func @no_hint_when_preset(%lhs: tensor<16x32xf32>, %rhs: tensor<32x8xf32>, %acc: tensor<16x8xf32>) -> (tensor<16x8xf32>, tensor<16x8xf32>) {
  %0 = linalg.matmul {iree.opt.data_tiling} ins(%lhs, %rhs : tensor<16x32xf32>, tensor<32x8xf32>) outs(%acc : tensor<16x8xf32>) -> tensor<16x8xf32>
  %1 = linalg.matmul ins(%lhs, %rhs : tensor<16x32xf32>, tensor<32x8xf32>) outs(%0 : tensor<16x8xf32>) -> tensor<16x8xf32>
  return %0, %1 : tensor<16x8xf32>, tensor<16x8xf32>
}
func.func @annotated_next_to_preset(%lhs: tensor<16x32xf32>, %rhs: tensor<32x8xf32>, %acc: tensor<16x8xf32>) -> tensor<16x8xf32> {
  %0 = linalg.matmul ins(%lhs, %rhs : tensor<16x32xf32>, tensor<32x8xf32>) outs(%acc : tensor<16x8xf32>) -> tensor<16x8xf32>
  return %0 : tensor<16x8xf32>
}
// CHECK-LABEL: func.func @no_hint_when_preset(
// CHECK:         %[[P:.+]] = linalg.matmul {iree.opt.data_tiling} ins(
// CHECK-NEXT:    linalg.matmul ins(%{{.*}}, %{{.*}} : tensor<16x32xf32>, tensor<32x8xf32>) outs(%[[P]] : tensor<16x8xf32>)
// CHECK-LABEL: func.func @annotated_next_to_preset(
// CHECK:         linalg.matmul {iree.opt.data_tiling} ins(

// -----

#map = affine_map<(d0) -> (d0)>
#map1 = affine_map<(d0) -> ()>
func.func @no_hint_dot_product(%lhs: tensor<32xf32>, %rhs: tensor<32xf32>, %acc: tensor<f32>) -> tensor<f32> {
  %0 = linalg.generic {indexing_maps = [#map, #map, #map1], iterator_types = ["reduction"]} ins(%lhs, %rhs : tensor<32xf32>, tensor<32xf32>) outs(%acc : tensor<f32>) {
  ^bb0(%in: f32, %in_0: f32, %out: f32):
    %1 = arith.mulf %in, %in_0 : f32
    %2 = arith.addf %out, %1 : f32
    linalg.yield %2 : f32
  } -> tensor<f32>
  return %0 : tensor<f32>
}
// CHECK-LABEL: func.func @no_hint_dot_product(
// CHECK-NOT:     iree.opt.data_tiling
// CHECK:         return

// -----

// Two M loops (d0, d1): mmt4d cannot express it.
#map = affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>
#map1 = affine_map<(d0, d1, d2, d3) -> (d3, d2)>
#map2 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>
func.func @no_hint_multi_m_generic(%lhs: tensor<4x16x32xf32>, %rhs: tensor<32x8xf32>, %acc: tensor<4x16x8xf32>) -> tensor<4x16x8xf32> {
  %0 = linalg.generic {indexing_maps = [#map, #map1, #map2], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%lhs, %rhs : tensor<4x16x32xf32>, tensor<32x8xf32>) outs(%acc : tensor<4x16x8xf32>) {
  ^bb0(%in: f32, %in_0: f32, %out: f32):
    %1 = arith.mulf %in, %in_0 : f32
    %2 = arith.addf %out, %1 : f32
    linalg.yield %2 : f32
  } -> tensor<4x16x8xf32>
  return %0 : tensor<4x16x8xf32>
}
// CHECK-LABEL: func.func @no_hint_multi_m_generic(
// CHECK-NOT:     iree.opt.data_tiling
// CHECK:         return

// -----

// Two K loops (d2, d3).
#map = affine_map<(d0, d1, d2, d3) -> (d0, d2, d3)>
#map1 = affine_map<(d0, d1, d2, d3) -> (d2, d3, d1)>
#map2 = affine_map<(d0, d1, d2, d3) -> (d0, d1)>
func.func @no_hint_multi_k_generic(%lhs: tensor<16x4x8xf32>, %rhs: tensor<4x8x8xf32>, %acc: tensor<16x8xf32>) -> tensor<16x8xf32> {
  %0 = linalg.generic {indexing_maps = [#map, #map1, #map2], iterator_types = ["parallel", "parallel", "reduction", "reduction"]} ins(%lhs, %rhs : tensor<16x4x8xf32>, tensor<4x8x8xf32>) outs(%acc : tensor<16x8xf32>) {
  ^bb0(%in: f32, %in_0: f32, %out: f32):
    %1 = arith.mulf %in, %in_0 : f32
    %2 = arith.addf %out, %1 : f32
    linalg.yield %2 : f32
  } -> tensor<16x8xf32>
  return %0 : tensor<16x8xf32>
}
// CHECK-LABEL: func.func @no_hint_multi_k_generic(
// CHECK-NOT:     iree.opt.data_tiling
// CHECK:         return

// -----

#map = affine_map<(d0, d1, d2) -> (d0, d2)>
#map1 = affine_map<(d0, d1, d2) -> (d2, d1)>
#map2 = affine_map<(d0, d1, d2) -> (d0, d1)>
#encoding = #iree_encoding.encoding<operand_index = 0 : index, op_type = matmul, element_types = [f32, f32, f32], user_indexing_maps = [#map, #map1, #map2], iteration_sizes = [16, 8, 32]>
func.func @no_hint_encoded_operand(%lhs: tensor<16x32xf32, #encoding>, %rhs: tensor<32x8xf32>, %acc: tensor<16x8xf32>) -> tensor<16x8xf32> {
  %0 = linalg.matmul ins(%lhs, %rhs : tensor<16x32xf32, #encoding>, tensor<32x8xf32>) outs(%acc : tensor<16x8xf32>) -> tensor<16x8xf32>
  return %0 : tensor<16x8xf32>
}
// CHECK-LABEL: func.func @no_hint_encoded_operand(
// CHECK-NOT:     iree.opt.data_tiling
// CHECK:         return

// -----

#map = affine_map<(d0, d1) -> (d0, d1)>
#map1 = affine_map<(d0, d1) -> (d1)>
func.func @no_hint_elementwise_generic(%a: tensor<16x8xf32>, %b: tensor<8xf32>) -> tensor<16x8xf32> {
  %e = tensor.empty() : tensor<16x8xf32>
  %0 = linalg.generic {indexing_maps = [#map, #map1, #map], iterator_types = ["parallel", "parallel"]} ins(%a, %b : tensor<16x8xf32>, tensor<8xf32>) outs(%e : tensor<16x8xf32>) {
  ^bb0(%in: f32, %in_0: f32, %out: f32):
    %1 = arith.addf %in, %in_0 : f32
    linalg.yield %1 : f32
  } -> tensor<16x8xf32>
  return %0 : tensor<16x8xf32>
}
// CHECK-LABEL: func.func @no_hint_elementwise_generic(
// CHECK-NOT:     iree.opt.data_tiling
// CHECK:         return

// -----

// A max-plus "contraction" is not a multiply-accumulate.
#map = affine_map<(d0, d1, d2) -> (d0, d2)>
#map1 = affine_map<(d0, d1, d2) -> (d2, d1)>
#map2 = affine_map<(d0, d1, d2) -> (d0, d1)>
func.func @no_hint_max_plus_generic(%lhs: tensor<16x32xf32>, %rhs: tensor<32x8xf32>, %acc: tensor<16x8xf32>) -> tensor<16x8xf32> {
  %0 = linalg.generic {indexing_maps = [#map, #map1, #map2], iterator_types = ["parallel", "parallel", "reduction"]} ins(%lhs, %rhs : tensor<16x32xf32>, tensor<32x8xf32>) outs(%acc : tensor<16x8xf32>) {
  ^bb0(%in: f32, %in_0: f32, %out: f32):
    %1 = arith.addf %in, %in_0 : f32
    %2 = arith.maximumf %out, %1 : f32
    linalg.yield %2 : f32
  } -> tensor<16x8xf32>
  return %0 : tensor<16x8xf32>
}
// CHECK-LABEL: func.func @no_hint_max_plus_generic(
// CHECK-NOT:     iree.opt.data_tiling
// CHECK:         return

// -----

// A scaled (MX) contraction with one block loop (d2) and one loop inside a
// block (d3) is data-tiled too, also when only scaled matmuls are asked for.
#map = affine_map<(d0, d1, d2, d3) -> (d0, d2, d3)>
#map1 = affine_map<(d0, d1, d2, d3) -> (d1, d2, d3)>
#map2 = affine_map<(d0, d1, d2, d3) -> (d0, d2)>
#map3 = affine_map<(d0, d1, d2, d3) -> (d1, d2)>
#map4 = affine_map<(d0, d1, d2, d3) -> (d0, d1)>
func.func @scaled_matmul(%a: tensor<16x4x32xf4E2M1FN>, %b: tensor<8x4x32xf4E2M1FN>, %sa: tensor<16x4xf8E8M0FNU>, %sb: tensor<8x4xf8E8M0FNU>, %acc: tensor<16x8xf32>) -> tensor<16x8xf32> {
  %0 = linalg.generic {indexing_maps = [#map, #map1, #map2, #map3, #map4], iterator_types = ["parallel", "parallel", "reduction", "reduction"]} ins(%a, %b, %sa, %sb : tensor<16x4x32xf4E2M1FN>, tensor<8x4x32xf4E2M1FN>, tensor<16x4xf8E8M0FNU>, tensor<8x4xf8E8M0FNU>) outs(%acc : tensor<16x8xf32>) {
  ^bb0(%x: f4E2M1FN, %y: f4E2M1FN, %xs: f8E8M0FNU, %ys: f8E8M0FNU, %out: f32):
    %1 = arith.scaling_extf %x, %xs : f4E2M1FN, f8E8M0FNU to f32
    %2 = arith.scaling_extf %y, %ys : f4E2M1FN, f8E8M0FNU to f32
    %3 = arith.mulf %1, %2 : f32
    %4 = arith.addf %out, %3 : f32
    linalg.yield %4 : f32
  } -> tensor<16x8xf32>
  return %0 : tensor<16x8xf32>
}
// CHECK-LABEL: func.func @scaled_matmul(
// CHECK:         linalg.generic {{.*}} attrs = {iree.opt.data_tiling}
// NOMATMUL-LABEL: func.func @scaled_matmul(
// NOMATMUL:        linalg.generic {{.*}} attrs = {iree.opt.data_tiling}

// -----

// Two block loops (d2, d3): data tiling takes a single one, so no hint.
#map = affine_map<(d0, d1, d2, d3, d4) -> (d0, d2, d3, d4)>
#map1 = affine_map<(d0, d1, d2, d3, d4) -> (d1, d2, d3, d4)>
#map2 = affine_map<(d0, d1, d2, d3, d4) -> (d0, d2, d3)>
#map3 = affine_map<(d0, d1, d2, d3, d4) -> (d1, d2, d3)>
#map4 = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1)>
func.func @no_hint_scaled_matmul_two_block_loops(%a: tensor<16x2x2x32xf4E2M1FN>, %b: tensor<8x2x2x32xf4E2M1FN>, %sa: tensor<16x2x2xf8E8M0FNU>, %sb: tensor<8x2x2xf8E8M0FNU>, %acc: tensor<16x8xf32>) -> tensor<16x8xf32> {
  %0 = linalg.generic {indexing_maps = [#map, #map1, #map2, #map3, #map4], iterator_types = ["parallel", "parallel", "reduction", "reduction", "reduction"]} ins(%a, %b, %sa, %sb : tensor<16x2x2x32xf4E2M1FN>, tensor<8x2x2x32xf4E2M1FN>, tensor<16x2x2xf8E8M0FNU>, tensor<8x2x2xf8E8M0FNU>) outs(%acc : tensor<16x8xf32>) {
  ^bb0(%x: f4E2M1FN, %y: f4E2M1FN, %xs: f8E8M0FNU, %ys: f8E8M0FNU, %out: f32):
    %1 = arith.scaling_extf %x, %xs : f4E2M1FN, f8E8M0FNU to f32
    %2 = arith.scaling_extf %y, %ys : f4E2M1FN, f8E8M0FNU to f32
    %3 = arith.mulf %1, %2 : f32
    %4 = arith.addf %out, %3 : f32
    linalg.yield %4 : f32
  } -> tensor<16x8xf32>
  return %0 : tensor<16x8xf32>
}
// CHECK-LABEL: func.func @no_hint_scaled_matmul_two_block_loops(
// CHECK-NOT:     iree.opt.data_tiling
// CHECK:         return

// -----

// A plain product of the scaled values (no accumulation into the init) is not a contraction body.
#map = affine_map<(d0, d1, d2, d3) -> (d0, d2, d3)>
#map1 = affine_map<(d0, d1, d2, d3) -> (d1, d2, d3)>
#map2 = affine_map<(d0, d1, d2, d3) -> (d0, d2)>
#map3 = affine_map<(d0, d1, d2, d3) -> (d1, d2)>
#map4 = affine_map<(d0, d1, d2, d3) -> (d0, d1)>
func.func @no_hint_scaled_without_accumulation(%a: tensor<16x4x32xf4E2M1FN>, %b: tensor<8x4x32xf4E2M1FN>, %sa: tensor<16x4xf8E8M0FNU>, %sb: tensor<8x4xf8E8M0FNU>, %acc: tensor<16x8xf32>) -> tensor<16x8xf32> {
  %0 = linalg.generic {indexing_maps = [#map, #map1, #map2, #map3, #map4], iterator_types = ["parallel", "parallel", "reduction", "reduction"]} ins(%a, %b, %sa, %sb : tensor<16x4x32xf4E2M1FN>, tensor<8x4x32xf4E2M1FN>, tensor<16x4xf8E8M0FNU>, tensor<8x4xf8E8M0FNU>) outs(%acc : tensor<16x8xf32>) {
  ^bb0(%x: f4E2M1FN, %y: f4E2M1FN, %xs: f8E8M0FNU, %ys: f8E8M0FNU, %out: f32):
    %1 = arith.scaling_extf %x, %xs : f4E2M1FN, f8E8M0FNU to f32
    %2 = arith.scaling_extf %y, %ys : f4E2M1FN, f8E8M0FNU to f32
    %3 = arith.mulf %1, %2 : f32
    linalg.yield %3 : f32
  } -> tensor<16x8xf32>
  return %0 : tensor<16x8xf32>
}
// CHECK-LABEL: func.func @no_hint_scaled_without_accumulation(
// CHECK-NOT:     iree.opt.data_tiling
// CHECK:         return
