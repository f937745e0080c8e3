// RUN: mini-iree-opt %s --split-input-file --verify-diagnostics

func.func @tensor_import_missing_dims(%arg0: !hal.buffer_view, %arg1: index) -> tensor<?x?xf32> {
  // expected-error @+1 {{number of target_dims must match number of dynamic dims in target type}}
  %0 = hal.tensor.import %arg0 "input0" : !hal.buffer_view -> tensor<?x?xf32>{%arg1}
  return %0 : tensor<?x?xf32>
}

// -----

func.func @tensor_import_incompatible_encoding(%arg0: !hal.buffer_view) -> tensor<4xf32> {
  // expected-error @+1 {{encoding and storage types must have the same dynamic dimension values; encoding shape 'tensor<?xf32>' incompatible with storage shape 'tensor<4xf32>'}}
  %0 = hal.tensor.import %arg0 : !hal.buffer_view -> tensor<?xf32> as tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @tensor_export_missing_dims(%arg0: tensor<?x?xf32>, %arg1: index) -> !hal.buffer_view {
  // expected-error @+1 {{number of source_dims must match number of dynamic dims in source type}}
  %0 = hal.tensor.export %arg0 "output0" : tensor<?x?xf32>{%arg1} -> !hal.buffer_view
  return %0 : !hal.buffer_view
}

// -----

func.func @tensor_export_incompatible_encoding(%arg0: tensor<4xf32>) -> !hal.buffer_view {
  // expected-error @+1 {{encoding and storage types must have the same dynamic dimension values; encoding shape 'tensor<?x4xf32>' incompatible with storage shape 'tensor<4xf32>'}}
  %0 = hal.tensor.export %arg0 : tensor<?x4xf32> as tensor<4xf32> -> !hal.buffer_view
  return %0 : !hal.buffer_view
}

// -----

func.func @element_type_unsupported() {
  // expected-error @+1 {{unsupported element type}}
  %0 = hal.element_type<index> : i32
  return
}

// -----

func.func @encoding_type_unsupported() {
  // expected-error @+1 {{unsupported encoding type}}
  %0 = hal.encoding_type<"col_major"> : i32
  return
}

// -----

func.func @constant_load_ordinal_out_of_bounds() {
  // expected-error @+1 {{push constant ordinal out of bounds}}
  %0 = hal.interface.constant.load layout(<constants = 2, bindings = [#hal.pipeline.binding<storage_buffer>]>) ordinal(2) : i32
  return
}

// -----

func.func @binding_subspan_missing_dims(%arg0: index) {
  // expected-error @+1 {{result type 'memref<?x4x?x16xi8>' has 2 dynamic dimensions but 1 associated dimension SSA values}}
  %0 = hal.interface.binding.subspan layout(<bindings = [#hal.pipeline.binding<storage_buffer, ReadOnly>]>) binding(0) : memref<?x4x?x16xi8>{%arg0}
  return
}

// -----

func.func @binding_subspan_binding_out_of_bounds() {
  // expected-error @+1 {{binding ordinal 1 out of bounds in layout #hal.pipeline.layout<bindings = [#hal.pipeline.binding<storage_buffer, ReadOnly>]>}}
  %0 = hal.interface.binding.subspan layout(<bindings = [#hal.pipeline.binding<storage_buffer, ReadOnly>]>) binding(1) : memref<4xf32>
  return
}

// -----

func.func @binding_subspan_bad_flags() {
  // expected-error @+1 {{invalid descriptor flags 'ReadOnly|Writable', expected one of None, ReadOnly, Indirect}}
  %0 = hal.interface.binding.subspan layout(<bindings = [#hal.pipeline.binding<storage_buffer>]>) binding(0) flags("ReadOnly|Writable") : memref<4xf32>
  return
}

// -----

func.func @binding_subspan_layout_not_a_layout() {
  // expected-error @+1 {{expected #hal.pipeline.layout, got #hal.pipeline.binding<storage_buffer>}}
  %0 = hal.interface.binding.subspan layout(#hal.pipeline.binding<storage_buffer>) binding(0) : memref<4xf32>
  return
}

// -----

// expected-error @+1 {{expected #hal.pipeline.binding, got #hal.descriptor_type<storage_buffer>}}
func.func @pipeline_layout_bad_binding() attributes {layout = #hal.pipeline.layout<bindings = [#hal.descriptor_type<storage_buffer>]>} {
  return
}

// -----

// expected-error @+1 {{expected descriptor type to be one of: uniform_buffer, storage_buffer}}
func.func @descriptor_type_unknown() attributes {type = #hal.descriptor_type<image>} {
  return
}

// -----

// expected-error @+1 {{expected #hal.executable.target, got #hal.device.affinity<@dev>}}
func.func @device_target_bad_target() attributes {target = #hal.device.target<"local", [#hal.device.affinity<@dev>]> : !hal.device} {
  return
}

// -----

// expected-error @+1 {{expected !hal.device, got i32}}
func.func @device_target_bad_type() attributes {target = #hal.device.target<"local"> : i32} {
  return
}

// -----

// expected-error @+1 {{expected a configuration dictionary or a list of targets}}
func.func @device_target_bad_config() attributes {target = #hal.device.target<"local", "config">} {
  return
}

// -----

// expected-error @+1 {{queue index 64 out of range [0, 64)}}
func.func @device_affinity_bad_queue() attributes {affinity = #hal.device.affinity<@dev, [64]>} {
  return
}

// -----

#executable_target_x86_64 = #hal.executable.target<"llvm-cpu", "x86_64">
hal.executable private @ex {
  hal.executable.variant public @x86_64 target(#executable_target_x86_64) {
    // expected-error @+1 {{expected workgroup_count to take (%device: !hal.device, %workload_0: index, %workload_1: index, ...}}
    hal.executable.export public @entry layout(#hal.pipeline.layout<bindings = [#hal.pipeline.binding<storage_buffer>]>) count(%arg0: index) -> (index, index, index) {
      hal.return %arg0, %arg0, %arg0 : index, index, index
    }
  }
}

// -----

#executable_target_x86_64 = #hal.executable.target<"llvm-cpu", "x86_64">
hal.executable private @ex {
  hal.executable.variant public @x86_64 target(#executable_target_x86_64) {
    // expected-error @+1 {{workgroup count region must return the XYZ dimension counts as `index` types}}
    hal.executable.export public @entry layout(#hal.pipeline.layout<bindings = [#hal.pipeline.binding<storage_buffer>]>) count(%arg0: !hal.device, %arg1: index) -> (index, index, index) {
      hal.return %arg1, %arg1 : index, index
    }
  }
}

// -----

#executable_target_x86_64 = #hal.executable.target<"llvm-cpu", "x86_64">
// expected-error @+1 {{'hal.executable.variant' expects parent op 'hal.executable'}}
hal.executable.variant public @x86_64 target(#executable_target_x86_64) {
}

// -----

hal.executable private @ex {
  // expected-error @+1 {{'hal.executable.export' op expects parent op to be one of 'hal.executable.source, hal.executable.variant'}}
  hal.executable.export public @entry layout(#hal.pipeline.layout<bindings = [#hal.pipeline.binding<storage_buffer>]>)
}

// -----

hal.executable private @ex {
  // expected-error @+1 {{expected #hal.executable.target}}
  hal.executable.variant public @x86_64 target(#hal.pipeline.layout<bindings = []>) {
  }
}

// -----

func.func @return_count_mismatch(%arg0: index) {
  // expected-error @+1 {{return must have the same number of operands as the parent result signature (have 1, expected 0)}}
  hal.return %arg0 : index
}

// -----

util.func private @tensor_alias_dims(%a: tensor<?xf32>, %buf: !hal.buffer) -> tensor<?xf32> {
  // expected-error @+1 {{number of dynamic dims must match the operand type}}
  %0 = "hal.tensor.alias"(%a, %buf) <{operandSegmentSizes = array<i32: 1, 0, 1, 0>}> : (tensor<?xf32>, !hal.buffer) -> tensor<?xf32>
  util.return %0 : tensor<?xf32>
}

// -----

util.func private @tensor_barrier_types(%a: tensor<4xf32>, %f: !hal.fence) -> tensor<4xf16> {
  // expected-error @+1 {{failed to verify that all of {sources, results} have same type}}
  %0 = "hal.tensor.barrier"(%a, %f) : (tensor<4xf32>, !hal.fence) -> tensor<4xf16>
  util.return %0 : tensor<4xf16>
}

// -----

util.func private @fence_create_flags(%d: !hal.device) -> !hal.fence {
  // expected-error @+1 {{expected one of None, Reserved for flags, got 'Fast'}}
  %0 = hal.fence.create device(%d : !hal.device) flags("Fast") : !hal.fence
  util.return %0 : !hal.fence
}
