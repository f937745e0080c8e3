// RUN: mini-iree-opt %s --split-input-file -p iree-hal-materialize-interfaces | filecheck %s

// A static dispatch: every resource gets its own binding at offset 0; read-only
// operands are `ReadOnly|Indirect`, the result `Indirect`, and the dispatch names
// the variant's export.

// CHECK: #pipeline_layout = #hal.pipeline.layout<bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>
// CHECK-LABEL: module @static_add
// CHECK:      hal.executable private @ex {
// CHECK-NEXT:   hal.executable.variant public @embedded_elf_x86_64 target(#executable_target_embedded_elf_x86_64) {
// CHECK-NEXT:     hal.executable.export public @add ordinal(0) layout(#pipeline_layout) count(%arg0: !hal.device) -> (index, index, index) {
// CHECK-NEXT:       %x, %y, %z = iree_tensor_ext.dispatch.workgroup_count_from_slice()
// CHECK-NEXT:       hal.return %x, %y, %z : index, index, index
// CHECK-NEXT:     }
// CHECK-NEXT:     builtin.module {
// CHECK-NEXT:       func.func @add() {
// CHECK-NEXT:         %[[C0:.+]] = arith.constant 0 : index
// CHECK-NEXT:         %[[LHS:.+]] = hal.interface.binding.subspan layout(#pipeline_layout) binding(0) alignment(64) offset(%[[C0]]) flags("ReadOnly|Indirect") : !iree_tensor_ext.dispatch.tensor<readonly:tensor<4xf32>>
// CHECK-NEXT:         %[[RHS:.+]] = hal.interface.binding.subspan layout(#pipeline_layout) binding(1) alignment(64) offset(%[[C0]]) flags("ReadOnly|Indirect") : !iree_tensor_ext.dispatch.tensor<readonly:tensor<4xf32>>
// CHECK-NEXT:         %[[OUT:.+]] = hal.interface.binding.subspan layout(#pipeline_layout) binding(2) alignment(64) offset(%[[C0]]) flags(Indirect) : !iree_tensor_ext.dispatch.tensor<writeonly:tensor<4xf32>>
// CHECK-NEXT:         iree_tensor_ext.dispatch.tensor.load %[[LHS]]
// CHECK-NEXT:         iree_tensor_ext.dispatch.tensor.load %[[RHS]]
// CHECK:              iree_tensor_ext.dispatch.tensor.store %{{.+}}, %[[OUT]]
// CHECK-NOT:  stream.executable
// CHECK:      util.func public @add
// CHECK:        stream.async.dispatch on(#hal.device.affinity<@__device_0>) @ex::@embedded_elf_x86_64::@add(
#executable_target_embedded_elf_x86_64 = #hal.executable.target<"llvm-cpu", "embedded-elf-x86_64">
#device_target_local = #hal.device.target<"local", [#executable_target_embedded_elf_x86_64]> : !hal.device
module @static_add attributes {stream.affinity.default = #hal.device.affinity<@__device_0>} {
  util.global private @__device_0 = #device_target_local
  stream.executable private @ex {
    stream.executable.export public @add workgroups() -> (index, index, index) {
      %x, %y, %z = iree_tensor_ext.dispatch.workgroup_count_from_slice()
      stream.return %x, %y, %z : index, index, index
    }
    builtin.module {
      func.func @add(%arg0: !stream.binding, %arg1: !stream.binding, %arg2: !stream.binding) {
        %c0 = arith.constant 0 : index
        %0 = stream.binding.subspan %arg0[%c0] : !stream.binding -> !iree_tensor_ext.dispatch.tensor<readonly:tensor<4xf32>>
        %1 = stream.binding.subspan %arg1[%c0] : !stream.binding -> !iree_tensor_ext.dispatch.tensor<readonly:tensor<4xf32>>
        %2 = stream.binding.subspan %arg2[%c0] : !stream.binding -> !iree_tensor_ext.dispatch.tensor<writeonly:tensor<4xf32>>
        %3 = iree_tensor_ext.dispatch.tensor.load %0, offsets = [0], sizes = [4], strides = [1] : !iree_tensor_ext.dispatch.tensor<readonly:tensor<4xf32>> -> tensor<4xf32>
        %4 = iree_tensor_ext.dispatch.tensor.load %1, offsets = [0], sizes = [4], strides = [1] : !iree_tensor_ext.dispatch.tensor<readonly:tensor<4xf32>> -> tensor<4xf32>
        %5 = tensor.empty() : tensor<4xf32>
        %6 = linalg.add ins(%3, %4 : tensor<4xf32>, tensor<4xf32>) outs(%5 : tensor<4xf32>) -> tensor<4xf32>
        iree_tensor_ext.dispatch.tensor.store %6, %2, offsets = [0], sizes = [4], strides = [1] : tensor<4xf32> -> !iree_tensor_ext.dispatch.tensor<writeonly:tensor<4xf32>>
        return
      }
    }
  }
  util.func public @add(%arg0: !hal.buffer_view, %arg1: !hal.buffer_view) -> !hal.buffer_view {
    %c0 = arith.constant 0 : index
    %c16 = arith.constant 16 : index
    %0 = stream.tensor.import on(#hal.device.affinity<@__device_0>) %arg0 : !hal.buffer_view -> tensor<4xf32> in !stream.resource<external>{%c16}
    %1 = stream.tensor.import on(#hal.device.affinity<@__device_0>) %arg1 : !hal.buffer_view -> tensor<4xf32> in !stream.resource<external>{%c16}
    %2 = stream.async.dispatch on(#hal.device.affinity<@__device_0>) @ex::@add(%0[%c0 to %c16 for %c16], %1[%c0 to %c16 for %c16]) : (!stream.resource<external>{%c16}, !stream.resource<external>{%c16}) -> !stream.resource<external>{%c16}
    %3 = stream.tensor.export on(#hal.device.affinity<@__device_0>) %2 : tensor<4xf32> in !stream.resource<external>{%c16} -> !hal.buffer_view
    util.return %3 : !hal.buffer_view
  }
}

// -----

// A dynamic dispatch after iree-stream-pack-dispatch-operands: each i32
// argument becomes a push constant (ordinals count the non-binding arguments),
// and the subspans keep their offsets and dynamic dims.

// CHECK: #pipeline_layout = #hal.pipeline.layout<constants = 2, bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>
// CHECK-LABEL: module @dynamic_scale
// CHECK:      hal.executable.export public @scale ordinal(0) layout(#pipeline_layout) count(%arg0: !hal.device, %arg1: index) -> (index, index, index) {
// CHECK:      func.func @scale() {
// CHECK-NEXT:   %[[LO:.+]] = hal.interface.constant.load layout(#pipeline_layout) ordinal(0) : i32
// CHECK-NEXT:   %[[HI:.+]] = hal.interface.constant.load layout(#pipeline_layout) ordinal(1) : i32
// CHECK:        arith.extui %[[LO]] : i32 to i64
// CHECK:        arith.extui %[[HI]] : i32 to i64
// CHECK:        %[[N:.+]] = arith.index_castui %{{.+}} : i64 to index
// CHECK:        %[[D:.+]] = iree_tensor_ext.dispatch.workload.ordinal %[[N]], 0 : index
// CHECK-NEXT:   hal.interface.binding.subspan layout(#pipeline_layout) binding(0) alignment(64) offset(%[[C0:[^)]+]]) flags("ReadOnly|Indirect") : !iree_tensor_ext.dispatch.tensor<readonly:tensor<?xf32>>{%[[D]]}
// CHECK-NEXT:   hal.interface.binding.subspan layout(#pipeline_layout) binding(1) alignment(64) offset(%[[C0]]) flags(Indirect) : !iree_tensor_ext.dispatch.tensor<writeonly:tensor<?xf32>>{%[[D]]}
// CHECK:      stream.async.dispatch on(#hal.device.affinity<@__device_0>) @ex::@embedded_elf_x86_64::@scale[%{{.+}}](%{{.+}}, %{{.+}}, %{{.+}}) : (!stream.resource<external>{%{{.+}}}, i32, i32) -> !stream.resource<external>{%{{.+}}}
#executable_target_embedded_elf_x86_64 = #hal.executable.target<"llvm-cpu", "embedded-elf-x86_64">
#device_target_local = #hal.device.target<"local", [#executable_target_embedded_elf_x86_64]> : !hal.device
module @dynamic_scale attributes {stream.affinity.default = #hal.device.affinity<@__device_0>} {
  util.global private @__device_0 = #device_target_local
  stream.executable private @ex {
    stream.executable.export public @scale workgroups(%arg0: index) -> (index, index, index) {
      %x, %y, %z = iree_tensor_ext.dispatch.workgroup_count_from_slice(%arg0)
      stream.return %x, %y, %z : index, index, index
    }
    builtin.module {
      func.func @scale(%arg0: !stream.binding, %arg1: i32, %arg2: i32, %arg3: !stream.binding) {
        %c32_i64 = arith.constant 32 : i64
        %0 = arith.extui %arg1 : i32 to i64
        %1 = arith.extui %arg2 : i32 to i64
        %2 = arith.shli %1, %c32_i64 : i64
        %3 = arith.ori %0, %2 : i64
        %4 = arith.index_castui %3 : i64 to index
        %c0 = arith.constant 0 : index
        %5 = iree_tensor_ext.dispatch.workload.ordinal %4, 0 : index
        %6 = stream.binding.subspan %arg0[%c0] : !stream.binding -> !iree_tensor_ext.dispatch.tensor<readonly:tensor<?xf32>>{%5}
        %7 = stream.binding.subspan %arg3[%c0] : !stream.binding -> !iree_tensor_ext.dispatch.tensor<writeonly:tensor<?xf32>>{%5}
        %8 = iree_tensor_ext.dispatch.tensor.load %6, offsets = [0], sizes = [%5], strides = [1] : !iree_tensor_ext.dispatch.tensor<readonly:tensor<?xf32>>{%5} -> tensor<?xf32>
        %9 = tensor.empty(%5) : tensor<?xf32>
        %10 = linalg.add ins(%8, %8 : tensor<?xf32>, tensor<?xf32>) outs(%9 : tensor<?xf32>) -> tensor<?xf32>
        iree_tensor_ext.dispatch.tensor.store %10, %7, offsets = [0], sizes = [%5], strides = [1] : tensor<?xf32> -> !iree_tensor_ext.dispatch.tensor<writeonly:tensor<?xf32>>{%5}
        return
      }
    }
  }
  util.func public @scale(%arg0: !hal.buffer_view) -> !hal.buffer_view {
    %c0 = arith.constant 0 : index
    %c4 = arith.constant 4 : index
    %c32_i64 = arith.constant 32 : i64
    %0 = hal.buffer_view.dim<%arg0 : !hal.buffer_view>[0] : index
    %1 = arith.muli %0, %c4 : index
    %2 = stream.tensor.import on(#hal.device.affinity<@__device_0>) %arg0 : !hal.buffer_view -> tensor<?xf32>{%0} in !stream.resource<external>{%1}
    %3 = arith.index_castui %0 : index to i64
    %4 = arith.trunci %3 : i64 to i32
    %5 = arith.shrui %3, %c32_i64 : i64
    %6 = arith.trunci %5 : i64 to i32
    %7 = stream.async.dispatch on(#hal.device.affinity<@__device_0>) @ex::@scale[%0](%2[%c0 to %1 for %1], %4, %6) : (!stream.resource<external>{%1}, i32, i32) -> !stream.resource<external>{%1}
    %8 = stream.tensor.export on(#hal.device.affinity<@__device_0>) %7 : tensor<?xf32>{%0} in !stream.resource<external>{%1} -> !hal.buffer_view
    util.return %8 : !hal.buffer_view
  }
}

// -----

// A device with two executable targets: one variant per target, sorted by
// name, each with the export and a copy of the whole inner module; the dispatch
// names both variants.

// CHECK-LABEL: module @two_targets_two_variants
// CHECK:      hal.executable private @ex {
// CHECK-NEXT:   hal.executable.variant public @arm_64 target(#executable_target_arm_64) {
// CHECK-NEXT:     hal.executable.export public @entry ordinal(0) layout(#pipeline_layout) count(%arg0: !hal.device, %arg1: index, %arg2: index) -> (index, index, index) {
// CHECK-NEXT:       hal.return %arg1, %arg2, %arg1 : index, index, index
// CHECK-NEXT:     }
// CHECK-NEXT:     builtin.module {
// CHECK-NEXT:       func.func private @extern_func()
// CHECK-NEXT:       func.func @entry() {
// CHECK-NEXT:         hal.interface.constant.load layout(#pipeline_layout) ordinal(0) : i32
// CHECK:        hal.executable.variant public @x86_64 target(#executable_target_x86_64) {
// CHECK-NEXT:     hal.executable.export public @entry ordinal(0) layout(#pipeline_layout)
// CHECK:            func.func private @extern_func()
// CHECK-NEXT:       func.func @entry() {
// CHECK:      stream.async.dispatch {@ex::@arm_64::@entry, @ex::@x86_64::@entry}[%c1, %c2]
#executable_target_x86_64 = #hal.executable.target<"llvm-cpu", "x86_64">
#executable_target_arm_64 = #hal.executable.target<"llvm-cpu", "arm_64">
#device_target_cpu = #hal.device.target<"cpu", [#executable_target_x86_64, #executable_target_arm_64]> : !hal.device
module @two_targets_two_variants {
  util.global private @default_device = #device_target_cpu
  stream.executable private @ex {
    stream.executable.export public @entry workgroups(%arg0: index, %arg1: index) -> (index, index, index) {
      stream.return %arg0, %arg1, %arg0 : index, index, index
    }
    builtin.module {
      func.func private @extern_func()
      func.func @entry(%operand: i32, %arg0: !stream.binding, %arg1: !stream.binding) {
        return
      }
    }
  }
  util.func public @main(%arg0: !stream.resource<transient>, %arg1: index, %arg2: i32) -> !stream.resource<transient> attributes {stream.affinity = #hal.device.affinity<@default_device>} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %0 = stream.async.dispatch @ex::@entry[%c1, %c2](%arg0[%c0 to %arg1 for %arg1], %arg2) : (!stream.resource<transient>{%arg1}, i32) -> !stream.resource<transient>{%arg1}
    util.return %0 : !stream.resource<transient>
  }
}

// -----

// Variants are made for every device that dispatches the executable; each
// dispatch site names only the variants its own device runs.

// CHECK-LABEL: module @variants_per_device
// CHECK:      hal.executable private @ex {
// CHECK:        hal.executable.variant public @arm_64
// CHECK:        hal.executable.variant public @riscv_32
// CHECK:        hal.executable.variant public @x86_64
// CHECK-LABEL: util.func public @using_default
// CHECK:        stream.async.dispatch {@ex::@arm_64::@entry, @ex::@x86_64::@entry}(
// CHECK-LABEL: util.func public @using_specialized
// CHECK:        stream.async.dispatch @ex::@riscv_32::@entry(
#executable_target_x86_64 = #hal.executable.target<"llvm-cpu", "x86_64">
#executable_target_arm_64 = #hal.executable.target<"llvm-cpu", "arm_64">
#executable_target_riscv_32 = #hal.executable.target<"llvm-cpu", "riscv_32">
module @variants_per_device {
  util.global private @default_device = #hal.device.target<"cpu", [#executable_target_arm_64, #executable_target_x86_64]> : !hal.device
  util.global private @riscv_device = #hal.device.target<"cpu", [#executable_target_riscv_32]> : !hal.device
  stream.executable private @ex {
    stream.executable.export public @entry workgroups() -> (index, index, index) {
      %c1 = arith.constant 1 : index
      stream.return %c1, %c1, %c1 : index, index, index
    }
    builtin.module {
      func.func @entry(%arg0: !stream.binding) {
        return
      }
    }
  }
  util.func public @using_default(%arg0: !stream.resource<transient>, %arg1: index) -> !stream.resource<transient> attributes {stream.affinity = #hal.device.affinity<@default_device>} {
    %c0 = arith.constant 0 : index
    %0 = stream.async.dispatch @ex::@entry(%arg0[%c0 to %arg1 for %arg1]) : (!stream.resource<transient>{%arg1}) -> %arg0{%arg1}
    util.return %0 : !stream.resource<transient>
  }
  util.func public @using_specialized(%arg0: !stream.resource<transient>, %arg1: index) -> !stream.resource<transient> attributes {stream.affinity = #hal.device.affinity<@riscv_device>} {
    %c0 = arith.constant 0 : index
    %0 = stream.async.dispatch @ex::@entry(%arg0[%c0 to %arg1 for %arg1]) : (!stream.resource<transient>{%arg1}) -> %arg0{%arg1}
    util.return %0 : !stream.resource<transient>
  }
}

// -----

// A resource the dispatch updates in place (a tied result) is read-write: no
// `ReadOnly`. A resource loaded from an immutable global is bound directly: no
// `Indirect`.

// CHECK: #pipeline_layout = #hal.pipeline.layout<bindings = [#hal.pipeline.binding<storage_buffer, ReadOnly>, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>
// CHECK-LABEL: module @binding_flags
// CHECK:      hal.interface.binding.subspan layout(#pipeline_layout) binding(0) alignment(64) offset(%{{.+}}) flags(ReadOnly)
// CHECK:      hal.interface.binding.subspan layout(#pipeline_layout) binding(1) alignment(64) offset(%{{.+}}) flags(Indirect)
// CHECK:      stream.async.dispatch @ex::@x86_64::@accumulate(%{{.+}}, %arg0[%c0 to %c16 for %c16]) : (!stream.resource<constant>{%c16}, !stream.resource<external>{%c16}) -> %arg0{%c16}
#executable_target_x86_64 = #hal.executable.target<"llvm-cpu", "x86_64">
module @binding_flags attributes {stream.affinity.default = #hal.device.affinity<@device>} {
  util.global private @device = #hal.device.target<"local", [#executable_target_x86_64]> : !hal.device
  util.global private @weights : !stream.resource<constant>
  stream.executable private @ex {
    stream.executable.export public @accumulate workgroups() -> (index, index, index) {
      %c1 = arith.constant 1 : index
      stream.return %c1, %c1, %c1 : index, index, index
    }
    builtin.module {
      func.func @accumulate(%arg0: !stream.binding, %arg1: !stream.binding) {
        %c0 = arith.constant 0 : index
        %0 = stream.binding.subspan %arg0[%c0] : !stream.binding -> !iree_tensor_ext.dispatch.tensor<readonly:tensor<4xf32>>
        %1 = stream.binding.subspan %arg1[%c0] : !stream.binding -> !iree_tensor_ext.dispatch.tensor<readwrite:tensor<4xf32>>
        return
      }
    }
  }
  util.func public @main(%arg0: !stream.resource<external>) -> !stream.resource<external> {
    %c0 = arith.constant 0 : index
    %c16 = arith.constant 16 : index
    %weights = util.global.load immutable @weights : !stream.resource<constant>
    %0 = stream.async.dispatch @ex::@accumulate(%weights[%c0 to %c16 for %c16], %arg0[%c0 to %c16 for %c16]) : (!stream.resource<constant>{%c16}, !stream.resource<external>{%c16}) -> %arg0{%c16}
    util.return %0 : !stream.resource<external>
  }
}

// -----

// Resources bound at a non-zero offset get the offset's power-of-two
// alignment (what iree-stream-annotate-dispatch-arguments would annotate);
// an explicit `stream.alignment` wins.

// CHECK-LABEL: module @binding_alignment
// CHECK:      hal.interface.binding.subspan layout(#pipeline_layout) binding(0) alignment(16) offset
// CHECK:      hal.interface.binding.subspan layout(#pipeline_layout) binding(1) alignment(256) offset
#executable_target_x86_64 = #hal.executable.target<"llvm-cpu", "x86_64">
module @binding_alignment attributes {stream.affinity.default = #hal.device.affinity<@device>} {
  util.global private @device = #hal.device.target<"local", [#executable_target_x86_64]> : !hal.device
  stream.executable private @ex {
    stream.executable.export public @copy workgroups() -> (index, index, index) {
      %c1 = arith.constant 1 : index
      stream.return %c1, %c1, %c1 : index, index, index
    }
    builtin.module {
      func.func @copy(%arg0: !stream.binding, %arg1: !stream.binding {stream.alignment = 256 : index}) {
        %c0 = arith.constant 0 : index
        %0 = stream.binding.subspan %arg0[%c0] : !stream.binding -> !iree_tensor_ext.dispatch.tensor<readonly:tensor<4xf32>>
        %1 = stream.binding.subspan %arg1[%c0] : !stream.binding -> !iree_tensor_ext.dispatch.tensor<writeonly:tensor<4xf32>>
        return
      }
    }
  }
  util.func public @main(%arg0: !stream.resource<external>) -> !stream.resource<external> {
    %c48 = arith.constant 48 : index
    %c64 = arith.constant 64 : index
    %c16 = arith.constant 16 : index
    %0 = stream.async.dispatch @ex::@copy(%arg0[%c48 to %c64 for %c16]) : (!stream.resource<external>{%c64}) -> !stream.resource<external>{%c16}
    util.return %0 : !stream.resource<external>
  }
}

// -----

// Exports are numbered in source order; IREE creates each at the start of the
// variant, so they print last first. The module keeps its order.

// CHECK-LABEL: module @two_exports
// CHECK:      hal.executable.variant public @x86_64
// CHECK-NEXT:   hal.executable.export public @second ordinal(1)
// CHECK:        hal.executable.export public @first ordinal(0)
// CHECK:        builtin.module {
// CHECK-NEXT:     func.func @first() {
// CHECK:          func.func @second() {
// CHECK:      stream.async.dispatch @ex::@x86_64::@first(
// CHECK:      stream.async.dispatch @ex::@x86_64::@second(
#executable_target_x86_64 = #hal.executable.target<"llvm-cpu", "x86_64">
module @two_exports attributes {stream.affinity.default = #hal.device.affinity<@device>} {
  util.global private @device = #hal.device.target<"local", [#executable_target_x86_64]> : !hal.device
  stream.executable private @ex {
    stream.executable.export public @first workgroups() -> (index, index, index) {
      %c1 = arith.constant 1 : index
      stream.return %c1, %c1, %c1 : index, index, index
    }
    stream.executable.export public @second workgroups() -> (index, index, index) {
      %c1 = arith.constant 1 : index
      stream.return %c1, %c1, %c1 : index, index, index
    }
    builtin.module {
      func.func @first(%arg0: !stream.binding) {
        return
      }
      func.func @second(%arg0: !stream.binding) {
        return
      }
    }
  }
  util.func public @main(%arg0: !stream.resource<*>, %arg1: index) -> !stream.resource<*> {
    %c0 = arith.constant 0 : index
    %0 = stream.async.dispatch @ex::@first(%arg0[%c0 to %arg1 for %arg1]) : (!stream.resource<*>{%arg1}) -> %arg0{%arg1}
    %1 = stream.async.dispatch @ex::@second(%0[%c0 to %arg1 for %arg1]) : (!stream.resource<*>{%arg1}) -> %0{%arg1}
    util.return %1 : !stream.resource<*>
  }
}

// -----

// A public executable may be dispatched from outside the module: it gets a
// variant for every target of every device, and its bindings no flags.

// CHECK: #pipeline_layout = #hal.pipeline.layout<bindings = [#hal.pipeline.binding<storage_buffer>], flags = None>
// CHECK-LABEL: module @public_executable_gets_every_target
// CHECK:      hal.executable public @ex {
// CHECK-NEXT:   hal.executable.variant public @arm_64 target(#executable_target_arm_64) {
// CHECK-NEXT:     hal.executable.export public @entry ordinal(0) layout(#pipeline_layout)
// CHECK:        hal.executable.variant public @x86_64 target(#executable_target_x86_64) {
#executable_target_x86_64 = #hal.executable.target<"llvm-cpu", "x86_64">
#executable_target_arm_64 = #hal.executable.target<"llvm-cpu", "arm_64">
module @public_executable_gets_every_target {
  util.global private @device_a = #hal.device.target<"local", [#executable_target_x86_64]> : !hal.device
  util.global private @device_b = #hal.device.target<"local", [#executable_target_arm_64]> : !hal.device
  stream.executable public @ex {
    stream.executable.export public @entry workgroups() -> (index, index, index) {
      %c1 = arith.constant 1 : index
      stream.return %c1, %c1, %c1 : index, index, index
    }
    builtin.module {
      func.func @entry(%arg0: !stream.binding) {
        return
      }
    }
  }
}

// -----

// An executable nothing dispatches has no target to be compiled for: left alone.

// CHECK-LABEL: module @undispatched_executable_left_alone
// CHECK:      stream.executable private @ex
// CHECK-NOT:  hal.executable
#executable_target_x86_64 = #hal.executable.target<"llvm-cpu", "x86_64">
module @undispatched_executable_left_alone attributes {stream.affinity.default = #hal.device.affinity<@device>} {
  util.global private @device = #hal.device.target<"local", [#executable_target_x86_64]> : !hal.device
  stream.executable private @ex {
    stream.executable.export public @entry workgroups() -> (index, index, index) {
      %c1 = arith.constant 1 : index
      stream.return %c1, %c1, %c1 : index, index, index
    }
    builtin.module {
      func.func @entry(%arg0: !stream.binding) {
        return
      }
    }
  }
}

// -----

// stream.cmd.dispatch sites after fusion: two reads of one resource share
// binding 0 at two offsets; the layout counts the operands left after folding.

// CHECK-LABEL: // -----
// CHECK: #pipeline_layout = #hal.pipeline.layout<constants = 8, bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>
// CHECK-LABEL: module @cmd_dispatch
// CHECK:        hal.interface.binding.subspan layout(#pipeline_layout) binding(0) alignment(64) offset(%{{.+}}#0) flags("ReadOnly|Indirect")
// CHECK-NEXT:   hal.interface.binding.subspan layout(#pipeline_layout) binding(0) alignment(64) offset(%{{.+}}#1) flags("ReadOnly|Indirect")
// CHECK-NEXT:   hal.interface.binding.subspan layout(#pipeline_layout) binding(1) alignment(64) offset(%{{.+}}#2) flags(Indirect)
// CHECK:        stream.cmd.dispatch @ex::@embedded_elf_x86_64::@add[%0](
#executable_target_embedded_elf_x86_64 = #hal.executable.target<"llvm-cpu", "embedded-elf-x86_64">
#device_target_local = #hal.device.target<"local", [#executable_target_embedded_elf_x86_64]> : !hal.device
module @cmd_dispatch attributes {stream.affinity.default = #hal.device.affinity<@__device_0>} {
  util.global private @__device_0 = #device_target_local
  stream.executable private @ex {
    stream.executable.export public @add workgroups(%arg0: index) -> (index, index, index) {
      %x, %y, %z = iree_tensor_ext.dispatch.workgroup_count_from_slice(%arg0)
      stream.return %x, %y, %z : index, index, index
    }
    builtin.module {
      func.func @add(%arg0: !stream.binding {stream.alignment = 64 : index}, %arg1: !stream.binding {stream.alignment = 64 : index}, %arg2: i32, %arg3: i32, %arg4: i32, %arg5: i32, %arg6: i32, %arg7: i32, %arg8: i32, %arg9: i32) {
        %c32_i64 = arith.constant 32 : i64
        %0 = arith.extui %arg2 : i32 to i64
        %1 = arith.extui %arg3 : i32 to i64
        %2 = arith.shli %1, %c32_i64 : i64
        %3 = arith.ori %0, %2 : i64
        %4 = arith.index_castui %3 : i64 to index
        %5 = arith.extui %arg4 : i32 to i64
        %6 = arith.extui %arg5 : i32 to i64
        %7 = arith.shli %6, %c32_i64 : i64
        %8 = arith.ori %5, %7 : i64
        %9 = arith.index_castui %8 : i64 to index
        %10 = arith.extui %arg6 : i32 to i64
        %11 = arith.extui %arg7 : i32 to i64
        %12 = arith.shli %11, %c32_i64 : i64
        %13 = arith.ori %10, %12 : i64
        %14 = arith.index_castui %13 : i64 to index
        %15 = arith.extui %arg8 : i32 to i64
        %16 = arith.extui %arg9 : i32 to i64
        %17 = arith.shli %16, %c32_i64 : i64
        %18 = arith.ori %15, %17 : i64
        %19 = arith.index_castui %18 : i64 to index
        %20:4 = util.assume.int 
            %4[<umin = 0, umax = 0>, <umin = 0, umax = 2305843009213693696, udiv = 256>], 
            %9[<umin = 0, umax = 0>, <umin = 0, umax = 4611686018427387392, udiv = 256>], 
            %14[<umin = 0, umax = 2305843009213693696, udiv = 256>, <umin = 0, umax = 0>], 
            %19<umin = 0, umax = 9007199254740991>
          : index, index, index, index
        %21 = iree_tensor_ext.dispatch.workload.ordinal %20#3, 0 : index
        %22 = stream.binding.subspan %arg0[%20#0] : !stream.binding -> !iree_tensor_ext.dispatch.tensor<readonly:tensor<?xf32>>{%21}
        %23 = stream.binding.subspan %arg0[%20#1] : !stream.binding -> !iree_tensor_ext.dispatch.tensor<readonly:tensor<?xf32>>{%21}
        %24 = stream.binding.subspan %arg1[%20#2] : !stream.binding -> !iree_tensor_ext.dispatch.tensor<writeonly:tensor<?xf32>>{%21}
        %25 = iree_tensor_ext.dispatch.tensor.load %22, offsets = [0], sizes = [%21], strides = [1] : !iree_tensor_ext.dispatch.tensor<readonly:tensor<?xf32>>{%21} -> tensor<?xf32>
        %26 = iree_tensor_ext.dispatch.tensor.load %23, offsets = [0], sizes = [%21], strides = [1] : !iree_tensor_ext.dispatch.tensor<readonly:tensor<?xf32>>{%21} -> tensor<?xf32>
        %27 = tensor.empty(%21) : tensor<?xf32>
        %28 = linalg.add ins(%25, %26 : tensor<?xf32>, tensor<?xf32>) outs(%27 : tensor<?xf32>) -> tensor<?xf32>
        iree_tensor_ext.dispatch.tensor.store %28, %24, offsets = [0], sizes = [%21], strides = [1] : tensor<?xf32> -> !iree_tensor_ext.dispatch.tensor<writeonly:tensor<?xf32>>{%21}
        return
      }
    }
  }
  util.func public @main(%arg0: !hal.buffer_view) -> !hal.buffer_view {
    %c32_i64 = arith.constant 32 : i64
    %c0_i32 = arith.constant 0 : i32
    %c0 = arith.constant 0 : index
    %c16 = arith.constant 16 : index
    %c64 = arith.constant 64 : index
    %c4 = arith.constant 4 : index
    %0 = hal.buffer_view.dim<%arg0 : !hal.buffer_view>[0] : index
    %1 = arith.muli %0, %c4 : index
    %2 = arith.muli %1, %c64 : index
    %3 = stream.tensor.import on(#hal.device.affinity<@__device_0>) %arg0 : !hal.buffer_view -> tensor<?xf32>{%0} in !stream.resource<external>{%1}
    %4 = arith.addi %2, %2 : index
    %5 = arith.addi %4, %c16 : index
    %6 = arith.addi %5, %c64 : index
    %result, %result_timepoint = stream.resource.alloca uninitialized on(#hal.device.affinity<@__device_0>) : !stream.resource<transient>{%6} => !stream.timepoint
    %result_0, %result_timepoint_1 = stream.resource.alloca uninitialized on(#hal.device.affinity<@__device_0>) : !stream.resource<external>{%1} => !stream.timepoint
    %7 = stream.timepoint.join max(%result_timepoint, %result_timepoint_1) => !stream.timepoint
    %8 = stream.cmd.execute on(#hal.device.affinity<@__device_0>) await(%7) => with(%3 as %arg1: !stream.resource<external>{%1}, %result as %arg2: !stream.resource<transient>{%6}, %result_0 as %arg3: !stream.resource<external>{%1}) {
      %13 = arith.index_castui %2 : index to i64
      %14 = arith.trunci %13 : i64 to i32
      %15 = arith.shrui %13, %c32_i64 : i64
      %16 = arith.trunci %15 : i64 to i32
      %17 = arith.index_castui %0 : index to i64
      %18 = arith.trunci %17 : i64 to i32
      %19 = arith.shrui %17, %c32_i64 : i64
      %20 = arith.trunci %19 : i64 to i32
      stream.cmd.dispatch @ex::@add[%0](%c0_i32, %c0_i32, %c0_i32, %c0_i32, %14, %16, %18, %20 : i32, i32, i32, i32, i32, i32, i32, i32) {
        ro %arg1[%c0 for %1] : !stream.resource<external>{%1},
        wo %arg2[%c0 for %6] : !stream.resource<transient>{%6}
      }
      %21 = arith.index_castui %4 : index to i64
      %22 = arith.trunci %21 : i64 to i32
      %23 = arith.shrui %21, %c32_i64 : i64
      %24 = arith.trunci %23 : i64 to i32
      stream.cmd.dispatch @ex::@add[%0](%14, %16, %22, %24, %c0_i32, %c0_i32, %18, %20 : i32, i32, i32, i32, i32, i32, i32, i32) {
        ro %arg2[%c0 for %6] : !stream.resource<transient>{%6},
        wo %arg3[%c0 for %1] : !stream.resource<external>{%1}
      }
    } => !stream.timepoint
    %9 = stream.resource.dealloca on(#hal.device.affinity<@__device_0>) await(%8) => %result : !stream.resource<transient>{%6} => !stream.timepoint
    %10 = stream.timepoint.join max(%9, %8) => !stream.timepoint
    %11 = stream.timepoint.await %10 => %result_0 : !stream.resource<external>{%1}
    %12 = stream.tensor.export on(#hal.device.affinity<@__device_0>) %11 : tensor<?xf32>{%0} in !stream.resource<external>{%1} -> !hal.buffer_view
    util.return %12 : !hal.buffer_view
  }
}
