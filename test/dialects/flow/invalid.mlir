// RUN: mini-iree-opt %s --split-input-file --verify-diagnostics

func.func @region_block_arguments() {
  // expected-error @+1 {{'flow.dispatch.region' op expected no block arguments}}
  flow.dispatch.region -> () {
  ^bb0(%arg0: index):
    flow.return
  }
  return
}

// -----

func.func @region_non_tensor_result(%arg0: index) -> index {
  // expected-error @+1 {{'flow.dispatch.region' op only ranked tensor results are allowed}}
  %0 = flow.dispatch.region -> (index) {
    flow.return %arg0 : index
  }
  return %0 : index
}

// -----

func.func @region_return_count() -> tensor<4xf32> {
  %0 = flow.dispatch.region -> (tensor<4xf32>) {
    // expected-error @+1 {{'flow.return' op number of results (1) does not match number of returned values (0)}}
    flow.return
  }
  return %0 : tensor<4xf32>
}

// -----

func.func @region_return_types(%arg0: tensor<4xf16>) -> tensor<4xf32> {
  %0 = flow.dispatch.region -> (tensor<4xf32>) {
    // expected-error @+1 {{'flow.return' op operand types do not match with parent results}}
    flow.return %arg0 : tensor<4xf16>
  }
  return %0 : tensor<4xf32>
}

// -----

func.func @region_missing_result_dims(%arg0: tensor<?xf32>) -> tensor<?xf32> {
  // expected-error @+1 {{'flow.dispatch.region' op value set has 1 dynamic dimensions but only 0 dimension values are attached}}
  %0 = "flow.dispatch.region"() <{operandSegmentSizes = array<i32: 0, 0>}> ({
    flow.return %arg0 : tensor<?xf32>
  }, {
  }) : () -> tensor<?xf32>
  return %0 : tensor<?xf32>
}

// -----

func.func @region_workload_count(%w: index) {
  // expected-error @+1 {{'flow.dispatch.region' op workload operands and workgroup count args mismatch (1 vs 2)}}
  flow.dispatch.region[%w] -> () {
    flow.return
  } count(%arg0: index, %arg1: index) -> (index, index, index) {
    flow.return %arg0, %arg1, %arg1 : index, index, index
  }
  return
}

// -----

func.func @region_workload_type(%w: index, %c: index) {
  // expected-error @+1 {{'flow.dispatch.region' op workload value 0 type mismatch; operand is index but region captures i32}}
  flow.dispatch.region[%w] -> () {
    flow.return
  } count(%arg0: i32) -> (index, index, index) {
    flow.return %c, %c, %c : index, index, index
  }
  return
}

// -----

func.func @region_count_results(%w: index) {
  flow.dispatch.region[%w] -> () {
    flow.return
  // expected-error @+1 {{workgroup count region must return the XYZ dimension counts}}
  } count(%arg0: index) -> (index, index) {
    flow.return %arg0, %arg0 : index, index
  }
  return
}

// -----

func.func @region_count_return(%w: index) {
  flow.dispatch.region[%w] -> () {
    flow.return
  } count(%arg0: index) -> (index, index, index) {
    // expected-error @+1 {{'flow.return' op workgroup count region must return the XYZ dimension counts}}
    flow.return %arg0, %arg0 : index, index
  }
  return
}

// -----

func.func @encode_incompatible_shapes(%arg0: tensor<4x8xf32>) -> tensor<4x16xf32> {
  // expected-error @+1 {{'flow.tensor.encode' op the operand shape and result shape are not compatible}}
  %0 = flow.tensor.encode %arg0 : tensor<4x8xf32> -> tensor<4x16xf32>
  return %0 : tensor<4x16xf32>
}

// -----

func.func @encode_rank(%arg0: tensor<4x8xf32>) -> tensor<32xf32> {
  // expected-error @+1 {{'flow.tensor.encode' op failed to verify that all of {operand, result} have same rank}}
  %0 = flow.tensor.encode %arg0 : tensor<4x8xf32> -> tensor<32xf32>
  return %0 : tensor<32xf32>
}

// -----

func.func @encode_element_type(%arg0: tensor<4xf32>) -> tensor<4xf16> {
  // expected-error @+1 {{'flow.tensor.encode' op failed to verify that all of {operand, result} have same element type}}
  %0 = flow.tensor.encode %arg0 : tensor<4xf32> -> tensor<4xf16>
  return %0 : tensor<4xf16>
}

// -----

func.func @encode_missing_dims(%arg0: tensor<?x?xf32>, %d: index) -> tensor<?x?xf32> {
  // expected-error @+1 {{'flow.tensor.encode' op value set has 2 dynamic dimensions but only 1 dimension values are attached}}
  %0 = flow.tensor.encode %arg0 : tensor<?x?xf32>{%d} -> tensor<?x?xf32>{%d, %d}
  return %0 : tensor<?x?xf32>
}

// -----

flow.executable private @ex0 {
  flow.executable.export public @dispatch workgroups(%arg0: index) -> (index, index, index) {
    flow.return %arg0, %arg0, %arg0 : index, index, index
  }
}
func.func @dispatch_workload_count(%arg0: tensor<4xf32>, %arg1: index) -> tensor<4xf32> {
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  // expected-error @+1 {{'flow.dispatch' op workload mismatch; entry point expects 1 arguments but dispatch provides 2}}
  %0 = flow.dispatch @ex0::@dispatch[%c1, %c2](%arg0, %arg1) : (tensor<4xf32>, index) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

flow.executable private @ex0 {
  flow.executable.export public @dispatch workgroups(%arg0: i32) -> (index, index, index) {
    %c1 = arith.constant 1 : index
    flow.return %c1, %c1, %c1 : index, index, index
  }
}
func.func @dispatch_workload_type(%arg0: tensor<4xf32>, %arg1: index) -> tensor<4xf32> {
  // expected-error @+1 {{'flow.dispatch' op workload operand 0 type mismatch; expected i32 but passed index}}
  %0 = flow.dispatch @ex0::@dispatch[%arg1](%arg0) : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @dispatch_no_entry_point(%arg0: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'flow.dispatch' op at least one entry point reference is required}}
  %0 = "flow.dispatch"(%arg0) <{entry_points = [], operandSegmentSizes = array<i32: 0, 1, 0, 0>}> : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @dispatch_missing_argument_dims(%arg0: tensor<?xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'flow.dispatch' op value set has 1 dynamic dimensions but only 0 dimension values are attached}}
  %0 = "flow.dispatch"(%arg0) <{entry_points = [@ex::@fn], operandSegmentSizes = array<i32: 0, 1, 0, 0>}> : (tensor<?xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @dispatch_tied_operand_not_found(%arg0: tensor<4xf32>, %arg1: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{tied operand not found for result reference %arg1}}
  %0 = flow.dispatch @ex::@fn(%arg0) : (tensor<4xf32>) -> %arg1
  return %0 : tensor<4xf32>
}

// -----

func.func @dispatch_tied_out_of_range(%arg0: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'flow.dispatch' op tied operand index 3 is out of range of the 1 operand(s)}}
  %0 = "flow.dispatch"(%arg0) <{entry_points = [@ex::@fn], tied_operands = [3 : index], operandSegmentSizes = array<i32: 0, 1, 0, 0>}> : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

flow.executable private @ex0 {
  flow.executable.export public @dispatch workgroups(%arg0: index) -> (index, index, index) {
    // expected-error @+1 {{'flow.return' op workgroup count region must return the XYZ dimension counts}}
    flow.return %arg0, %arg0 : index, index
  }
}

// -----

func.func @tie_shape_missing_dims(%arg0: !iree_tensor_ext.dispatch.tensor<readonly:tensor<?x?xf32>>, %d: index) {
  // expected-error @+1 {{'flow.dispatch.tie_shape' op value set has 2 dynamic dimensions but only 1 dimension values are attached}}
  %0 = flow.dispatch.tie_shape %arg0 : !iree_tensor_ext.dispatch.tensor<readonly:tensor<?x?xf32>>{%d}
  return
}

// -----

func.func @seed_load_of_tensor_ext_type(%arg0: !iree_tensor_ext.dispatch.tensor<readonly:tensor<4xf32>>) -> tensor<4xf32> {
  // expected-error @+1 {{'flow.dispatch.tensor.load' op operand #0 must be dispatch.tensor, but got '!iree_tensor_ext.dispatch.tensor<readonly:tensor<4xf32>>'}}
  %0 = flow.dispatch.tensor.load %arg0, offsets = [0], sizes = [4], strides = [1] : !iree_tensor_ext.dispatch.tensor<readonly:tensor<4xf32>> -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @seed_store_to_readonly(%arg0: tensor<4xf32>, %arg1: !flow.dispatch.tensor<readonly:tensor<4xf32>>) {
  // expected-error @+1 {{'flow.dispatch.tensor.store' op operand #1 must be dispatch.tensor, but got '!flow.dispatch.tensor<readonly:tensor<4xf32>>'}}
  flow.dispatch.tensor.store %arg0, %arg1, offsets = [0], sizes = [4], strides = [1] : tensor<4xf32> -> !flow.dispatch.tensor<readonly:tensor<4xf32>>
  return
}

// -----

func.func @workgroups_missing_output(%arg0: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'flow.dispatch.workgroups' op workgroup body takes 1 arguments but the op has 1 operands and 1 untied results}}
  %0 = flow.dispatch.workgroups(%arg0) : (tensor<4xf32>) -> tensor<4xf32> =
      (%in: !iree_tensor_ext.dispatch.tensor<readonly:tensor<4xf32>>) {
    flow.return
  }
  return %0 : tensor<4xf32>
}

// -----

func.func @workgroups_wrong_binding(%arg0: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'flow.dispatch.workgroups' op workgroup body argument 0 must be a dispatch tensor of tensor<4xf32>, got tensor<4xf32>}}
  %0 = flow.dispatch.workgroups(%arg0) : (tensor<4xf32>) -> tensor<4xf32> =
      (%in: tensor<4xf32>, %out: !iree_tensor_ext.dispatch.tensor<writeonly:tensor<4xf32>>) {
    flow.return
  }
  return %0 : tensor<4xf32>
}

// -----

func.func @workgroups_tied_not_readwrite(%arg0: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'flow.dispatch.workgroups' op workgroup body argument 0 must be readwrite, got !iree_tensor_ext.dispatch.tensor<readonly:tensor<4xf32>>}}
  %0 = flow.dispatch.workgroups(%arg0) : (tensor<4xf32>) -> %arg0 =
      (%io: !iree_tensor_ext.dispatch.tensor<readonly:tensor<4xf32>>) {
    flow.return
  }
  return %0 : tensor<4xf32>
}

// -----

func.func @workgroups_body_returns_values(%arg0: tensor<4xf32>) -> tensor<4xf32> {
  %0 = flow.dispatch.workgroups(%arg0) : (tensor<4xf32>) -> tensor<4xf32> =
      (%in: !iree_tensor_ext.dispatch.tensor<readonly:tensor<4xf32>>, %out: !iree_tensor_ext.dispatch.tensor<writeonly:tensor<4xf32>>) {
    %c0 = arith.constant 0 : index
    // expected-error @+1 {{'flow.return' op a flow.dispatch.workgroups body returns nothing; results are stored}}
    flow.return %c0 : index
  }
  return %0 : tensor<4xf32>
}

// -----

func.func @workgroups_count_mismatch(%arg0: tensor<4xf32>, %w: index) -> tensor<4xf32> {
  // expected-error @+1 {{'flow.dispatch.workgroups' op workload operands and workgroup count args mismatch (1 vs 2)}}
  %0 = flow.dispatch.workgroups[%w](%arg0) : (tensor<4xf32>) -> tensor<4xf32> =
      (%in: !iree_tensor_ext.dispatch.tensor<readonly:tensor<4xf32>>, %out: !iree_tensor_ext.dispatch.tensor<writeonly:tensor<4xf32>>) {
    flow.return
  } count(%a: index, %b: index) -> (index, index, index) {
    %x, %y, %z = iree_tensor_ext.dispatch.workgroup_count_from_slice(%a, %b)
    flow.return %x, %y, %z : index, index, index
  }
  return %0 : tensor<4xf32>
}

// -----

// A dispatch region using its own result: form-dispatch-regions and
// hoist-into-globals looped on such input before the verifier rejected it.
util.func public @region_uses_its_result(%a: tensor<4xf32>) -> tensor<4xf32> {
  // expected-note @+1 {{operand defined here (op in a parent region)}}
  %0 = flow.dispatch.region -> (tensor<4xf32>) {
    // expected-error @+1 {{operand #0 does not dominate this use}}
    %1 = arith.addf %0, %a : tensor<4xf32>
    flow.return %1 : tensor<4xf32>
  }
  util.return %0 : tensor<4xf32>
}

// -----

util.func public @tensor_reshape_bit_widths(%t: tensor<4xf32>) -> tensor<4xf16> {
  // expected-error @+1 {{failed to verify that all of {source, result} have same element type}}
  %0 = flow.tensor.reshape %t : tensor<4xf32> -> tensor<4xf16>
  util.return %0 : tensor<4xf16>
}

// -----

util.func public @tensor_reshape_dims(%t: tensor<?xf32>, %n: index) -> tensor<?xf32> {
  // expected-error @+1 {{value set has 1 dynamic dimensions but only 0 dimension values are attached}}
  %0 = "flow.tensor.reshape"(%t, %n) <{operandSegmentSizes = array<i32: 1, 1, 0>}> : (tensor<?xf32>, index) -> tensor<?xf32>
  util.return %0 : tensor<?xf32>
}

// -----

util.func public @tensor_splat_type(%v: f16) -> tensor<4xf32> {
  // expected-error @+1 {{failed to verify that value type matches element type of result}}
  %0 = "flow.tensor.splat"(%v) : (f16) -> tensor<4xf32>
  util.return %0 : tensor<4xf32>
}

// -----

util.func public @tensor_slice_rank(%t: tensor<4x4xf32>, %i: index) -> tensor<2xf32> {
  // expected-error @+1 {{failed to verify that all of {source, result} have same rank}}
  %0 = flow.tensor.slice %t[%i, %i for %i, %i] : tensor<4x4xf32> -> tensor<2xf32>
  util.return %0 : tensor<2xf32>
}

// -----

util.func public @tensor_update_element_type(%t: tensor<4xf32>, %u: tensor<2xi32>, %i: index) -> tensor<4xf32> {
  // expected-error @+1 {{failed to verify that all of {update, target, result} have same element type}}
  %0 = flow.tensor.update %u, %t[%i] : tensor<2xi32> -> %t as tensor<4xf32>
  util.return %0 : tensor<4xf32>
}

// -----

util.func public @tensor_clone_types(%t: tensor<4xf32>) -> tensor<4xf16> {
  // expected-error @+1 {{failed to verify that all of {operand, result} have same type}}
  %0 = "flow.tensor.clone"(%t) : (tensor<4xf32>) -> tensor<4xf16>
  util.return %0 : tensor<4xf16>
}

// -----

util.func public @tensor_store_value_type(%t: tensor<4xf32>, %v: i32, %i: index) -> tensor<4xf32> {
  // expected-error @+1 {{failed to verify that value type matches element type of target}}
  %0 = "flow.tensor.store"(%v, %t, %i) <{operandSegmentSizes = array<i32: 1, 1, 0, 1>}> : (i32, tensor<4xf32>, index) -> tensor<4xf32>
  util.return %0 : tensor<4xf32>
}

// -----

util.func public @tensor_empty_dims(%n: index) -> tensor<4xf32> {
  // expected-error @+1 {{value set has 0 dynamic dimensions but only 1 dimension values are attached}}
  %0 = "flow.tensor.empty"(%n) : (index) -> tensor<4xf32>
  util.return %0 : tensor<4xf32>
}

// -----

util.func public @tensor_tie_shape_dims(%t: tensor<?x?xf32>, %n: index) -> tensor<?x?xf32> {
  // expected-error @+1 {{value set has 2 dynamic dimensions but only 1 dimension values are attached}}
  %0 = flow.tensor.tie_shape %t : tensor<?x?xf32>{%n}
  util.return %0 : tensor<?x?xf32>
}

// -----

util.func public @tensor_tie_shape_types(%t: tensor<4xf32>) -> tensor<4xf16> {
  // expected-error @+1 {{failed to verify that all of {operand, result} have same type}}
  %0 = "flow.tensor.tie_shape"(%t) : (tensor<4xf32>) -> tensor<4xf16>
  util.return %0 : tensor<4xf16>
}
