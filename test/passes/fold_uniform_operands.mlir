// RUN: mini-iree-opt %s --split-input-file -p iree-stream-fold-uniform-operands | filecheck %s
// RUN: mini-iree-opt %s --split-input-file -p "iree-stream-fold-uniform-operands{era=3.13}" | filecheck %s --check-prefix=ERA313
// RUN: mini-iree-opt %s --split-input-file -p iree-stream-fold-uniform-operands --mlir-print-debuginfo --mlir-print-local-scope | filecheck %s --check-prefix=LOC

// Operands repeated at every dispatch site are passed once: the encode dispatch
// of walkthrough dump 19 passes (M, K, M, K); the function keeps M and K.

// CHECK-LABEL: module @duplicates_at_every_site
// CHECK:      func.func @fn(%arg0: !stream.binding, %arg1: index, %arg2: index, %arg3: !stream.binding) {
// CHECK-NEXT:   util.optimization_barrier %arg1, %arg2, %arg1, %arg2 : index, index, index, index
// CHECK:      util.func public @main
// CHECK:        stream.async.dispatch @ex::@fn[%0, %1, %0, %1](%arg2[%c0 to %arg3 for %arg3], %0, %1) : (!stream.resource<*>{%arg3}, index, index) -> !stream.resource<*>{%arg3}
// CHECK:        stream.async.dispatch @ex::@fn[%1, %0, %1, %0](%arg2[%c0 to %arg3 for %arg3], %1, %0) : (!stream.resource<*>{%arg3}, index, index) -> !stream.resource<*>{%arg3}
module @duplicates_at_every_site {
  stream.executable private @ex {
    stream.executable.export public @fn workgroups(%arg0: index, %arg1: index, %arg2: index, %arg3: index) -> (index, index, index) {
      stream.return %arg0, %arg1, %arg2 : index, index, index
    }
    builtin.module {
      func.func @fn(%arg0: !stream.binding, %arg1: index, %arg2: index, %arg3: index, %arg4: index, %arg5: !stream.binding) {
        %0:4 = util.optimization_barrier %arg1, %arg2, %arg3, %arg4 : index, index, index, index
        return
      }
    }
  }
  util.func public @main(%arg0: !hal.buffer_view, %arg1: !hal.buffer_view, %arg2: !stream.resource<*>, %arg3: index) -> (!stream.resource<*>, !stream.resource<*>) {
    %c0 = arith.constant 0 : index
    %0 = hal.buffer_view.dim<%arg0 : !hal.buffer_view>[0] : index
    %1 = hal.buffer_view.dim<%arg1 : !hal.buffer_view>[0] : index
    %2 = stream.async.dispatch @ex::@fn[%0, %1, %0, %1](%arg2[%c0 to %arg3 for %arg3], %0, %1, %0, %1) : (!stream.resource<*>{%arg3}, index, index, index, index) -> !stream.resource<*>{%arg3}
    %3 = stream.async.dispatch @ex::@fn[%1, %0, %1, %0](%arg2[%c0 to %arg3 for %arg3], %1, %0, %1, %0) : (!stream.resource<*>{%arg3}, index, index, index, index) -> !stream.resource<*>{%arg3}
    util.return %2, %3 : !stream.resource<*>, !stream.resource<*>
  }
}

// -----

// A repeat at one site only is not uniform: both operands stay.

// CHECK-LABEL: module @duplicate_at_one_site_only
// CHECK:      func.func @fn(%arg0: index, %arg1: index, %arg2: !stream.binding) {
// CHECK:        stream.async.dispatch @ex::@fn(%0, %0) : (index, index)
// CHECK:        stream.async.dispatch @ex::@fn(%0, %1) : (index, index)
module @duplicate_at_one_site_only {
  stream.executable private @ex {
    stream.executable.export public @fn workgroups() -> (index, index, index) {
      %c1 = arith.constant 1 : index
      stream.return %c1, %c1, %c1 : index, index, index
    }
    builtin.module {
      func.func @fn(%arg0: index, %arg1: index, %arg2: !stream.binding) {
        %0:2 = util.optimization_barrier %arg0, %arg1 : index, index
        return
      }
    }
  }
  util.func public @main(%arg0: !hal.buffer_view, %arg1: index) -> (!stream.resource<*>, !stream.resource<*>) {
    %0 = hal.buffer_view.dim<%arg0 : !hal.buffer_view>[0] : index
    %1 = hal.buffer_view.dim<%arg0 : !hal.buffer_view>[1] : index
    %2 = stream.async.dispatch @ex::@fn(%0, %0) : (index, index) -> !stream.resource<*>{%arg1}
    %3 = stream.async.dispatch @ex::@fn(%0, %1) : (index, index) -> !stream.resource<*>{%arg1}
    util.return %2, %3 : !stream.resource<*>, !stream.resource<*>
  }
}

// -----

// IREE's example: a constant equal at every site moves into the function (at
// its top, located where the host's constants are); one that differs stays.
// i32 words (what pack-dispatch-operands leaves) fold the same way.

// CHECK-LABEL: module @uniform_constants
// CHECK:      func.func @fn(%arg0: index, %arg1: i32, %arg2: !stream.binding) {
// CHECK-NEXT:   %c1 = arith.constant 1 : index
// CHECK-NEXT:   %c7_i32 = arith.constant 7 : i32
// CHECK-NEXT:   util.optimization_barrier %c1, %arg0, %c7_i32, %arg1 : index, index, i32, i32
// CHECK:        stream.async.dispatch @ex::@fn(%c100, %c5_i32) : (index, i32)
// CHECK:        stream.async.dispatch @ex::@fn(%c101, %c6_i32) : (index, i32)
// LOC-LABEL: module @uniform_constants
// LOC:        func.func @fn(
// LOC-NEXT:   %c1 = arith.constant 1 : index loc(fused["host.mlir":1:1, "host.mlir":2:1])
// LOC-NEXT:   %c7_i32 = arith.constant 7 : i32 loc("host.mlir":3:1)
module @uniform_constants {
  stream.executable private @ex {
    stream.executable.export public @fn workgroups() -> (index, index, index) {
      %c1 = arith.constant 1 : index
      stream.return %c1, %c1, %c1 : index, index, index
    }
    builtin.module {
      func.func @fn(%arg0: index, %arg1: index, %arg2: i32, %arg3: i32, %arg4: !stream.binding) {
        %0:4 = util.optimization_barrier %arg0, %arg1, %arg2, %arg3 : index, index, i32, i32
        return
      }
    }
  }
  util.func public @main(%arg0: index) -> (!stream.resource<*>, !stream.resource<*>) {
    %c1 = arith.constant 1 : index loc("host.mlir":1:1)
    %c1_0 = arith.constant 1 : index loc("host.mlir":2:1)
    %c7_i32 = arith.constant 7 : i32 loc("host.mlir":3:1)
    %c100 = arith.constant 100 : index
    %c101 = arith.constant 101 : index
    %c5_i32 = arith.constant 5 : i32
    %c6_i32 = arith.constant 6 : i32
    %0 = stream.async.dispatch @ex::@fn(%c1, %c100, %c7_i32, %c5_i32) : (index, index, i32, i32) -> !stream.resource<*>{%arg0}
    %1 = stream.async.dispatch @ex::@fn(%c1_0, %c101, %c7_i32, %c6_i32) : (index, index, i32, i32) -> !stream.resource<*>{%arg0}
    util.return %0, %1 : !stream.resource<*>, !stream.resource<*>
  }
}

// -----

// Duplicates go first, so a constant passed twice becomes one constant; tied
// results follow their resource operand; argument attributes of the arguments
// kept stay on them.

// CHECK-LABEL: module @duplicate_constant_tied_result
// CHECK:      func.func @fn(%arg0: !stream.binding, %arg1: index {stream.alignment = 16 : index}) {
// CHECK-NEXT:   %c8 = arith.constant 8 : index
// CHECK-NEXT:   util.optimization_barrier %c8, %c8, %arg1 : index, index, index
// CHECK:        stream.async.dispatch @ex::@fn(%arg0[%c0 to %arg1 for %arg1], %arg1) : (!stream.resource<*>{%arg1}, index) -> %arg0{%arg1}
module @duplicate_constant_tied_result {
  stream.executable private @ex {
    stream.executable.export public @fn workgroups() -> (index, index, index) {
      %c1 = arith.constant 1 : index
      stream.return %c1, %c1, %c1 : index, index, index
    }
    builtin.module {
      func.func @fn(%arg0: index, %arg1: !stream.binding, %arg2: index, %arg3: index {stream.alignment = 16 : index}) {
        %0:3 = util.optimization_barrier %arg0, %arg2, %arg3 : index, index, index
        return
      }
    }
  }
  util.func public @main(%arg0: !stream.resource<*>, %arg1: index) -> !stream.resource<*> {
    %c0 = arith.constant 0 : index
    %c8 = arith.constant 8 : index
    %0 = stream.async.dispatch @ex::@fn(%c8, %arg0[%c0 to %arg1 for %arg1], %c8, %arg1) : (index, !stream.resource<*>{%arg1}, index, index) -> %arg0{%arg1}
    util.return %0 : !stream.resource<*>
  }
}

// -----

// An export nobody dispatches keeps its arguments; so does a float constant
// (IREE folds integer constants only).

// CHECK-LABEL: module @left_alone
// CHECK:      func.func @unused(%arg0: index, %arg1: index) {
// CHECK:      func.func @fn(%arg0: f32, %arg1: !stream.binding) {
// CHECK:        stream.async.dispatch @ex::@fn(%cst) : (f32)
module @left_alone {
  stream.executable private @ex {
    stream.executable.export public @unused workgroups() -> (index, index, index) {
      %c1 = arith.constant 1 : index
      stream.return %c1, %c1, %c1 : index, index, index
    }
    stream.executable.export public @fn workgroups() -> (index, index, index) {
      %c1 = arith.constant 1 : index
      stream.return %c1, %c1, %c1 : index, index, index
    }
    builtin.module {
      func.func @unused(%arg0: index, %arg1: index) {
        return
      }
      func.func @fn(%arg0: f32, %arg1: !stream.binding) {
        return
      }
    }
  }
  util.func public @main(%arg0: index) -> !stream.resource<*> {
    %cst = arith.constant 1.0 : f32
    %0 = stream.async.dispatch @ex::@fn(%cst) : (f32) -> !stream.resource<*>{%arg0}
    util.return %0 : !stream.resource<*>
  }
}

// -----

// IREE 3.13 also drops workload values repeated at every site: the export's
// count region loses the arguments, and the function's workload ordinals are
// renumbered (one whose entry was dropped reads 0, as 3.13 prints it). The
// walkthrough's IREE keeps the workload.

// CHECK-LABEL: module @repeated_workload
// CHECK:      workgroups(%arg0: index, %arg1: index, %arg2: index, %arg3: index)
// CHECK:        iree_tensor_ext.dispatch.workload.ordinal %arg1, 3 : index
// CHECK:      stream.async.dispatch @ex::@fn[%0, %1, %0, %1](%0, %1) : (index, index)
// ERA313-LABEL: module @repeated_workload
// ERA313:      workgroups(%arg0: index, %arg1: index) -> (index, index, index) {
// ERA313-NEXT:   iree_tensor_ext.dispatch.workgroup_count_from_slice(%arg0, %arg1, %arg0, %arg1)
// ERA313:      func.func @fn(%arg0: index, %arg1: index, %arg2: !stream.binding) {
// ERA313-NEXT:   iree_tensor_ext.dispatch.workload.ordinal %arg0, 0 : index
// ERA313-NEXT:   iree_tensor_ext.dispatch.workload.ordinal %arg1, 1 : index
// ERA313-NEXT:   iree_tensor_ext.dispatch.workload.ordinal %arg0, 0 : index
// ERA313-NEXT:   iree_tensor_ext.dispatch.workload.ordinal %arg1, 0 : index
// ERA313:      stream.async.dispatch @ex::@fn[%0, %1](%0, %1) : (index, index)
module @repeated_workload {
  stream.executable private @ex {
    stream.executable.export public @fn workgroups(%arg0: index, %arg1: index, %arg2: index, %arg3: index) -> (index, index, index) {
      %x, %y, %z = iree_tensor_ext.dispatch.workgroup_count_from_slice(%arg0, %arg1, %arg2, %arg3)
      stream.return %x, %y, %z : index, index, index
    }
    builtin.module {
      func.func @fn(%arg0: index, %arg1: index, %arg2: index, %arg3: index, %arg4: !stream.binding) {
        %0 = iree_tensor_ext.dispatch.workload.ordinal %arg0, 0 : index
        %1 = iree_tensor_ext.dispatch.workload.ordinal %arg1, 1 : index
        %2 = iree_tensor_ext.dispatch.workload.ordinal %arg2, 2 : index
        %3 = iree_tensor_ext.dispatch.workload.ordinal %arg3, 3 : index
        return
      }
    }
  }
  util.func public @main(%arg0: !hal.buffer_view, %arg1: index) -> !stream.resource<*> {
    %0 = hal.buffer_view.dim<%arg0 : !hal.buffer_view>[0] : index
    %1 = hal.buffer_view.dim<%arg0 : !hal.buffer_view>[1] : index
    %2 = stream.async.dispatch @ex::@fn[%0, %1, %0, %1](%0, %1, %0, %1) : (index, index, index, index) -> !stream.resource<*>{%arg1}
    util.return %2 : !stream.resource<*>
  }
}

// -----

// stream.cmd.dispatch sites (packed words, CSE'd): the zero words repeat at
// the first site only and no word is the same constant at both sites, so
// every operand stays.

// CHECK-LABEL: module @cmd_dispatch
// CHECK:      func.func @add(%arg0: !stream.binding {stream.alignment = 64 : index}, %arg1: !stream.binding {stream.alignment = 64 : index}, %arg2: i32, %arg3: i32, %arg4: i32, %arg5: i32, %arg6: i32, %arg7: i32, %arg8: i32, %arg9: i32) {
// CHECK:        stream.cmd.dispatch @ex::@add[%0](%c0_i32, %c0_i32, %c0_i32, %c0_i32, %{{.+}}, %{{.+}}, %{{.+}}, %{{.+}} : i32, i32, i32, i32, i32, i32, i32, i32) {
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
