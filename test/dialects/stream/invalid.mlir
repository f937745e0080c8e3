// RUN: mini-iree-opt %s --split-input-file --verify-diagnostics

// expected-error @+1 {{unknown lifetime value: forever}}
func.func @unknown_lifetime(%arg0: !stream.resource<forever>) {
  return
}

// -----

stream.executable private @ex {
  stream.executable.export public @entry workgroups(%arg0: index) -> (index, index, index) {
    // expected-error @+1 {{'stream.return' op workgroup count region must return the XYZ dimension counts}}
    stream.return %arg0, %arg0 : index, index
  }
}

// -----

func.func @return_outside_export(%arg0: index) {
  // expected-error @+1 {{expects parent op 'stream.executable.export'}}
  stream.return %arg0, %arg0, %arg0 : index, index, index
}

// -----

func.func @subspan_missing_dims(%arg0: !stream.binding, %c0: index, %d: index) {
  // expected-error @+1 {{'stream.binding.subspan' op type set has 2 dynamic dimensions but only 1 dimension values are attached}}
  %0 = stream.binding.subspan %arg0[%c0] : !stream.binding -> !iree_tensor_ext.dispatch.tensor<readonly:tensor<?x?xf32>>{%d}
  return
}

// -----

func.func @sizeof_missing_dims(%d: index) -> index {
  // expected-error @+1 {{'stream.tensor.sizeof' op type set has 2 dynamic dimensions but only 1 dimension values are attached}}
  %0 = stream.tensor.sizeof tensor<?x?xf32>{%d} : index
  return %0 : index
}

// -----

func.func @import_missing_dims(%arg0: !hal.buffer_view, %size: index) -> !stream.resource<external> {
  // expected-error @+1 {{'stream.tensor.import' op type set has 1 dynamic dimensions but only 0 dimension values are attached}}
  %0 = stream.tensor.import %arg0 : !hal.buffer_view -> tensor<?xf32> in !stream.resource<external>{%size}
  return %0 : !stream.resource<external>
}

// -----

func.func @export_extra_dims(%arg0: !stream.resource<external>, %d: index, %size: index) -> !hal.buffer_view {
  // expected-error @+1 {{'stream.tensor.export' op type set has 0 dynamic dimensions but only 1 dimension values are attached}}
  %0 = stream.tensor.export %arg0 : tensor<4xf32>{%d} in !stream.resource<external>{%size} -> !hal.buffer_view
  return %0 : !hal.buffer_view
}

// -----

func.func @encode_missing_result_dims(%arg0: !stream.resource<*>, %d: index, %size: index) -> !stream.resource<*> {
  // expected-error @+1 {{'stream.tensor.encode' op type set has 1 dynamic dimensions but only 0 dimension values are attached}}
  %0 = stream.tensor.encode %arg0 : tensor<?xf32>{%d} in !stream.resource<*>{%size} -> tensor<?xf32, "enc"> in !stream.resource<*>{%size}
  return %0 : !stream.resource<*>
}

// -----

func.func @tensor_dispatch_tied_encoding(%arg0: !stream.resource<*>, %size: index) -> !stream.resource<*> {
  // expected-error @+1 {{'stream.tensor.dispatch' op the 0-th operandEncoding (tensor<4xf32>) does not match the resultEncoding (tensor<4xf32, "enc">)}}
  %0 = stream.tensor.dispatch @ex::@entry(%arg0) : (tensor<4xf32> in !stream.resource<*>{%size}) -> tensor<4xf32, "enc"> in %arg0{%size}
  return %0 : !stream.resource<*>
}

// -----

func.func @tensor_dispatch_missing_size(%arg0: !stream.resource<*>) -> !stream.resource<*> {
  // expected-error @+1 {{'stream.tensor.dispatch' op value set has 1 dynamic dimensions but only 0 dimension values are attached}}
  "stream.tensor.dispatch"(%arg0) <{entry_points = [@ex::@entry], operand_encodings = [tensor<4xf32>], result_encodings = [], operandSegmentSizes = array<i32: 0, 1, 0, 0, 0, 0>}> : (!stream.resource<*>) -> ()
  return %arg0 : !stream.resource<*>
}

// -----

stream.executable private @ex {
  stream.executable.export public @entry workgroups(%arg0: index) -> (index, index, index) {
    stream.return %arg0, %arg0, %arg0 : index, index, index
  }
}
func.func @tensor_dispatch_workload(%arg0: !stream.resource<*>, %size: index) {
  // expected-error @+1 {{'stream.tensor.dispatch' op workload mismatch; entry point expects 1 arguments but dispatch provides 0}}
  stream.tensor.dispatch @ex::@entry(%arg0) : (tensor<4xf32> in !stream.resource<*>{%size}) -> ()
  return
}

// -----

func.func @async_dispatch_missing_range(%arg0: !stream.resource<*>, %size: index) -> !stream.resource<*> {
  // expected-error @+1 {{'stream.async.dispatch' op expects 1 resource range operand sets but 0 are present}}
  %0 = stream.async.dispatch @ex::@entry(%arg0) : (!stream.resource<*>{%size}) -> !stream.resource<*>{%size}
  return %0 : !stream.resource<*>
}

// -----

func.func @async_dispatch_range_counts(%arg0: !stream.resource<*>, %size: index, %c0: index) -> !stream.resource<*> {
  // expected-error @+1 {{'stream.async.dispatch' op mismatch on resource range offsets/ends/lengths; counts must match}}
  %0 = "stream.async.dispatch"(%arg0, %size, %c0, %size, %size) <{entry_points = [@ex::@entry], operandSegmentSizes = array<i32: 0, 1, 1, 1, 1, 0, 1>}> : (!stream.resource<*>, index, index, index, index) -> !stream.resource<*>
  return %0 : !stream.resource<*>
}

// -----

func.func @async_cast_sizes(%arg0: !stream.resource<external>, %s0: index, %s1: index) -> !stream.resource<*> {
  // expected-error @+1 {{'stream.async.cast' op source and result sizes must be equal (tied storage)}}
  %0 = stream.async.cast %arg0 : !stream.resource<external>{%s0} -> !stream.resource<*>{%s1}
  return %0 : !stream.resource<*>
}

// -----

util.func public @tensor_constant_value_shape() -> !stream.resource<constant> {
  // expected-error @+1 {{'stream.tensor.constant' op value of type tensor<2xi1> does not hold the elements of tensor<4xi1>}}
  %cst = stream.tensor.constant : tensor<4xi1> in !stream.resource<constant> = dense<[true, false]> : tensor<2xi1>
  util.return %cst : !stream.resource<constant>
}

// -----

util.func public @tensor_constant_value_element_type() -> !stream.resource<constant> {
  // expected-error @+1 {{'stream.tensor.constant' op value of type tensor<4xi32> does not hold the elements of tensor<4xi1>}}
  %cst = stream.tensor.constant : tensor<4xi1> in !stream.resource<constant> = dense<[1, 0, 1, 1]> : tensor<4xi32>
  util.return %cst : !stream.resource<constant>
}

// -----

util.func public @tensor_constant_untyped_value() -> !stream.resource<constant> {
  // expected-error @+1 {{'stream.tensor.constant' op value of type none does not hold the elements of tensor<4xf32>}}
  %cst = stream.tensor.constant : tensor<4xf32> in !stream.resource<constant> = "four floats"
  util.return %cst : !stream.resource<constant>
}

// -----

util.func public @cmd_dispatch_unknown_access(%arg0: !stream.resource<transient>, %arg1: index) {
  %c0 = arith.constant 0 : index
  %0 = stream.cmd.execute with(%arg0 as %arg2: !stream.resource<transient>{%arg1}) {
    stream.cmd.dispatch @ex::@fn {
      // expected-error @+1 {{expected one of ro, wo, rw}}
      xx %arg2[%c0 for %arg1] : !stream.resource<transient>{%arg1}
    }
  } => !stream.timepoint
  util.return
}

// -----

util.func public @async_execute_yield_types(%arg0: !stream.resource<*>, %arg1: index) {
  // expected-error @+1 {{'stream.async.execute' op stream.yield types do not match the op's result types}}
  %results, %result_timepoint = stream.async.execute with(%arg0 as %arg2: !stream.resource<*>{%arg1}) -> !stream.resource<external>{%arg1} {
    stream.yield %arg2 : !stream.resource<*>{%arg1}
  } => !stream.timepoint
  util.return
}

// -----

util.func public @resource_pack_intervals(%arg0: index) {
  // expected-error @+1 {{'stream.resource.pack' op requires a [start, end] range for each slice}}
  %0:2 = "stream.resource.pack"(%arg0) <{lifetime_intervals = [0 : index], operandSegmentSizes = array<i32: 0, 1>}> : (index) -> (index, index)
  util.return
}
