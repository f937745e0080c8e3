// RUN: mini-iree-opt %s --split-input-file -p iree-codegen-materialize-device-encoding --iree-era=3.13 --iree-llvmcpu-enable-scalable-vectorization | filecheck %s
// RUN: mini-iree-opt %s --split-input-file -p iree-codegen-materialize-device-encoding --iree-era=3.13 | filecheck %s --check-prefix=FIXED
// RUN: mini-iree-opt %s --split-input-file -p iree-codegen-materialize-device-encoding --iree-llvmcpu-enable-scalable-vectorization=true | filecheck %s --check-prefix=WALK

// The walkthrough's IREE (the default era, WALK) had scalable tiles on AArch64 only, and transposed
// a narrow N first: its flags then mark the result's M tile scalable.

// Scalable inner tiles (--iree-llvmcpu-enable-scalable-vectorization): an AArch64 +sve RHS packs N
// by 8 * vscale. The tile is computed once (vector.vscale, arith.muli), the outer size divides by
// it at run time, and the pack always pads (no size is known to divide 8 * vscale).

#encoding = #iree_encoding.encoding<operand_index = 1, op_type = matmul, element_types = [f32, f32, f32], user_indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (k, n)>, affine_map<(m, n, k) -> (m, n)>], iteration_sizes = [?, ?, ?]>
func.func @rhs_sve(%arg0: tensor<8x16xf32>, %m: index, %n: index, %k: index) -> tensor<8x16xf32, #encoding> attributes {
  hal.executable.target = #hal.executable.target<"llvm-cpu", "xyz", {target_triple="aarch64-xyz-xyz", cpu_features="+sve", iree.encoding.resolver = #iree_cpu.cpu_encoding_resolver<>}>
} {
  %0 = iree_encoding.set_encoding %arg0 encoding_dims{%m, %n, %k} : tensor<8x16xf32> -> tensor<8x16xf32, #encoding>
  return %0 : tensor<8x16xf32, #encoding>
}
// CHECK:       #[[$MAP:.+]] = affine_map<()[s0] -> (16 ceildiv s0)>
// CHECK-LABEL: func.func @rhs_sve(
// CHECK-SAME:    %[[SRC:[a-zA-Z0-9]+]]: tensor<8x16xf32>, %{{.+}}: index, %{{.+}}: index, %{{.+}}: index) -> tensor<?x8x?x1xf32>
// CHECK-DAG:     %[[C8:.+]] = arith.constant 8 : index
// CHECK-DAG:     %[[PAD:.+]] = arith.constant 0.000000e+00 : f32
// CHECK:         %[[VSCALE:.+]] = vector.vscale
// CHECK:         %[[C8_VSCALE:.+]] = arith.muli %[[VSCALE]], %[[C8]] : index
// CHECK:         %[[OUTER:.+]] = affine.apply #[[$MAP]]()[%[[C8_VSCALE]]]
// CHECK:         %[[EMPTY:.+]] = tensor.empty(%[[OUTER]], %[[C8_VSCALE]]) : tensor<?x8x?x1xf32>
// CHECK:         %[[PACK:.+]] = linalg.pack %[[SRC]] padding_value(%[[PAD]] : f32) outer_dims_perm = [1, 0]
// CHECK-SAME:      inner_dims_pos = [1, 0] inner_tiles = [%[[C8_VSCALE]], 1] into %[[EMPTY]] : tensor<8x16xf32> -> tensor<?x8x?x1xf32>
// CHECK:         return %[[PACK]]
// FIXED-LABEL: func.func @rhs_sve(
// FIXED-NOT:     vector.vscale
// FIXED:         linalg.pack %{{.+}} outer_dims_perm = [1, 0] inner_dims_pos = [1, 0] inner_tiles = [8, 1]

// -----

// A whole matmul on dynamic sizes: LHS 8x1 tiles, RHS and result N tiles scalable; one vscale
// for the function. mmt4d takes the operands as they are; the unpack uses the same tile.

#map = affine_map<(d0, d1, d2) -> (d0, d2)>
#map1 = affine_map<(d0, d1, d2) -> (d2, d1)>
#map2 = affine_map<(d0, d1, d2) -> (d0, d1)>
#lhs = #iree_encoding.encoding<operand_index = 0, op_type = matmul, element_types = [f32, f32, f32], user_indexing_maps = [#map, #map1, #map2], iteration_sizes = [?, ?, ?]>
#rhs = #iree_encoding.encoding<operand_index = 1, op_type = matmul, element_types = [f32, f32, f32], user_indexing_maps = [#map, #map1, #map2], iteration_sizes = [?, ?, ?]>
#res = #iree_encoding.encoding<operand_index = 2, op_type = matmul, element_types = [f32, f32, f32], user_indexing_maps = [#map, #map1, #map2], iteration_sizes = [?, ?, ?]>
func.func @matmul_sve(%a: tensor<?x?xf32>, %b: tensor<?x?xf32>, %c: tensor<?x?xf32>, %m: index, %n: index, %k: index) -> tensor<?x?xf32> attributes {
  hal.executable.target = #hal.executable.target<"llvm-cpu", "xyz", {target_triple="aarch64-xyz-xyz", cpu_features="+sve", iree.encoding.resolver = #iree_cpu.cpu_encoding_resolver<>}>
} {
  %0 = iree_encoding.set_encoding %a encoding_dims{%m, %n, %k} : tensor<?x?xf32> -> tensor<?x?xf32, #lhs>
  %1 = iree_encoding.set_encoding %b encoding_dims{%m, %n, %k} : tensor<?x?xf32> -> tensor<?x?xf32, #rhs>
  %2 = iree_encoding.set_encoding %c encoding_dims{%m, %n, %k} : tensor<?x?xf32> -> tensor<?x?xf32, #res>
  %3 = linalg.matmul ins(%0, %1 : tensor<?x?xf32, #lhs>, tensor<?x?xf32, #rhs>) outs(%2 : tensor<?x?xf32, #res>) -> tensor<?x?xf32, #res>
  %4 = iree_encoding.unset_encoding %3 encoding_dims{%m, %n, %k} : tensor<?x?xf32, #res> -> tensor<?x?xf32>{%m, %n}
  return %4 : tensor<?x?xf32>
}
// CHECK-DAG:   #[[$CEIL8:.+]] = affine_map<()[s0] -> (s0 ceildiv 8)>
// CHECK-DAG:   #[[$CEILS:.+]] = affine_map<()[s0, s1] -> (s0 ceildiv s1)>
// CHECK-LABEL: func.func @matmul_sve(
// CHECK:         %[[PACK_A:.+]] = linalg.pack %{{.+}} padding_value({{.+}}) outer_dims_perm = [0, 1] inner_dims_pos = [0, 1] inner_tiles = [8, 1]
// CHECK-SAME:      -> tensor<?x?x8x1xf32>
// CHECK:         %[[VSCALE:.+]] = vector.vscale
// CHECK:         %[[C8_VSCALE:.+]] = arith.muli %[[VSCALE]], %{{.+}} : index
// CHECK:         affine.apply #[[$CEILS]]()[%{{.+}}, %[[C8_VSCALE]]]
// CHECK:         %[[PACK_B:.+]] = linalg.pack %{{.+}} inner_tiles = [%[[C8_VSCALE]], 1] {{.+}} -> tensor<?x?x?x1xf32>
// CHECK:         %[[PACK_C:.+]] = linalg.pack %{{.+}} inner_tiles = [8, %[[C8_VSCALE]]] {{.+}} -> tensor<?x?x8x?xf32>
// CHECK:         %[[MMT4D:.+]] = linalg.mmt4d ins(%[[PACK_A]], %[[PACK_B]] : tensor<?x?x8x1xf32>, tensor<?x?x?x1xf32>) outs(%[[PACK_C]] : tensor<?x?x8x?xf32>)
// CHECK:         %[[UNPACK:.+]] = linalg.unpack %[[MMT4D]] outer_dims_perm = [0, 1] inner_dims_pos = [0, 1] inner_tiles = [8, %[[C8_VSCALE]]]
// CHECK-NOT:     vector.vscale
// CHECK:         return %[[UNPACK]]

// -----

// RISC-V +v: scalable mode takes the tiles of a 64-bit VLEN (N0 = 8, scaled by vscale = VLEN / 64)
// whatever +zvl says; without the option N0 = VLEN / 8 = 64 for +zvl512b.

#map = affine_map<(d0, d1, d2) -> (d0, d2)>
#map1 = affine_map<(d0, d1, d2) -> (d2, d1)>
#map2 = affine_map<(d0, d1, d2) -> (d0, d1)>
#lhs = #iree_encoding.encoding<operand_index = 0, op_type = matmul, element_types = [f32, f32, f32], user_indexing_maps = [#map, #map1, #map2], iteration_sizes = [?, ?, ?]>
#rhs = #iree_encoding.encoding<operand_index = 1, op_type = matmul, element_types = [f32, f32, f32], user_indexing_maps = [#map, #map1, #map2], iteration_sizes = [?, ?, ?]>
#res = #iree_encoding.encoding<operand_index = 2, op_type = matmul, element_types = [f32, f32, f32], user_indexing_maps = [#map, #map1, #map2], iteration_sizes = [?, ?, ?]>
func.func @matmul_rvv(%lhs: tensor<?x?xf32, #lhs>, %rhs: tensor<?x?xf32, #rhs>, %acc: tensor<?x?xf32, #res>) -> tensor<?x?xf32, #res> attributes {
  hal.executable.target = #hal.executable.target<"llvm-cpu", "xyz", {target_triple="riscv64-xyz-xyz", cpu_features="+v,+zvl512b", iree.encoding.resolver = #iree_cpu.cpu_encoding_resolver<>}>
} {
  %0 = linalg.matmul ins(%lhs, %rhs : tensor<?x?xf32, #lhs>, tensor<?x?xf32, #rhs>) outs(%acc : tensor<?x?xf32, #res>) -> tensor<?x?xf32, #res>
  return %0 : tensor<?x?xf32, #res>
}
// CHECK-LABEL: func.func @matmul_rvv(
// CHECK-SAME:    tensor<?x?x7x1xf32>, %{{.+}}: tensor<?x?x?x1xf32>, %{{.+}}: tensor<?x?x7x?xf32>) -> tensor<?x?x7x?xf32>
// FIXED-LABEL: func.func @matmul_rvv(
// FIXED-SAME:    tensor<?x?x7x1xf32>, %{{.+}}: tensor<?x?x64x1xf32>, %{{.+}}: tensor<?x?x7x64xf32>) -> tensor<?x?x7x64xf32>
// WALK-LABEL:  func.func @matmul_rvv(
// WALK-SAME:     tensor<?x?x7x1xf32>, %{{.+}}: tensor<?x?x64x1xf32>, %{{.+}}: tensor<?x?x7x64xf32>) -> tensor<?x?x7x64xf32>

// -----

// A narrow N (4) with scalable tiles is not transposed: the tile is chosen for M (100, so M0 = 8)
// and the mmt4d keeps LHS, RHS in order. Without the option the narrow N becomes a narrow M.

#map = affine_map<(d0, d1, d2) -> (d0, d2)>
#map1 = affine_map<(d0, d1, d2) -> (d2, d1)>
#map2 = affine_map<(d0, d1, d2) -> (d0, d1)>
#lhs = #iree_encoding.encoding<operand_index = 0, op_type = matmul, element_types = [f32, f32, f32], user_indexing_maps = [#map, #map1, #map2], iteration_sizes = [100, 4, 50]>
#rhs = #iree_encoding.encoding<operand_index = 1, op_type = matmul, element_types = [f32, f32, f32], user_indexing_maps = [#map, #map1, #map2], iteration_sizes = [100, 4, 50]>
#res = #iree_encoding.encoding<operand_index = 2, op_type = matmul, element_types = [f32, f32, f32], user_indexing_maps = [#map, #map1, #map2], iteration_sizes = [100, 4, 50]>
func.func @narrow_n_sve(%lhs: tensor<100x50xf32, #lhs>, %rhs: tensor<50x4xf32, #rhs>, %acc: tensor<100x4xf32, #res>) -> tensor<100x4xf32, #res> attributes {
  hal.executable.target = #hal.executable.target<"llvm-cpu", "xyz", {target_triple="aarch64-xyz-xyz", cpu_features="+sve", iree.encoding.resolver = #iree_cpu.cpu_encoding_resolver<>}>
} {
  %0 = linalg.matmul ins(%lhs, %rhs : tensor<100x50xf32, #lhs>, tensor<50x4xf32, #rhs>) outs(%acc : tensor<100x4xf32, #res>) -> tensor<100x4xf32, #res>
  return %0 : tensor<100x4xf32, #res>
}
// CHECK-LABEL: func.func @narrow_n_sve(
// CHECK-SAME:    %[[A:.+]]: tensor<13x50x8x1xf32>, %[[B:.+]]: tensor<?x50x?x1xf32>, %[[C:.+]]: tensor<13x?x8x?xf32>)
// CHECK:         linalg.mmt4d ins(%[[A]], %[[B]] :
// FIXED-LABEL: func.func @narrow_n_sve(
// FIXED-SAME:    %[[A:.+]]: tensor<13x50x8x1xf32>, %[[B:.+]]: tensor<1x50x4x1xf32>, %[[C:.+]]: tensor<1x13x4x8xf32>)
// FIXED:         linalg.mmt4d ins(%[[B]], %[[A]] :
// WALK-LABEL:  func.func @narrow_n_sve(
// WALK-SAME:     %[[A:.+]]: tensor<13x50x8x1xf32>, %[[B:.+]]: tensor<?x50x?x1xf32>, %[[C:.+]]: tensor<1x?x4x?xf32>)
// WALK:          linalg.mmt4d ins(%[[B]], %[[A]] :

// -----

// unset_encoding of a dynamic function argument: the unpack needs no size of the encoded
// argument (no tensor.dim of it), only the result's sizes and the tiles.

#map = affine_map<(d0, d1, d2) -> (d0, d2)>
#map1 = affine_map<(d0, d1, d2) -> (d2, d1)>
#map2 = affine_map<(d0, d1, d2) -> (d0, d1)>
#res = #iree_encoding.encoding<operand_index = 2, op_type = matmul, element_types = [f32, f32, f32], user_indexing_maps = [#map, #map1, #map2], iteration_sizes = [?, ?, ?]>
func.func @unset_argument(%arg0: tensor<?x?xf32, #res>, %m: index, %n: index, %k: index) -> tensor<?x?xf32> attributes {
  hal.executable.target = #hal.executable.target<"llvm-cpu", "xyz", {target_triple="aarch64-xyz-xyz", cpu_features="+sve", iree.encoding.resolver = #iree_cpu.cpu_encoding_resolver<>}>
} {
  %0 = iree_encoding.unset_encoding %arg0 encoding_dims{%m, %n, %k} : tensor<?x?xf32, #res> -> tensor<?x?xf32>{%m, %n}
  return %0 : tensor<?x?xf32>
}
// CHECK-LABEL: func.func @unset_argument(
// CHECK-SAME:    %[[ARG:[a-zA-Z0-9]+]]: tensor<?x?x8x?xf32>, %[[M:[a-zA-Z0-9]+]]: index, %[[N:[a-zA-Z0-9]+]]: index, %{{.+}}: index)
// CHECK-NOT:     tensor.dim
// CHECK:         %[[EMPTY:.+]] = tensor.empty(%[[M]], %[[N]]) : tensor<?x?xf32>
// CHECK:         %[[VSCALE:.+]] = vector.vscale
// CHECK:         %[[C8_VSCALE:.+]] = arith.muli %[[VSCALE]], %{{.+}} : index
// CHECK:         linalg.unpack %[[ARG]] outer_dims_perm = [0, 1] inner_dims_pos = [0, 1] inner_tiles = [8, %[[C8_VSCALE]]] into %[[EMPTY]]
// FIXED-LABEL: func.func @unset_argument(
// FIXED-SAME:    %[[ARG:.+]]: tensor<?x?x8x8xf32>, %[[M:.+]]: index, %[[N:.+]]: index)
// FIXED-NOT:     tensor.dim
// FIXED:         linalg.unpack %[[ARG]] outer_dims_perm = [0, 1] inner_dims_pos = [0, 1] inner_tiles = [8, 8]
