// RUN: mini-iree-opt %s --split-input-file -p iree-codegen-materialize-encoding-into-nop | filecheck %s
// RUN: mini-iree-opt %s --split-input-file -p iree-codegen-materialize-encoding-into-nop --verify-each-with-interpreter 2>&1 >/dev/null | filecheck %s --check-prefix=KEPT

// Every encoding goes, whatever target the function names: set/unset_encoding
// vanish and the matmul, its fill and its init are left on plain tensors.

#map = affine_map<(d0, d1, d2) -> (d0, d2)>
#map1 = affine_map<(d0, d1, d2) -> (d2, d1)>
#map2 = affine_map<(d0, d1, d2) -> (d0, d1)>
#lhs = #iree_encoding.encoding<operand_index = 0, op_type = matmul, element_types = [f32, f32, f32], user_indexing_maps = [#map, #map1, #map2]>
#rhs = #iree_encoding.encoding<operand_index = 1, op_type = matmul, element_types = [f32, f32, f32], user_indexing_maps = [#map, #map1, #map2]>
#out = #iree_encoding.encoding<operand_index = 2, op_type = matmul, element_types = [f32, f32, f32], user_indexing_maps = [#map, #map1, #map2]>
func.func @matmul(%arg0: tensor<?x?xf32>, %arg1: tensor<?x?xf32>) -> tensor<?x?xf32> attributes {
  hal.executable.target = #hal.executable.target<"llvm-cpu", "xyz", {cpu_features = "+avx512f", iree.encoding.resolver = #iree_cpu.cpu_encoding_resolver<>, target_triple = "x86_64-xyz-xyz"}>
} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %cst = arith.constant 0.0 : f32
  %m = tensor.dim %arg0, %c0 : tensor<?x?xf32>
  %n = tensor.dim %arg1, %c1 : tensor<?x?xf32>
  %0 = iree_encoding.set_encoding %arg0 : tensor<?x?xf32> -> tensor<?x?xf32, #lhs>
  %1 = iree_encoding.set_encoding %arg1 : tensor<?x?xf32> -> tensor<?x?xf32, #rhs>
  %2 = tensor.empty(%m, %n) : tensor<?x?xf32, #out>
  %3 = linalg.fill ins(%cst : f32) outs(%2 : tensor<?x?xf32, #out>) -> tensor<?x?xf32, #out>
  %4 = linalg.matmul ins(%0, %1 : tensor<?x?xf32, #lhs>, tensor<?x?xf32, #rhs>) outs(%3 : tensor<?x?xf32, #out>) -> tensor<?x?xf32, #out>
  %5 = iree_encoding.unset_encoding %4 : tensor<?x?xf32, #out> -> tensor<?x?xf32>{%m, %n}
  return %5 : tensor<?x?xf32>
}
// CHECK-LABEL: func.func @matmul(
// CHECK-SAME:    %[[A:[a-z0-9]+]]: tensor<?x?xf32>, %[[B:[a-z0-9]+]]: tensor<?x?xf32>
// CHECK-NOT:     iree_encoding
// CHECK:         %[[EMPTY:.+]] = tensor.empty(%{{.+}}, %{{.+}}) : tensor<?x?xf32>
// CHECK:         %[[FILL:.+]] = linalg.fill ins(%{{.+}} : f32) outs(%[[EMPTY]] : tensor<?x?xf32>)
// CHECK:         %[[MM:.+]] = linalg.matmul ins(%[[A]], %[[B]] : tensor<?x?xf32>, tensor<?x?xf32>) outs(%[[FILL]] : tensor<?x?xf32>)
// CHECK-NOT:     iree_encoding
// CHECK:         return %[[MM]]
// KEPT: pass 'iree-codegen-materialize-encoding-into-nop' kept the results of 1 function

// -----

// A function without encodings is left alone.
func.func @plain(%arg0: tensor<4xf32>) -> tensor<4xf32> {
  return %arg0 : tensor<4xf32>
}
// CHECK-LABEL: func.func @plain(
// CHECK-NEXT:    return %arg0 : tensor<4xf32>
