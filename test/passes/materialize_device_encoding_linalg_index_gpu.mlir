// RUN: mini-iree-opt %s --pass-pipeline='builtin.module(func.func(iree-codegen-materialize-device-encoding{test-gpu-encoding-resolver=gpu_data_tiling}))' --iree-gpu-test-target=gfx942 --iree-era=3.13 | filecheck %s

// A swizzled result tile (gfx942, f32: 16x16 tiles, the row tile expanded to [4, 4] and
// its inner piece moved last): each `linalg.index d` of the body sums the loops of its tile's pieces, innermost
// first, each scaled by the sizes of the pieces inside it, then adds `outer * tile`.

#map = affine_map<(d0, d1, d2) -> (d0, d2)>
#map1 = affine_map<(d0, d1, d2) -> (d2, d1)>
#map2 = affine_map<(d0, d1, d2) -> (d0, d1)>
#res = #iree_encoding.encoding<operand_index = 2, op_type = matmul, element_types = [f32, f32, f32], user_indexing_maps = [#map, #map1, #map2], iteration_sizes = [20, 40, 8]>
func.func @causal_mask(%a: tensor<20x40xf32>) -> tensor<20x40xf32> {
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
// CHECK-DAG:     %[[C4:.+]] = arith.constant 4 : index
// CHECK-DAG:     %[[C16:.+]] = arith.constant 16 : index
// CHECK:         linalg.generic
// CHECK-SAME:      iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel"]
// CHECK:         ^bb0(
// CHECK-NEXT:      %[[O0:.+]] = linalg.index 0 : index
// CHECK-NEXT:      %[[P01:.+]] = linalg.index 4 : index
// CHECK-NEXT:      %[[P00:.+]] = linalg.index 2 : index
// CHECK-NEXT:      %[[S00:.+]] = arith.muli %[[P00]], %[[C4]] : index
// CHECK-NEXT:      %[[IN0:.+]] = arith.addi %[[P01]], %[[S00]] : index
// CHECK-NEXT:      %[[T0:.+]] = arith.muli %[[O0]], %[[C16]] : index
// CHECK-NEXT:      %[[ROW:.+]] = arith.addi %[[T0]], %[[IN0]] : index
// CHECK-NEXT:      %[[O1:.+]] = linalg.index 1 : index
// CHECK-NEXT:      %[[P10:.+]] = linalg.index 3 : index
// CHECK-NEXT:      %[[T1:.+]] = arith.muli %[[O1]], %[[C16]] : index
// CHECK-NEXT:      %[[COL:.+]] = arith.addi %[[T1]], %[[P10]] : index
// CHECK-NEXT:      arith.cmpi sge, %[[ROW]], %[[COL]] : index
