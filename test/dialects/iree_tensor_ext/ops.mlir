// RUN: mini-iree-opt %s --split-input-file | mini-iree-opt --split-input-file | filecheck %s
// RUN: mini-iree-opt %s --split-input-file --mlir-print-op-generic | mini-iree-opt --split-input-file | filecheck %s

func.func @dispatch_tensor_types(
    %arg0: !iree_tensor_ext.dispatch.tensor<readonly:tensor<?x4xf32>>,
    %arg1: !iree_tensor_ext.dispatch.tensor<writeonly:tensor<8xi8>>,
    %arg2: !iree_tensor_ext.dispatch.tensor<readwrite:tensor<2x?xf16>>,
    %arg3: !iree_tensor_ext.dispatch.tensor<readonly:f32>) {
  return
}
// CHECK-LABEL: func.func @dispatch_tensor_types(
// CHECK-SAME:    %arg0: !iree_tensor_ext.dispatch.tensor<readonly:tensor<?x4xf32>>
// CHECK-SAME:    %arg1: !iree_tensor_ext.dispatch.tensor<writeonly:tensor<8xi8>>
// CHECK-SAME:    %arg2: !iree_tensor_ext.dispatch.tensor<readwrite:tensor<2x?xf16>>
// CHECK-SAME:    %arg3: !iree_tensor_ext.dispatch.tensor<readonly:f32>)

// -----

// The walkthrough's load of a whole encoded binding.

#map = affine_map<(d0, d1, d2) -> (d0, d2)>
#map1 = affine_map<(d0, d1, d2) -> (d2, d1)>
#map2 = affine_map<(d0, d1, d2) -> (d0, d1)>
#encoding = #iree_encoding.encoding<operand_index = 0 : index, op_type = matmul, element_types = [f32, f32, f32], user_indexing_maps = [#map, #map1, #map2], iteration_sizes = [?, ?, ?]>
func.func @load_encoded(%arg0: !iree_tensor_ext.dispatch.tensor<readonly:tensor<?x?xf32, #encoding>>, %arg1: index, %arg2: index) -> tensor<?x?xf32, #encoding> {
  %0 = iree_tensor_ext.dispatch.tensor.load %arg0, offsets = [0, 0], sizes = [%arg1, %arg2], strides = [1, 1] : !iree_tensor_ext.dispatch.tensor<readonly:tensor<?x?xf32, #encoding>>{%arg1, %arg2} -> tensor<?x?xf32, #encoding>
  return %0 : tensor<?x?xf32, #encoding>
}
// CHECK-LABEL: func.func @load_encoded(
// CHECK:         %{{.+}} = iree_tensor_ext.dispatch.tensor.load %arg0, offsets = [0, 0], sizes = [%arg1, %arg2], strides = [1, 1] : !iree_tensor_ext.dispatch.tensor<readonly:tensor<?x?xf32, #encoding>>{%arg1, %arg2} -> tensor<?x?xf32, #encoding>

// -----

func.func @load_mixed_slice(%arg0: !iree_tensor_ext.dispatch.tensor<readonly:tensor<16x?xf32>>, %arg1: index, %arg2: index, %arg3: index) -> tensor<4x?xf32> {
  %0 = iree_tensor_ext.dispatch.tensor.load %arg0, offsets = [%arg2, 0], sizes = [4, %arg3], strides = [1, 2] : !iree_tensor_ext.dispatch.tensor<readonly:tensor<16x?xf32>>{%arg1} -> tensor<4x?xf32>
  return %0 : tensor<4x?xf32>
}
// CHECK-LABEL: func.func @load_mixed_slice(
// CHECK:         iree_tensor_ext.dispatch.tensor.load %arg0, offsets = [%arg2, 0], sizes = [4, %arg3], strides = [1, 2] : !iree_tensor_ext.dispatch.tensor<readonly:tensor<16x?xf32>>{%arg1} -> tensor<4x?xf32>

// -----

func.func @store_whole(%arg0: tensor<?x?xf32>, %arg1: !iree_tensor_ext.dispatch.tensor<writeonly:tensor<?x?xf32>>, %arg2: index, %arg3: index) {
  iree_tensor_ext.dispatch.tensor.store %arg0, %arg1, offsets = [0, 0], sizes = [%arg2, %arg3], strides = [1, 1] : tensor<?x?xf32> -> !iree_tensor_ext.dispatch.tensor<writeonly:tensor<?x?xf32>>{%arg2, %arg3}
  return
}
// CHECK-LABEL: func.func @store_whole(
// CHECK:         iree_tensor_ext.dispatch.tensor.store %arg0, %arg1, offsets = [0, 0], sizes = [%arg2, %arg3], strides = [1, 1] : tensor<?x?xf32> -> !iree_tensor_ext.dispatch.tensor<writeonly:tensor<?x?xf32>>{%arg2, %arg3}

// -----

// A store may drop unit dimensions of the slice.

func.func @store_rank_reducing(%arg0: tensor<4xf32>, %arg1: !iree_tensor_ext.dispatch.tensor<readwrite:tensor<8x4xf32>>, %arg2: index) {
  iree_tensor_ext.dispatch.tensor.store %arg0, %arg1, offsets = [%arg2, 0], sizes = [1, 4], strides = [1, 1] : tensor<4xf32> -> !iree_tensor_ext.dispatch.tensor<readwrite:tensor<8x4xf32>>
  return
}
// CHECK-LABEL: func.func @store_rank_reducing(
// CHECK:         iree_tensor_ext.dispatch.tensor.store %arg0, %arg1, offsets = [%arg2, 0], sizes = [1, 4], strides = [1, 1] : tensor<4xf32> -> !iree_tensor_ext.dispatch.tensor<readwrite:tensor<8x4xf32>>

// -----

func.func @workload_ordinal(%arg0: index, %arg1: index) -> (index, index) {
  %0 = iree_tensor_ext.dispatch.workload.ordinal %arg0, 0 : index
  %1 = iree_tensor_ext.dispatch.workload.ordinal %arg1, 1 : index
  return %0, %1 : index, index
}
// CHECK-LABEL: func.func @workload_ordinal(
// CHECK:         %0 = iree_tensor_ext.dispatch.workload.ordinal %arg0, 0 : index
// CHECK:         %1 = iree_tensor_ext.dispatch.workload.ordinal %arg1, 1 : index

// -----

// The results are always named %x, %y, %z, as IREE names them.

func.func @workgroup_count_from_slice(%arg0: index, %arg1: index) -> (index, index, index) {
  %0:3 = iree_tensor_ext.dispatch.workgroup_count_from_slice(%arg0, %arg1)
  return %0#0, %0#1, %0#2 : index, index, index
}
// CHECK-LABEL: func.func @workgroup_count_from_slice(
// CHECK:         %x, %y, %z = iree_tensor_ext.dispatch.workgroup_count_from_slice(%arg0, %arg1)
// CHECK:         return %x, %y, %z : index, index, index

// -----

func.func @compute_barriers(%arg0: tensor<?x256xf32>, %arg1: index, %arg2: tensor<4xf32>) -> (tensor<?x256xf32>, tensor<4xf32>) {
  %0 = iree_tensor_ext.compute_barrier.start %arg0 : tensor<?x256xf32>{%arg1} -> tensor<?x256xf32>
  %1 = iree_tensor_ext.compute_barrier.end %0 : tensor<?x256xf32>{%arg1} -> tensor<?x256xf32>
  %2 = iree_tensor_ext.compute_barrier.start %arg2 : tensor<4xf32> -> tensor<4xf32> attributes {tag}
  return %1, %2 : tensor<?x256xf32>, tensor<4xf32>
}
// CHECK-LABEL: func.func @compute_barriers(
// CHECK:         %[[S:.+]] = iree_tensor_ext.compute_barrier.start %arg0 : tensor<?x256xf32>{%arg1} -> tensor<?x256xf32>
// CHECK:         iree_tensor_ext.compute_barrier.end %[[S]] : tensor<?x256xf32>{%arg1} -> tensor<?x256xf32>
// CHECK:         iree_tensor_ext.compute_barrier.start %arg2 : tensor<4xf32> -> tensor<4xf32> attributes {tag}

// -----

// CHECK-LABEL: util.func public @bitcast
// CHECK: iree_tensor_ext.bitcast %{{.+}} : tensor<?x32xf4E2M1FN>{%{{.+}}} -> tensor<?x16xi8>{%{{.+}}}
// CHECK: iree_tensor_ext.bitcast %{{.+}} : tensor<4xi32> -> tensor<4x4xi8>
util.func public @bitcast(%arg0: tensor<?x32xf4E2M1FN>, %arg1: index, %arg2: tensor<4xi32>) -> (tensor<?x16xi8>, tensor<4x4xi8>) {
  %0 = iree_tensor_ext.bitcast %arg0 : tensor<?x32xf4E2M1FN>{%arg1} -> tensor<?x16xi8>{%arg1}
  %1 = iree_tensor_ext.bitcast %arg2 : tensor<4xi32> -> tensor<4x4xi8>
  util.return %0, %1 : tensor<?x16xi8>, tensor<4x4xi8>
}
