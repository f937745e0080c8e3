// RUN: mini-iree-opt %s --split-input-file --verify-diagnostics

func.func @map_store_mixed_element_types(%input: memref<4xf16>, %output: memref<4xf32>) {
  // expected-error @+1 {{'iree_linalg_ext.map_store' op expected input and output element types to match}}
  iree_linalg_ext.map_store %input into %output {
  ^bb0(%idx0: index):
    %mask = arith.constant true
    iree_linalg_ext.yield %idx0, %mask : index, i1
  } : memref<4xf16> into memref<4xf32>
  return
}

// -----

func.func @map_store_0D(%input: vector<f32>, %output: memref<4xf32>) {
  // expected-error @+1 {{'iree_linalg_ext.map_store' op expected input type to have non-zero rank}}
  iree_linalg_ext.map_store %input into %output {
  ^bb0():
    %mask = arith.constant true
    %zero = arith.constant 0 : index
    iree_linalg_ext.yield %zero, %mask : index, i1
  } : vector<f32> into memref<4xf32>
  return
}

// -----

func.func @map_store_wrong_num_arguments(%input: memref<4xf32>, %output: memref<4xf32>) {
  // expected-error @+1 {{'iree_linalg_ext.map_store' op expected number of block arguments to be equal to the input rank}}
  iree_linalg_ext.map_store %input into %output {
  ^bb0(%idx0: index, %idx1: index):
    %mask = arith.constant true
    iree_linalg_ext.yield %idx0, %mask : index, i1
  } : memref<4xf32> into memref<4xf32>
  return
}

// -----

func.func @map_store_wrong_argument_types(%input: memref<4xf32>, %output: memref<4xf32>) {
  // expected-error @+1 {{'iree_linalg_ext.map_store' op expected block arguments to be index types}}
  iree_linalg_ext.map_store %input into %output {
  ^bb0(%idx0: i64):
    %mask = arith.constant true
    %idx_cast = arith.index_cast %idx0 : i64 to index
    iree_linalg_ext.yield %idx_cast, %mask : index, i1
  } : memref<4xf32> into memref<4xf32>
  return
}

// -----

func.func @map_store_wrong_num_yielded_values(%input: memref<4xf32>, %output: memref<4xf32>) {
  iree_linalg_ext.map_store %input into %output {
  ^bb0(%idx0: index):
    // expected-error @+1 {{'iree_linalg_ext.yield' op expected transformation_region to yield a value for each output dimension and a mask}}
    iree_linalg_ext.yield %idx0 : index
  } : memref<4xf32> into memref<4xf32>
  return
}

// -----

func.func @map_store_wrong_yielded_types(%input: memref<4xf32>, %output: memref<4xf32>) {
  iree_linalg_ext.map_store %input into %output {
  ^bb0(%idx0: index):
    %mask = arith.constant true
    %idx_cast = arith.index_cast %idx0 : index to i64
    // expected-error @+1 {{'iree_linalg_ext.yield' op expected yielded indices to be index types}}
    iree_linalg_ext.yield %idx_cast, %mask : i64, i1
  } : memref<4xf32> into memref<4xf32>
  return
}

// -----

func.func @map_store_wrong_mask_type(%input: memref<4xf32>, %output: memref<4xf32>) {
  iree_linalg_ext.map_store %input into %output {
  ^bb0(%idx0: index):
    %mask = arith.constant 1 : i32
    // expected-error @+1 {{'iree_linalg_ext.yield' op expected yielded mask to be i1 type}}
    iree_linalg_ext.yield %idx0, %mask : index, i32
  } : memref<4xf32> into memref<4xf32>
  return
}

// -----

func.func @map_scatter_wrong_mask_type(%input: tensor<4xf32>, %output: tensor<4xf32>) -> tensor<4xf32> {
  %0 = iree_linalg_ext.map_scatter %input into %output {
  ^bb0(%idx0: index):
    // expected-error @+1 {{'iree_linalg_ext.yield' op expected yielded mask to be i1 type}}
    iree_linalg_ext.yield %idx0, %idx0 : index, index
  } : tensor<4xf32> into tensor<4xf32> -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @map_store_missing_result(%input: tensor<4xf32>, %output: tensor<4xf32>) {
  // expected-error @+1 {{'iree_linalg_ext.map_store' op expected the number of tensor results (0) to be equal to the number of output tensors (1)}}
  iree_linalg_ext.map_store %input into %output {
  ^bb0(%idx0: index):
    %mask = arith.constant true
    iree_linalg_ext.yield %idx0, %mask : index, i1
  } : tensor<4xf32> into tensor<4xf32>
  return
}

// -----

func.func @map_store_memref_with_result(%input: tensor<4xf32>, %output: memref<4xf32>) {
  // expected-error @+1 {{'iree_linalg_ext.map_store' op expected the number of tensor results (1) to be equal to the number of output tensors (0)}}
  %0 = iree_linalg_ext.map_store %input into %output {
  ^bb0(%idx0: index):
    %mask = arith.constant true
    iree_linalg_ext.yield %idx0, %mask : index, i1
  } : tensor<4xf32> into memref<4xf32> -> tensor<4xf32>
  return
}

// -----

func.func @map_store_result_type(%input: tensor<4xf32>, %output: tensor<4xf32>) {
  // expected-error @+1 {{'iree_linalg_ext.map_store' op expected type of operand #1 ('tensor<4xf32>') to match type of corresponding result ('tensor<8xf32>')}}
  %0 = iree_linalg_ext.map_store %input into %output {
  ^bb0(%idx0: index):
    %mask = arith.constant true
    iree_linalg_ext.yield %idx0, %mask : index, i1
  } : tensor<4xf32> into tensor<4xf32> -> tensor<8xf32>
  return
}

// -----

func.func @map_store_wrong_terminator(%input: tensor<4xf32>, %output: memref<4xf32>) {
  // expected-error @+1 {{'iree_linalg_ext.map_store' op expects regions to end with 'iree_linalg_ext.yield', found 'scf.yield'}}
  "iree_linalg_ext.map_store"(%input, %output) ({
  ^bb0(%idx0: index):
    scf.yield
  }) : (tensor<4xf32>, memref<4xf32>) -> ()
  return
}

// -----

// A body not ending in a terminator at all is reported at its last op, as
// MLIR verifies the block before map_store's own terminator trait.
func.func @map_store_no_terminator(%input: memref<4xf32>, %output: memref<4xf32>) {
  "iree_linalg_ext.map_store"(%input, %output) ({
  ^bb0(%idx0: index):
    // expected-error @+1 {{block with no terminator, has %0 = "arith.constant"() <{value = true}> : () -> i1}}
    %0 = "arith.constant"() <{value = true}> : () -> i1
  }) : (memref<4xf32>, memref<4xf32>) -> ()
  return
}

// -----

func.func @map_load_output_rank(%src: tensor<4xf32>, %out: tensor<2x2xf32>) -> tensor<2x2xf32> {
  // expected-error @+1 {{'iree_linalg_ext.map_load' op expected number of block arguments to be equal to the output rank}}
  %0 = iree_linalg_ext.map_load %src into %out {
  ^bb0(%i: index):
    %pad = arith.constant 0.000000e+00 : f32
    iree_linalg_ext.yield %i, %pad : index, f32
  } : tensor<4xf32> into tensor<2x2xf32> -> tensor<2x2xf32>
  return %0 : tensor<2x2xf32>
}

// -----

func.func @map_load_padding_type(%src: memref<4xf32>, %out: memref<4xf32>) {
  iree_linalg_ext.map_load %src into %out {
  ^bb0(%i: index):
    %pad = arith.constant 0 : i32
    // expected-error @+1 {{'iree_linalg_ext.yield' op expected yielded padding value type to match source element type}}
    iree_linalg_ext.yield %i, %pad : index, i32
  } : memref<4xf32> into memref<4xf32>
  return
}

// -----

func.func @map_load_yield_count(%src: memref<2x2xf32>, %out: memref<4xf32>) {
  iree_linalg_ext.map_load %src into %out {
  ^bb0(%i: index):
    %pad = arith.constant 0.000000e+00 : f32
    // expected-error @+1 {{'iree_linalg_ext.yield' op expected transformation_region to yield a value for each source dimension and a padding value}}
    iree_linalg_ext.yield %i, %pad : index, f32
  } : memref<2x2xf32> into memref<4xf32>
  return
}
