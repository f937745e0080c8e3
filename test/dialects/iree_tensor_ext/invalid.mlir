// RUN: mini-iree-opt %s --split-input-file --verify-diagnostics

// expected-error @+1 {{expected 'readonly', 'readwrite' or 'writeonly'}}
func.func @unknown_access(%arg0: !iree_tensor_ext.dispatch.tensor<readwrote:tensor<4xf32>>) {
  return
}

// -----

// expected-error @+1 {{unhandled bounded type in dispatch. Must by int, float or ranked tensor type}}
func.func @unhandled_bound_type(%arg0: !iree_tensor_ext.dispatch.tensor<readonly:memref<4xf32>>) {
  return
}

// -----

func.func @load_missing_source_dims(%arg0: !iree_tensor_ext.dispatch.tensor<readonly:tensor<?x?xf32>>, %d0: index) -> tensor<?x?xf32> {
  // expected-error @+1 {{'iree_tensor_ext.dispatch.tensor.load' op value set has 2 dynamic dimensions but only 1 dimension values are attached}}
  %0 = iree_tensor_ext.dispatch.tensor.load %arg0, offsets = [0, 0], sizes = [%d0, %d0], strides = [1, 1] : !iree_tensor_ext.dispatch.tensor<readonly:tensor<?x?xf32>>{%d0} -> tensor<?x?xf32>
  return %0 : tensor<?x?xf32>
}

// -----

func.func @load_seed_era_type(%arg0: !flow.dispatch.tensor<readonly:tensor<4xf32>>) -> tensor<4xf32> {
  // expected-error @+1 {{'iree_tensor_ext.dispatch.tensor.load' op operand #0 must be dispatch.tensor, but got '!flow.dispatch.tensor<readonly:tensor<4xf32>>'}}
  %0 = iree_tensor_ext.dispatch.tensor.load %arg0, offsets = [0], sizes = [4], strides = [1] : !flow.dispatch.tensor<readonly:tensor<4xf32>> -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @load_offsets_sizes_rank_mismatch(%arg0: !iree_tensor_ext.dispatch.tensor<readonly:tensor<4x4xf32>>) -> tensor<4x4xf32> {
  // expected-error @+1 {{expected mixed offsets rank to match mixed sizes rank (1 vs 2) so the rank of the result type is well-formed.}}
  %0 = iree_tensor_ext.dispatch.tensor.load %arg0, offsets = [0], sizes = [4, 4], strides = [1, 1] : !iree_tensor_ext.dispatch.tensor<readonly:tensor<4x4xf32>> -> tensor<4x4xf32>
  return %0 : tensor<4x4xf32>
}

// -----

func.func @load_sizes_strides_rank_mismatch(%arg0: !iree_tensor_ext.dispatch.tensor<readonly:tensor<4x4xf32>>) -> tensor<4x4xf32> {
  // expected-error @+1 {{expected mixed sizes rank to match mixed strides rank (2 vs 1) so the rank of the result type is well-formed.}}
  %0 = iree_tensor_ext.dispatch.tensor.load %arg0, offsets = [0, 0], sizes = [4, 4], strides = [1] : !iree_tensor_ext.dispatch.tensor<readonly:tensor<4x4xf32>> -> tensor<4x4xf32>
  return %0 : tensor<4x4xf32>
}

// -----

func.func @load_slice_rank(%arg0: !iree_tensor_ext.dispatch.tensor<readonly:tensor<4x4xf32>>) -> tensor<4xf32> {
  // expected-error @+1 {{expected 2 offset values}}
  %0 = iree_tensor_ext.dispatch.tensor.load %arg0, offsets = [0], sizes = [4], strides = [1] : !iree_tensor_ext.dispatch.tensor<readonly:tensor<4x4xf32>> -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @load_dynamic_sizes_count(%arg0: !iree_tensor_ext.dispatch.tensor<readonly:tensor<4xf32>>) -> tensor<?xf32> {
  // expected-error @+1 {{expected 1 dynamic size values}}
  %0 = "iree_tensor_ext.dispatch.tensor.load"(%arg0) <{static_offsets = array<i64: 0>, static_sizes = array<i64: -9223372036854775808>, static_strides = array<i64: 1>, operandSegmentSizes = array<i32: 1, 0, 0, 0, 0>}> : (!iree_tensor_ext.dispatch.tensor<readonly:tensor<4xf32>>) -> tensor<?xf32>
  return %0 : tensor<?xf32>
}

// -----

func.func @store_to_readonly(%arg0: tensor<4xf32>, %arg1: !iree_tensor_ext.dispatch.tensor<readonly:tensor<4xf32>>) {
  // expected-error @+1 {{'iree_tensor_ext.dispatch.tensor.store' op operand #1 must be dispatch.tensor, but got '!iree_tensor_ext.dispatch.tensor<readonly:tensor<4xf32>>'}}
  iree_tensor_ext.dispatch.tensor.store %arg0, %arg1, offsets = [0], sizes = [4], strides = [1] : tensor<4xf32> -> !iree_tensor_ext.dispatch.tensor<readonly:tensor<4xf32>>
  return
}

// -----

func.func @store_missing_target_dims(%arg0: tensor<?xf32>, %arg1: !iree_tensor_ext.dispatch.tensor<writeonly:tensor<?xf32>>, %d: index) {
  // expected-error @+1 {{'iree_tensor_ext.dispatch.tensor.store' op value set has 1 dynamic dimensions but only 0 dimension values are attached}}
  iree_tensor_ext.dispatch.tensor.store %arg0, %arg1, offsets = [0], sizes = [%d], strides = [1] : tensor<?xf32> -> !iree_tensor_ext.dispatch.tensor<writeonly:tensor<?xf32>>
  return
}

// -----

func.func @store_size_mismatch(%arg0: tensor<4x8xf32>, %arg1: !iree_tensor_ext.dispatch.tensor<writeonly:tensor<16x16xf32>>) {
  // expected-error @+1 {{expected type to be tensor<4x4xf32> or a rank-reduced version. (size mismatch)}}
  iree_tensor_ext.dispatch.tensor.store %arg0, %arg1, offsets = [0, 0], sizes = [4, 4], strides = [1, 1] : tensor<4x8xf32> -> !iree_tensor_ext.dispatch.tensor<writeonly:tensor<16x16xf32>>
  return
}

// -----

func.func @store_rank_too_large(%arg0: tensor<1x4x4xf32>, %arg1: !iree_tensor_ext.dispatch.tensor<writeonly:tensor<16x16xf32>>) {
  // expected-error @+1 {{expected rank to be smaller or equal to the other rank.}}
  iree_tensor_ext.dispatch.tensor.store %arg0, %arg1, offsets = [0, 0], sizes = [4, 4], strides = [1, 1] : tensor<1x4x4xf32> -> !iree_tensor_ext.dispatch.tensor<writeonly:tensor<16x16xf32>>
  return
}

// -----

func.func @barrier_missing_dims(%arg0: tensor<?x4xf32>) -> tensor<?x4xf32> {
  // expected-error @+1 {{'iree_tensor_ext.compute_barrier.start' op value set has 1 dynamic dimensions but only 0 dimension values are attached}}
  %0 = iree_tensor_ext.compute_barrier.start %arg0 : tensor<?x4xf32> -> tensor<?x4xf32>
  return %0 : tensor<?x4xf32>
}

// -----

func.func @barrier_type_change(%arg0: tensor<4xf32>) -> tensor<4xf16> {
  // expected-error @+1 {{'iree_tensor_ext.compute_barrier.end' op value and result types must match}}
  %0 = iree_tensor_ext.compute_barrier.end %arg0 : tensor<4xf32> -> tensor<4xf16>
  return %0 : tensor<4xf16>
}

// -----

util.func public @bitcast_missing_dims(%a: tensor<?xi32>, %n: index) -> tensor<?xf32> {
  // expected-error @+1 {{value set has 1 dynamic dimensions but only 0 dimension values are attached}}
  %0 = "iree_tensor_ext.bitcast"(%a, %n) <{operandSegmentSizes = array<i32: 1, 0, 1>}> : (tensor<?xi32>, index) -> tensor<?xf32>
  util.return %0 : tensor<?xf32>
}
