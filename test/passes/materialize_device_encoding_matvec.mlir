// RUN: mini-iree-opt %s --split-input-file -p iree-codegen-materialize-device-encoding --iree-era=3.13 | filecheck %s

// A vecmat's filled init: IREE's clean-up folds the expand_shape to 4-D into the fill and the
// tensor.empty, so the fill writes the 1 x N1 x 1 x N0 tile mmt4d accumulates into.

#map = affine_map<(d0, d1) -> (d1)>
#map1 = affine_map<(d0, d1) -> (d1, d0)>
#map2 = affine_map<(d0, d1) -> (d0)>
#lhs = #iree_encoding.encoding<operand_index = 0, op_type = matmul, element_types = [f32, f32, f32], user_indexing_maps = [#map, #map1, #map2], iteration_sizes = [40, 6]>
#rhs = #iree_encoding.encoding<operand_index = 1, op_type = matmul, element_types = [f32, f32, f32], user_indexing_maps = [#map, #map1, #map2], iteration_sizes = [40, 6]>
#res = #iree_encoding.encoding<operand_index = 2, op_type = matmul, element_types = [f32, f32, f32], user_indexing_maps = [#map, #map1, #map2], iteration_sizes = [40, 6]>
func.func @vecmat(%a: tensor<6xf32>, %b: tensor<6x40xf32>) -> tensor<40xf32> attributes {
  hal.executable.target = #hal.executable.target<"llvm-cpu", "xyz", {target_triple="x86_64-xyz-xyz", cpu_features="+avx512f", iree.encoding.resolver = #iree_cpu.cpu_encoding_resolver<>}>
} {
  %zero = arith.constant 0.0 : f32
  %0 = iree_encoding.set_encoding %a : tensor<6xf32> -> tensor<6xf32, #lhs>
  %1 = iree_encoding.set_encoding %b : tensor<6x40xf32> -> tensor<6x40xf32, #rhs>
  %2 = tensor.empty() : tensor<40xf32, #res>
  %3 = linalg.fill ins(%zero : f32) outs(%2 : tensor<40xf32, #res>) -> tensor<40xf32, #res>
  %4 = linalg.vecmat ins(%0, %1 : tensor<6xf32, #lhs>, tensor<6x40xf32, #rhs>) outs(%3 : tensor<40xf32, #res>) -> tensor<40xf32, #res>
  %5 = iree_encoding.unset_encoding %4 : tensor<40xf32, #res> -> tensor<40xf32>
  return %5 : tensor<40xf32>
}
// CHECK-LABEL: func.func @vecmat(
// CHECK:         %[[RHS:.+]] = linalg.pack %{{.+}} -> tensor<3x6x16x1xf32>
// CHECK-DAG:     %[[LHS4D:.+]] = tensor.expand_shape %{{.+}} {{\[}}[0, 1], [2, 3]] output_shape [1, 6, 1, 1] : tensor<6x1xf32> into tensor<1x6x1x1xf32>
// CHECK-DAG:     %[[INIT:.+]] = tensor.empty() : tensor<1x3x1x16xf32>
// CHECK:         %[[FILL:.+]] = linalg.fill ins(%{{.+}} : f32) outs(%[[INIT]] : tensor<1x3x1x16xf32>) -> tensor<1x3x1x16xf32>
// CHECK:         %[[MMT4D:.+]] = linalg.mmt4d ins(%[[LHS4D]], %[[RHS]] : tensor<1x6x1x1xf32>, tensor<3x6x16x1xf32>) outs(%[[FILL]] : tensor<1x3x1x16xf32>)
// CHECK:         tensor.collapse_shape %[[MMT4D]] {{\[}}[0, 1], [2, 3]] : tensor<1x3x1x16xf32> into tensor<3x16xf32>
// CHECK-NOT:     tensor.expand_shape

// -----

// A batch matvec with a single row (M = N = 1: nothing is narrow, nothing transposed): the
// result's unit dim trails, and goes with the dim before it (IREE's getExpandedType:
// [[0], [1, 2], [3, 4]], as for the vector operand, whose unit dim leads).

#map = affine_map<(b, m, k) -> (b, m, k)>
#map1 = affine_map<(b, m, k) -> (b, k)>
#map2 = affine_map<(b, m, k) -> (b, m)>
#lhs = #iree_encoding.encoding<operand_index = 0, op_type = matmul, element_types = [f32, f32, f32], user_indexing_maps = [#map, #map1, #map2], iteration_sizes = [2, 1, 5]>
#rhs = #iree_encoding.encoding<operand_index = 1, op_type = matmul, element_types = [f32, f32, f32], user_indexing_maps = [#map, #map1, #map2], iteration_sizes = [2, 1, 5]>
#res = #iree_encoding.encoding<operand_index = 2, op_type = matmul, element_types = [f32, f32, f32], user_indexing_maps = [#map, #map1, #map2], iteration_sizes = [2, 1, 5]>
func.func @batch_matvec(%a: tensor<2x1x5xf32>, %b: tensor<2x5xf32>, %c: tensor<2x1xf32>) -> tensor<2x1xf32> attributes {
  hal.executable.target = #hal.executable.target<"llvm-cpu", "xyz", {target_triple="x86_64-xyz-xyz", cpu_features="+avx512f", iree.encoding.resolver = #iree_cpu.cpu_encoding_resolver<>}>
} {
  %0 = iree_encoding.set_encoding %a : tensor<2x1x5xf32> -> tensor<2x1x5xf32, #lhs>
  %1 = iree_encoding.set_encoding %b : tensor<2x5xf32> -> tensor<2x5xf32, #rhs>
  %2 = iree_encoding.set_encoding %c : tensor<2x1xf32> -> tensor<2x1xf32, #res>
  %3 = linalg.batch_matvec ins(%0, %1 : tensor<2x1x5xf32, #lhs>, tensor<2x5xf32, #rhs>) outs(%2 : tensor<2x1xf32, #res>) -> tensor<2x1xf32, #res>
  %4 = iree_encoding.unset_encoding %3 : tensor<2x1xf32, #res> -> tensor<2x1xf32>
  return %4 : tensor<2x1xf32>
}
// CHECK-LABEL: func.func @batch_matvec(
// CHECK:         %[[LHS:.+]] = linalg.pack %{{.+}} -> tensor<2x1x5x16x1xf32>
// CHECK:         %[[RHS:.+]] = tensor.expand_shape %{{.+}} {{\[}}[0], [1, 2], [3, 4]] output_shape [2, 1, 5, 1, 1] : tensor<2x5x1xf32> into tensor<2x1x5x1x1xf32>
// CHECK:         %[[ACC:.+]] = tensor.expand_shape %{{.+}} {{\[}}[0], [1, 2], [3, 4]] output_shape [2, 1, 1, 16, 1] : tensor<2x1x16xf32> into tensor<2x1x1x16x1xf32>
// CHECK:         linalg.batch_mmt4d ins(%[[LHS]], %[[RHS]] : {{.+}}) outs(%[[ACC]] :
// CHECK:         tensor.collapse_shape %{{.+}} {{\[}}[0], [1, 2], [3, 4]] : tensor<2x1x1x16x1xf32> into tensor<2x1x16xf32>

// -----

// A batch vecmat with an unsigned RHS (VMVX without microkernels tiles any element types): each mmt4d operand is finished before the next is
// started (IREE's getMmt4dOperand), so the RHS's zero-extension comes before the result's
// expand_shape, and the vector LHS's expand_shape before both.

#map = affine_map<(b, n, k) -> (b, k)>
#map1 = affine_map<(b, n, k) -> (b, k, n)>
#map2 = affine_map<(b, n, k) -> (b, n)>
#lhs = #iree_encoding.encoding<operand_index = 0, op_type = matmul, element_types = [i8, ui8, i32], user_indexing_maps = [#map, #map1, #map2], iteration_sizes = [2, 40, 12]>
#rhs = #iree_encoding.encoding<operand_index = 1, op_type = matmul, element_types = [i8, ui8, i32], user_indexing_maps = [#map, #map1, #map2], iteration_sizes = [2, 40, 12]>
#res = #iree_encoding.encoding<operand_index = 2, op_type = matmul, element_types = [i8, ui8, i32], user_indexing_maps = [#map, #map1, #map2], iteration_sizes = [2, 40, 12]>
func.func @batch_vecmat_ui8(%a: tensor<2x12xi8>, %b: tensor<2x12x40xi8>, %c: tensor<2x40xi32>) -> tensor<2x40xi32> attributes {
  hal.executable.target = #hal.executable.target<"vmvx", "vmvx-bytecode-fb", {iree.encoding.resolver = #iree_cpu.vmvx_encoding_resolver<>}>
} {
  %0 = iree_encoding.set_encoding %a : tensor<2x12xi8> -> tensor<2x12xi8, #lhs>
  %1 = iree_encoding.set_encoding %b : tensor<2x12x40xi8> -> tensor<2x12x40xi8, #rhs>
  %2 = iree_encoding.set_encoding %c : tensor<2x40xi32> -> tensor<2x40xi32, #res>
  %3 = linalg.generic {indexing_maps = [#map, #map1, #map2], iterator_types = ["parallel", "parallel", "reduction"]} ins(%0, %1 : tensor<2x12xi8, #lhs>, tensor<2x12x40xi8, #rhs>) outs(%2 : tensor<2x40xi32, #res>) {
  ^bb0(%x: i8, %y: i8, %acc: i32):
    %xe = arith.extsi %x : i8 to i32
    %ye = arith.extui %y : i8 to i32
    %p = arith.muli %xe, %ye : i32
    %s = arith.addi %p, %acc : i32
    linalg.yield %s : i32
  } -> tensor<2x40xi32, #res>
  %4 = iree_encoding.unset_encoding %3 : tensor<2x40xi32, #res> -> tensor<2x40xi32>
  return %4 : tensor<2x40xi32>
}
// CHECK-LABEL: func.func @batch_vecmat_ui8(
// CHECK:         %[[LHS:.+]] = tensor.expand_shape %{{.+}} {{\[}}[0], [1, 2], [3, 4]] {{.+}} into tensor<2x1x{{[0-9]+}}x1x{{[0-9]+}}xi8>
// CHECK-NOT:     tensor.expand_shape
// CHECK:         %[[RHS:.+]] = linalg.generic
// CHECK:           arith.extui %{{.+}} : i8 to i32
// CHECK:         } -> tensor<2x{{[0-9]+}}x{{[0-9]+}}x{{[0-9]+}}x{{[0-9]+}}xi32>
// CHECK:         %[[ACC:.+]] = tensor.expand_shape %{{.+}} {{\[}}[0], [1, 2], [3, 4]] {{.+}} into tensor<2x1x{{[0-9]+}}x1x{{[0-9]+}}xi32>
// CHECK:         linalg.batch_mmt4d ins(%[[LHS]], %[[RHS]] : {{.+}}) outs(%[[ACC]] :
