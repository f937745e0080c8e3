// RUN: mini-iree-opt %s -p iree-stream-conversion --split-input-file --verify-diagnostics

// A host op on tensors with no stream counterpart is refused, not dropped.

util.func public @host_tensor_op(%arg0: index) -> !hal.buffer_view {
  // expected-error @+1 {{failed to legalize operation 'tensor.empty': it takes or returns tensors and has no conversion to stream}}
  %0 = tensor.empty(%arg0) : tensor<?xf32>
  %1 = hal.tensor.export %0 "output0" : tensor<?xf32>{%arg0} -> !hal.buffer_view
  util.return %1 : !hal.buffer_view
}

// -----

// Dispatch regions must be outlined into executables first.

util.func public @dispatch_region_left(%arg0: !hal.buffer_view) -> !hal.buffer_view {
  %0 = hal.tensor.import %arg0 "input0" : !hal.buffer_view -> tensor<4xf32>
  // expected-error @+1 {{failed to legalize operation 'flow.dispatch.region' that was explicitly marked illegal}}
  %1 = flow.dispatch.region -> (tensor<4xf32>) {
    flow.return %0 : tensor<4xf32>
  }
  %2 = hal.tensor.export %1 "output0" : tensor<4xf32> -> !hal.buffer_view
  util.return %2 : !hal.buffer_view
}

// -----

// Imports that wait on a fence need stream timepoints, which are not modelled.

util.func public @import_waits(%arg0: !hal.buffer_view, %arg1: !hal.fence) -> !hal.buffer_view {
  // expected-error @+1 {{failed to legalize operation 'hal.tensor.import': fence waits are not supported}}
  %0 = hal.tensor.import wait(%arg1) => %arg0 "input0" : !hal.buffer_view -> tensor<4xf32>
  %1 = hal.tensor.export %0 "output0" : tensor<4xf32> -> !hal.buffer_view
  util.return %1 : !hal.buffer_view
}

// -----

// A dynamic binding needs its dims from a flow.dispatch.tie_shape.

flow.executable private @ex {
  flow.executable.export public @fn workgroups(%arg0: index) -> (index, index, index) {
    %x, %y, %z = iree_tensor_ext.dispatch.workgroup_count_from_slice(%arg0)
    flow.return %x, %y, %z : index, index, index
  }
  builtin.module {
    // expected-error @+1 {{dynamic dispatch dimensions not properly captured; the must be associated with a flow.dispatch.tie_shape op}}
    func.func @fn(%arg0: !iree_tensor_ext.dispatch.tensor<readonly:tensor<?xf32>>, %arg1: index, %arg2: !iree_tensor_ext.dispatch.tensor<writeonly:tensor<?xf32>>) {
      %0 = iree_tensor_ext.dispatch.tensor.load %arg0, offsets = [0], sizes = [%arg1], strides = [1] : !iree_tensor_ext.dispatch.tensor<readonly:tensor<?xf32>>{%arg1} -> tensor<?xf32>
      iree_tensor_ext.dispatch.tensor.store %0, %arg2, offsets = [0], sizes = [%arg1], strides = [1] : tensor<?xf32> -> !iree_tensor_ext.dispatch.tensor<writeonly:tensor<?xf32>>{%arg1}
      return
    }
  }
}
