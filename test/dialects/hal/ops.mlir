// RUN: mini-iree-opt %s --split-input-file | mini-iree-opt --split-input-file | filecheck %s
// RUN: mini-iree-opt %s --split-input-file --mlir-print-op-generic | mini-iree-opt --split-input-file | filecheck %s
// RUN: mini-iree-opt %s --split-input-file --mlir-print-local-scope | filecheck %s --check-prefix=LOCAL

// CHECK-LABEL: func.func @types
// CHECK-SAME: (%arg0: !hal.buffer_view, %arg1: !hal.buffer, %arg2: !hal.device, %arg3: !hal.fence)
func.func @types(%arg0: !hal.buffer_view, %arg1: !hal.buffer, %arg2: !hal.device, %arg3: !hal.fence) {
  return
}

// -----

// The executable target is aliased after its format, the device target after its id.
// CHECK: #executable_target_embedded_elf_x86_64 = #hal.executable.target<"llvm-cpu", "embedded-elf-x86_64", {cpu = "znver3", cpu_features = "+avx2,+fma", target_triple = "x86_64-unknown-unknown-eabi-elf"}>
// CHECK: #device_target_local = #hal.device.target<"local", [#executable_target_embedded_elf_x86_64]> : !hal.device
// CHECK-LABEL: func.func @device_target
// CHECK-SAME: attributes {hal.device.targets = [#device_target_local]}
#executable_target_embedded_elf_x86_64 = #hal.executable.target<"llvm-cpu", "embedded-elf-x86_64", {cpu = "znver3", cpu_features = "+avx2,+fma", target_triple = "x86_64-unknown-unknown-eabi-elf"}>
#device_target_local = #hal.device.target<"local", [#executable_target_embedded_elf_x86_64]> : !hal.device
func.func @device_target() attributes {hal.device.targets = [#device_target_local]} {
  return
}

// -----

// A configured ordinal becomes part of the device alias, with a trailing `_`.
// CHECK: #device_target_hip = #hal.device.target<"hip"> : !hal.device
// CHECK: #device_target_vulkan = #hal.device.target<"vulkan", {legacy_sync}> : !hal.device
// CHECK: #executable_target_vmvx_bytecode_fb = #hal.executable.target<"vmvx", "vmvx-bytecode-fb">
// CHECK: #device_target_local_1_ = #hal.device.target<"local", {ordinal = 1 : index}, [#executable_target_vmvx_bytecode_fb]> : !hal.device
// CHECK-LABEL: func.func @device_target_forms
// CHECK-SAME: attributes {a = #device_target_local_1_, b = #device_target_vulkan, c = #device_target_hip}
func.func @device_target_forms() attributes {
    a = #hal.device.target<"local", {ordinal = 1 : index}, [#hal.executable.target<"vmvx", "vmvx-bytecode-fb", {}>]> : !hal.device,
    b = #hal.device.target<"vulkan", {legacy_sync}> : !hal.device,
    c = #hal.device.target<"hip">} {
  return
}

// -----

// CHECK-LABEL: func.func @device_affinities
// CHECK-SAME: a = #hal.device.affinity<@__device_0>
// CHECK-SAME: b = #hal.device.affinity<@device_b, [0, 4, 5]>
// CHECK-SAME: c = #hal.device.promise<@device_c>
// CHECK-SAME: d = #hal.device.promise<@device_d, [1]>
// CHECK-SAME: e = #hal.device.optimal<[#hal.device.affinity<@device_a>, #hal.device.affinity<@device_b, [4, 5]>]>
func.func @device_affinities() attributes {
    a = #hal.device.affinity<@__device_0>,
    b = #hal.device.affinity<@device_b, [5, 0, 4]>,
    c = #hal.device.promise<@device_c>,
    d = #hal.device.promise<@device_d, [1]>,
    e = #hal.device.optimal<[#hal.device.affinity<@device_a>, #hal.device.affinity<@device_b, [4, 5]>]>} {
  return
}

// -----

// CHECK-LABEL: func.func @descriptor_type_memory_space
// CHECK-SAME: (%arg0: memref<?x?xf32, #hal.descriptor_type<storage_buffer>>, %arg1: memref<4xi8, #hal.descriptor_type<uniform_buffer>>)
func.func @descriptor_type_memory_space(%arg0: memref<?x?xf32, #hal.descriptor_type<storage_buffer>>, %arg1: memref<4xi8, #hal.descriptor_type<uniform_buffer>>) {
  return
}

// -----

// CHECK-LABEL: func.func @tensor_import_export
func.func @tensor_import_export(%arg0: !hal.buffer_view) -> !hal.buffer_view {
  // CHECK: %[[D0:.+]] = hal.buffer_view.dim<%arg0 : !hal.buffer_view>[0] : index
  %0 = hal.buffer_view.dim<%arg0 : !hal.buffer_view>[0] : index
  // CHECK: %[[D1:.+]] = hal.buffer_view.dim<%arg0 : !hal.buffer_view>[1] : index
  %1 = hal.buffer_view.dim<%arg0 : !hal.buffer_view>[1] : index
  // CHECK: %[[T:.+]] = hal.tensor.import %arg0 "input0" : !hal.buffer_view -> tensor<?x?xf32>{%[[D0]], %[[D1]]}
  %2 = hal.tensor.import %arg0 "input0" : !hal.buffer_view -> tensor<?x?xf32>{%0, %1}
  // CHECK: %[[R:.+]] = hal.tensor.export %[[T]] "output0" : tensor<?x?xf32>{%[[D0]], %[[D1]]} -> !hal.buffer_view
  %3 = hal.tensor.export %2 "output0" : tensor<?x?xf32>{%0, %1} -> !hal.buffer_view
  // CHECK: return %[[R]] : !hal.buffer_view
  return %3 : !hal.buffer_view
}

// -----

// CHECK-LABEL: func.func @tensor_import_static
func.func @tensor_import_static(%arg0: !hal.buffer_view) -> tensor<255x513xf32> {
  // CHECK: hal.tensor.import %arg0 "input0" : !hal.buffer_view -> tensor<255x513xf32>
  %0 = hal.tensor.import %arg0 "input0" : !hal.buffer_view -> tensor<255x513xf32>
  return %0 : tensor<255x513xf32>
}

// -----

// CHECK-LABEL: func.func @tensor_import_export_all_options
func.func @tensor_import_export_all_options(%arg0: !hal.buffer_view, %arg1: !hal.fence, %arg2: index) -> !hal.buffer {
  // CHECK: %[[T:.+]] = hal.tensor.import on(#hal.device.affinity<@dev>) wait(%arg1) => consume %arg0 offset(%arg2) "in" : !hal.buffer_view -> tensor<4xi8> as tensor<1xi32>
  %0 = hal.tensor.import on(#hal.device.affinity<@dev>) wait(%arg1) => consume %arg0 offset(%arg2) "in" : !hal.buffer_view -> tensor<4xi8> as tensor<1xi32>
  // CHECK: hal.tensor.export on(#hal.device.affinity<@dev>) %[[T]] : tensor<4xi8> as tensor<1xi32> -> !hal.buffer
  %1 = hal.tensor.export on(#hal.device.affinity<@dev>) %0 : tensor<4xi8> as tensor<1xi32> -> !hal.buffer
  return %1 : !hal.buffer
}

// -----

// An attribute dictionary can only follow a non-empty dims list (a `{` alone would start one).
// CHECK-LABEL: func.func @tensor_import_export_attributes
func.func @tensor_import_export_attributes(%arg0: !hal.buffer_view, %arg1: index) -> !hal.buffer_view {
  // CHECK: %[[T:.+]] = hal.tensor.import %arg0 : !hal.buffer_view -> tensor<?xf32>{%arg1} {some.attr}
  %0 = hal.tensor.import %arg0 : !hal.buffer_view -> tensor<?xf32>{%arg1} {some.attr}
  // CHECK: hal.tensor.export %[[T]] : tensor<?xf32>{%arg1} -> !hal.buffer_view {other.attr = 1 : i32}
  %1 = hal.tensor.export %0 : tensor<?xf32>{%arg1} -> !hal.buffer_view {other.attr = 1 : i32}
  return %1 : !hal.buffer_view
}

// -----

// The element and encoding type results are named like IREE names them.
// CHECK-LABEL: func.func @buffer_view_assert
func.func @buffer_view_assert(%arg0: !hal.buffer_view, %arg1: index) {
  // CHECK: %element_type_f32 = hal.element_type<f32> : i32
  %0 = hal.element_type<f32> : i32
  // CHECK: %dense_row_major = hal.encoding_type<dense_row_major> : i32
  %1 = hal.encoding_type<dense_row_major> : i32
  // CHECK: hal.buffer_view.assert<%arg0 : !hal.buffer_view> message("input0") shape([%arg1, %arg1]) type(%element_type_f32) encoding(%dense_row_major)
  hal.buffer_view.assert<%arg0 : !hal.buffer_view> message("input0") shape([%arg1, %arg1]) type(%0) encoding(%1)
  return
}

// -----

// CHECK-LABEL: func.func @element_types
func.func @element_types() {
  // CHECK: %element_type_i8 = hal.element_type<i8> : i32
  %0 = hal.element_type<i8> : i32
  // CHECK: %element_type_bf16 = hal.element_type<bf16> : i32
  %1 = hal.element_type<bf16> : i32
  // CHECK: %element_type_ui32 = hal.element_type<ui32> : i32
  %2 = hal.element_type<ui32> : i32
  return
}

// -----

// At module scope, ops refer to the layout by its alias (as MLIR does)...
// CHECK: #pipeline_layout = #hal.pipeline.layout<constants = 4, bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>
// CHECK-LABEL: func.func @interface_ops
// ...and with a local scope they print it without its `#hal.pipeline.layout` prefix.
// LOCAL-LABEL: func.func @interface_ops
func.func @interface_ops() {
  // CHECK: %[[C0:.+]] = arith.constant 0 : index
  %c0 = arith.constant 0 : index
  // CHECK: %[[D:.+]] = hal.interface.constant.load layout(#pipeline_layout) ordinal(3) : i32
  // LOCAL: hal.interface.constant.load layout(<constants = 4, bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>) ordinal(3) : i32
  %0 = hal.interface.constant.load layout(<constants = 4, bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>) ordinal(3) : i32
  %1 = arith.index_cast %0 : i32 to index
  // CHECK: hal.interface.binding.subspan layout(#pipeline_layout) binding(0) alignment(64) offset(%[[C0]]) flags("ReadOnly|Indirect") : memref<?x?xf32, #hal.descriptor_type<storage_buffer>>{%{{.+}}, %{{.+}}}
  // LOCAL: hal.interface.binding.subspan layout(<constants = 4, bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>) binding(0) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : memref<?x?xf32, #hal.descriptor_type<storage_buffer>>{%1, %1}
  %2 = hal.interface.binding.subspan layout(<constants = 4, bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>) binding(0) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : memref<?x?xf32, #hal.descriptor_type<storage_buffer>>{%1, %1}
  return
}

// -----

// The full attribute and an alias are accepted too. Flags equal to `None` are
// dropped from a binding but kept on a layout.
// CHECK: #pipeline_layout = #hal.pipeline.layout<bindings = [#hal.pipeline.binding<storage_buffer, ReadOnly>, #hal.pipeline.binding<storage_buffer>], flags = None>
// CHECK-LABEL: func.func @interface_binding_subspan_forms
#pipeline_layout = #hal.pipeline.layout<bindings = [
  #hal.pipeline.binding<storage_buffer, ReadOnly>,
  #hal.pipeline.binding<storage_buffer, None>
], flags = None>
func.func @interface_binding_subspan_forms(%arg0: index) {
  // CHECK: hal.interface.binding.subspan layout(#pipeline_layout) binding(1) flags("None") : memref<64x256x8x1xf32>
  %0 = hal.interface.binding.subspan layout(#pipeline_layout) binding(1) flags("None") : memref<64x256x8x1xf32>
  // CHECK: hal.interface.binding.subspan layout(#pipeline_layout) binding(0) : memref<4xf32>
  %1 = hal.interface.binding.subspan layout(#hal.pipeline.layout<bindings = [#hal.pipeline.binding<storage_buffer, ReadOnly>, #hal.pipeline.binding<storage_buffer>], flags = None>) binding(0) : memref<4xf32>
  // CHECK: hal.interface.binding.subspan layout(#pipeline_layout) binding(0) offset(%arg0) : i32
  %2 = hal.interface.binding.subspan layout(#pipeline_layout) binding(0) offset(%arg0) : i32
  return
}

// -----

// CHECK: #pipeline_layout = #hal.pipeline.layout<constants = 2, bindings = [#hal.pipeline.binding<storage_buffer>]>
// CHECK-LABEL: func.func @interface_constant_load_hints
func.func @interface_constant_load_hints() {
  // CHECK: hal.interface.constant.load layout(#pipeline_layout) ordinal(1) alignment(16) values([0 : i32, 32 : i32]) : index
  %0 = hal.interface.constant.load layout(<constants = 2, bindings = [#hal.pipeline.binding<storage_buffer>]>) ordinal(1) alignment(16) values([0 : i32, 32 : i32]) : index
  return
}

// -----

// An executable with two variants, each with an export (with and without a
// workgroup count region) and its module; the `*_end` terminators stay implicit.
// CHECK: #pipeline_layout = #hal.pipeline.layout<constants = 1, bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>
// CHECK-LABEL: hal.executable private @ex {
// CHECK-NEXT:    hal.executable.variant public @arm_64 target(#executable_target_arm_64) {
// CHECK-NEXT:      hal.executable.export public @entry ordinal(0) layout(#pipeline_layout) count(%arg0: !hal.device, %arg1: index, %arg2: index) -> (index, index, index) {
// CHECK-NEXT:        %x, %y, %z = iree_tensor_ext.dispatch.workgroup_count_from_slice(%arg1, %arg2)
// CHECK-NEXT:        hal.return %x, %y, %z : index, index, index
// CHECK-NEXT:      }
// CHECK-NEXT:      builtin.module {
// CHECK-NEXT:        func.func @entry() {
// CHECK-NEXT:          hal.interface.constant.load layout(#pipeline_layout) ordinal(0) : i32
// CHECK-NEXT:          return
// CHECK-NEXT:        }
// CHECK-NEXT:      }
// CHECK-NEXT:    }
// CHECK-NEXT:    hal.executable.variant public @x86_64 target(#executable_target_x86_64) attributes {note = "external"} {
// CHECK-NEXT:      hal.executable.export public @entry layout(#pipeline_layout)
// CHECK-NEXT:    }
// CHECK-NEXT:  }
// CHECK-NEXT:  hal.executable public lazy @lazy_ex {
// CHECK-NEXT:  }
// LOCAL-LABEL: hal.executable private @ex {
// LOCAL:         hal.executable.variant public @arm_64 target(#hal.executable.target<"llvm-cpu", "arm_64">) {
// LOCAL-NEXT:      hal.executable.export public @entry ordinal(0) layout(#hal.pipeline.layout<constants = 1, bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>) count(
#executable_target_arm_64 = #hal.executable.target<"llvm-cpu", "arm_64">
#executable_target_x86_64 = #hal.executable.target<"llvm-cpu", "x86_64">
#pipeline_layout = #hal.pipeline.layout<constants = 1, bindings = [
  #hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">,
  #hal.pipeline.binding<storage_buffer, Indirect>
], flags = Indirect>
hal.executable private @ex {
  hal.executable.variant public @arm_64 target(#executable_target_arm_64) {
    hal.executable.export public @entry ordinal(0) layout(#pipeline_layout) count(%arg0: !hal.device, %arg1: index, %arg2: index) -> (index, index, index) {
      %x, %y, %z = iree_tensor_ext.dispatch.workgroup_count_from_slice(%arg1, %arg2)
      hal.return %x, %y, %z : index, index, index
    }
    builtin.module {
      func.func @entry() {
        %0 = hal.interface.constant.load layout(#pipeline_layout) ordinal(0) : i32
        return
      }
    }
  }
  hal.executable.variant @x86_64 target(#executable_target_x86_64) attributes {note = "external"} {
    hal.executable.export @entry layout(#pipeline_layout)
  }
}
hal.executable lazy @lazy_ex {
}

// -----

// Fences at the ABI: barriers, aliases into caller storage, device lookups.

// CHECK-LABEL: util.func private @fences(
util.func private @fences(%a: tensor<4xf32>, %b: tensor<?xf32>, %n: index, %f: !hal.fence, %buf: !hal.buffer) -> (tensor<4xf32>, tensor<?xf32>, i32) {
  // CHECK: %{{.+}}:2 = hal.tensor.barrier join(%{{.+}}, %{{.+}} : tensor<4xf32>, tensor<?xf32>) => %{{.+}} : !hal.fence
  %0:2 = hal.tensor.barrier join(%a, %b : tensor<4xf32>, tensor<?xf32>) => %f : !hal.fence
  // CHECK: hal.tensor.alias wait(%{{.+}}) => %{{.+}}#1 : tensor<?xf32>{%{{.+}}} to %{{.+}} : !hal.buffer
  %1 = hal.tensor.alias wait(%f) => %0#1 : tensor<?xf32>{%n} to %buf : !hal.buffer
  // CHECK: hal.tensor.alias on(#hal.device.promise<@dev_a>) %{{.+}} : tensor<4xf32> to %{{.+}} : !hal.buffer
  %2 = hal.tensor.alias on(#hal.device.promise<@dev_a>) %a : tensor<4xf32> to %buf : !hal.buffer
  // CHECK: hal.fence.signal<%{{.+}} : !hal.fence>
  hal.fence.signal<%f : !hal.fence>
  %c0 = arith.constant 0 : index
  // CHECK: hal.devices.get %{{.+}} : !hal.device
  %d = hal.devices.get %c0 : !hal.device
  // CHECK: hal.device.resolve on(#hal.device.affinity<@dev_c>) : !hal.device
  %d2 = hal.device.resolve on(#hal.device.affinity<@dev_c>) : !hal.device
  // CHECK: hal.fence.create device(%{{.+}} : !hal.device) flags("None") : !hal.fence
  %w = hal.fence.create device(%d : !hal.device) flags("None") : !hal.fence
  %t = arith.constant -1 : i32
  // CHECK: hal.fence.await until([%{{.+}}, %{{.+}}]) timeout_millis(%{{.+}}) flags("None") : i32
  %s = hal.fence.await until([%w, %f]) timeout_millis(%t) flags("None") : i32
  util.return %0#0, %1, %s : tensor<4xf32>, tensor<?xf32>, i32
}

// -----

// Executable sources, written before any target is known: exports (with and
// without a workgroup count) and an optional module; the implicit
// `hal.executable.source_end` is not printed, a missing visibility reads public.
// CHECK-LABEL: hal.executable.source public @src attributes {note = "by hand"} {
// CHECK-NEXT:    hal.executable.export public @entry ordinal(0) layout(#pipeline_layout) count(%arg0: !hal.device, %arg1: index) -> (index, index, index) {
// CHECK-NEXT:      %x, %y, %z = iree_tensor_ext.dispatch.workgroup_count_from_slice(%arg1)
// CHECK-NEXT:      hal.return %x, %y, %z : index, index, index
// CHECK-NEXT:    }
// CHECK-NEXT:    builtin.module {
// CHECK-NEXT:      func.func @entry() {
// CHECK-NEXT:        return
// CHECK-NEXT:      }
// CHECK-NEXT:    }
// CHECK-NEXT:  }
// CHECK-NEXT:  hal.executable.source private @external_src {
// CHECK-NEXT:    hal.executable.export public @entry layout(#pipeline_layout)
// CHECK-NEXT:  }
#pipeline_layout = #hal.pipeline.layout<bindings = [#hal.pipeline.binding<storage_buffer>]>
hal.executable.source @src attributes {note = "by hand"} {
  hal.executable.export public @entry ordinal(0) layout(#pipeline_layout) count(%arg0: !hal.device, %arg1: index) -> (index, index, index) {
    %x, %y, %z = iree_tensor_ext.dispatch.workgroup_count_from_slice(%arg1)
    hal.return %x, %y, %z : index, index, index
  }
  builtin.module {
    func.func @entry() {
      return
    }
  }
}
hal.executable.source private @external_src {
  hal.executable.export @entry layout(#pipeline_layout)
}
