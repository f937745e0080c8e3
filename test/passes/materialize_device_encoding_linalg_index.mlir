// RUN: mini-iree-opt %s --split-input-file -p iree-codegen-materialize-device-encoding --iree-era=3.13 | filecheck %s

// An elementwise generic that reads its loop indices (a causal mask): on the packed tiles each
// `linalg.index d` is rebuilt from the packed loops, `outer * tile + inner` for a tiled dim
// (IREE's computePackedIndex). The result is packed 16x16 with outer_dims_perm = [0, 1], so
// row = d0 * 16 + d2 and column = d1 * 16 + d3.

#map = affine_map<(d0, d1, d2) -> (d0, d2)>
#map1 = affine_map<(d0, d1, d2) -> (d2, d1)>
#map2 = affine_map<(d0, d1, d2) -> (d0, d1)>
#res = #iree_encoding.encoding<operand_index = 2, op_type = matmul, element_types = [f32, f32, f32], user_indexing_maps = [#map, #map1, #map2], iteration_sizes = [20, 40, 8]>
func.func @causal_mask(%a: tensor<20x40xf32>) -> tensor<20x40xf32> attributes {
  hal.executable.target = #hal.executable.target<"llvm-cpu", "xyz", {target_triple="x86_64-xyz-xyz", cpu_features="+avx512f", iree.encoding.resolver = #iree_cpu.cpu_encoding_resolver<>}>
} {
  %zero = arith.constant 0.0 : f32
  %ninf = arith.constant -1.0e+30 : f32
  %0 = iree_encoding.set_encoding %a : tensor<20x40xf32> -> tensor<20x40xf32, #res>
  %1 = tensor.empty() : tensor<20x40xf32, #res>
  %2 = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%0 : tensor<20x40xf32, #res>) outs(%1 : tensor<20x40xf32, #res>) {
  ^bb0(%in: f32, %out: f32):
    %i = linalg.index 0 : index
    %j = linalg.index 1 : index
    %keep = arith.cmpi sge, %i, %j : index
    %m = arith.select %keep, %zero, %ninf : f32
    %r = arith.addf %in, %m : f32
    linalg.yield %r : f32
  } -> tensor<20x40xf32, #res>
  %3 = iree_encoding.unset_encoding %2 : tensor<20x40xf32, #res> -> tensor<20x40xf32>
  return %3 : tensor<20x40xf32>
}
// CHECK-LABEL: func.func @causal_mask(
// CHECK:         %[[C16:.+]] = arith.constant 16 : index
// CHECK:         linalg.generic
// CHECK-SAME:      iterator_types = ["parallel", "parallel", "parallel", "parallel"]
// CHECK:         ^bb0(
// CHECK-NEXT:      %[[D0:.+]] = linalg.index 0 : index
// CHECK-NEXT:      %[[D2:.+]] = linalg.index 2 : index
// CHECK-NEXT:      %[[O0:.+]] = arith.muli %[[D0]], %[[C16]] : index
// CHECK-NEXT:      %[[ROW:.+]] = arith.addi %[[O0]], %[[D2]] : index
// CHECK-NEXT:      %[[D1:.+]] = linalg.index 1 : index
// CHECK-NEXT:      %[[D3:.+]] = linalg.index 3 : index
// CHECK-NEXT:      %[[O1:.+]] = arith.muli %[[D1]], %[[C16]] : index
// CHECK-NEXT:      %[[COL:.+]] = arith.addi %[[O1]], %[[D3]] : index
// CHECK-NEXT:      arith.cmpi sge, %[[ROW]], %[[COL]] : index
// CHECK:         linalg.unpack
