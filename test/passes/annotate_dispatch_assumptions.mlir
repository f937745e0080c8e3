// RUN: mini-iree-opt %s --split-input-file -p iree-stream-annotate-dispatch-assumptions | filecheck %s

// Dimensions read from buffer views are at most 2^53 - 1: every use of the
// argument goes through one `util.assume.int` at the top of the function.

// CHECK-LABEL: module @dynamic_dims
// CHECK:      func.func @fn(%arg0: !stream.binding, %arg1: index, %arg2: index, %arg3: !stream.binding) {
// CHECK-NEXT:   %[[A:.+]]:2 = util.assume.int
// CHECK-NEXT:       %arg1<umin = 0, umax = 9007199254740991>,
// CHECK-NEXT:       %arg2<umin = 0, umax = 9007199254740991>
// CHECK-NEXT:     : index, index
// CHECK-NEXT:   iree_tensor_ext.dispatch.workload.ordinal %[[A]]#0, 0 : index
// CHECK-NEXT:   iree_tensor_ext.dispatch.workload.ordinal %[[A]]#1, 1 : index
module @dynamic_dims {
  stream.executable private @ex {
    stream.executable.export public @fn workgroups(%arg0: index, %arg1: index) -> (index, index, index) {
      stream.return %arg0, %arg1, %arg0 : index, index, index
    }
    builtin.module {
      func.func @fn(%arg0: !stream.binding, %arg1: index, %arg2: index, %arg3: !stream.binding) {
        %0 = iree_tensor_ext.dispatch.workload.ordinal %arg1, 0 : index
        %1 = iree_tensor_ext.dispatch.workload.ordinal %arg2, 1 : index
        return
      }
    }
  }
  util.func public @main(%arg0: !hal.buffer_view, %arg1: !stream.resource<*>, %arg2: index) -> !stream.resource<*> {
    %c0 = arith.constant 0 : index
    %0 = hal.buffer_view.dim<%arg0 : !hal.buffer_view>[0] : index
    %1 = hal.buffer_view.dim<%arg0 : !hal.buffer_view>[1] : index
    %2 = stream.async.dispatch @ex::@fn[%0, %1](%arg1[%c0 to %arg2 for %arg2], %0, %1) : (!stream.resource<*>{%arg2}, index, index) -> !stream.resource<*>{%arg2}
    util.return %2 : !stream.resource<*>
  }
}

// -----

// Sizes computed from dimensions carry a range and a divisor; a constant is
// known exactly.

// CHECK-LABEL: module @sizes_and_constants
// CHECK:      util.assume.int
// CHECK-NEXT:     %arg1<umin = 0, umax = 576460752303423424, udiv = 64>,
// CHECK-NEXT:     %arg2<umin = 0, umax = 9007199254740992, udiv = 8>,
// CHECK-NEXT:     %arg3<umin = 7, umax = 7, udiv = 7>
// CHECK-NEXT:   : index, index, i32
module @sizes_and_constants {
  stream.executable private @ex {
    stream.executable.export public @fn workgroups() -> (index, index, index) {
      %c1 = arith.constant 1 : index
      stream.return %c1, %c1, %c1 : index, index, index
    }
    builtin.module {
      func.func @fn(%arg0: !stream.binding, %arg1: index, %arg2: index, %arg3: i32) {
        return
      }
    }
  }
  util.func public @main(%arg0: !hal.buffer_view, %arg1: !stream.resource<*>, %arg2: index) -> !stream.resource<*> {
    %c0 = arith.constant 0 : index
    %c8 = arith.constant 8 : index
    %c64 = arith.constant 64 : index
    %c7_i32 = arith.constant 7 : i32
    %0 = hal.buffer_view.dim<%arg0 : !hal.buffer_view>[0] : index
    %1 = arith.muli %0, %c64 : index
    %2 = arith.ceildivsi %0, %c8 : index
    %3 = arith.muli %2, %c8 : index
    %4 = stream.async.dispatch @ex::@fn(%arg1[%c0 to %arg2 for %arg2], %1, %3, %c7_i32) : (!stream.resource<*>{%arg2}, index, index, i32) -> !stream.resource<*>{%arg2}
    util.return %4 : !stream.resource<*>
  }
}

// -----

// One assumption per dispatch site; a site that knows nothing gets `<>`.

// CHECK-LABEL: module @two_dispatch_sites
// CHECK:      %[[A:.+]] = util.assume.int %arg1[<umin = 0, umax = 9007199254740991>, <umin = 16, umax = 16, udiv = 16>, <>] : index
module @two_dispatch_sites {
  stream.executable private @ex {
    stream.executable.export public @fn workgroups() -> (index, index, index) {
      %c1 = arith.constant 1 : index
      stream.return %c1, %c1, %c1 : index, index, index
    }
    builtin.module {
      func.func @fn(%arg0: !stream.binding, %arg1: index) {
        return
      }
    }
  }
  util.func public @main(%arg0: !hal.buffer_view, %arg1: !stream.resource<*>, %arg2: index) -> !stream.resource<*> {
    %c0 = arith.constant 0 : index
    %c16 = arith.constant 16 : index
    %0 = hal.buffer_view.dim<%arg0 : !hal.buffer_view>[0] : index
    %1 = stream.async.dispatch @ex::@fn(%arg1[%c0 to %arg2 for %arg2], %0) : (!stream.resource<*>{%arg2}, index) -> %arg1{%arg2}
    %2 = stream.async.dispatch @ex::@fn(%1[%c0 to %arg2 for %arg2], %c16) : (!stream.resource<*>{%arg2}, index) -> %1{%arg2}
    %3 = stream.async.dispatch @ex::@fn(%2[%c0 to %arg2 for %arg2], %arg2) : (!stream.resource<*>{%arg2}, index) -> %2{%arg2}
    util.return %3 : !stream.resource<*>
  }
}

// -----

// Nothing is known about a function argument of the host: no assumption.
// Bindings and float operands are never annotated.

// CHECK-LABEL: module @unknown_operand_left_alone
// CHECK-NOT:  util.assume.int
module @unknown_operand_left_alone {
  stream.executable private @ex {
    stream.executable.export public @fn workgroups() -> (index, index, index) {
      %c1 = arith.constant 1 : index
      stream.return %c1, %c1, %c1 : index, index, index
    }
    builtin.module {
      func.func @fn(%arg0: !stream.binding, %arg1: index, %arg2: f32) {
        return
      }
    }
  }
  util.func public @main(%arg0: !stream.resource<*>, %arg1: index, %arg2: f32) -> !stream.resource<*> {
    %c0 = arith.constant 0 : index
    %0 = stream.async.dispatch @ex::@fn(%arg0[%c0 to %arg1 for %arg1], %arg1, %arg2) : (!stream.resource<*>{%arg1}, index, f32) -> !stream.resource<*>{%arg1}
    util.return %0 : !stream.resource<*>
  }
}

// -----

// stream.cmd.dispatch sites after iree-stream-fuse-dispatch-bindings: the
// resource offsets passed as operands are sums of sizes, 256-byte multiples
// (x * 4 * 64); a zero offset is exactly 0.

// CHECK-LABEL: module @cmd_dispatch
// CHECK:      util.assume.int
// CHECK-NEXT:     %arg2[<umin = 0, umax = 0>, <umin = 0, umax = 2305843009213693696, udiv = 256>],
// CHECK-NEXT:     %arg3[<umin = 0, umax = 0>, <umin = 0, umax = 4611686018427387392, udiv = 256>],
// CHECK-NEXT:     %arg4[<umin = 0, umax = 2305843009213693696, udiv = 256>, <umin = 0, umax = 0>],
// CHECK-NEXT:     %arg5[<umin = 0, umax = 9007199254740991>, <umin = 0, umax = 9007199254740991>]
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
      func.func @add(%arg0: !stream.binding {stream.alignment = 64 : index}, %arg1: !stream.binding {stream.alignment = 64 : index}, %arg2: index, %arg3: index, %arg4: index, %arg5: index) {
        %c0 = arith.constant 0 : index
        %c16 = arith.constant 16 : index
        %0 = iree_tensor_ext.dispatch.workload.ordinal %arg5, 0 : index
        %1 = stream.binding.subspan %arg0[%arg2] : !stream.binding -> !iree_tensor_ext.dispatch.tensor<readonly:tensor<?xf32>>{%0}
        %2 = stream.binding.subspan %arg0[%arg3] : !stream.binding -> !iree_tensor_ext.dispatch.tensor<readonly:tensor<?xf32>>{%0}
        %3 = stream.binding.subspan %arg1[%arg4] : !stream.binding -> !iree_tensor_ext.dispatch.tensor<writeonly:tensor<?xf32>>{%0}
        %4 = iree_tensor_ext.dispatch.tensor.load %1, offsets = [0], sizes = [%0], strides = [1] : !iree_tensor_ext.dispatch.tensor<readonly:tensor<?xf32>>{%0} -> tensor<?xf32>
        %5 = iree_tensor_ext.dispatch.tensor.load %2, offsets = [0], sizes = [%0], strides = [1] : !iree_tensor_ext.dispatch.tensor<readonly:tensor<?xf32>>{%0} -> tensor<?xf32>
        %6 = tensor.empty(%0) : tensor<?xf32>
        %7 = linalg.add ins(%4, %5 : tensor<?xf32>, tensor<?xf32>) outs(%6 : tensor<?xf32>) -> tensor<?xf32>
        iree_tensor_ext.dispatch.tensor.store %7, %3, offsets = [0], sizes = [%0], strides = [1] : tensor<?xf32> -> !iree_tensor_ext.dispatch.tensor<writeonly:tensor<?xf32>>{%0}
        return
      }
    }
  }
  util.func public @main(%arg0: !hal.buffer_view) -> !hal.buffer_view {
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
    %c0_2 = arith.constant 0 : index
    %8 = stream.cmd.execute on(#hal.device.affinity<@__device_0>) await(%7) => with(%3 as %arg1: !stream.resource<external>{%1}, %result as %arg2: !stream.resource<transient>{%6}, %result_0 as %arg3: !stream.resource<external>{%1}) {
      stream.cmd.dispatch @ex::@add[%0](%c0, %c0, %2, %0 : index, index, index, index) {
        ro %arg1[%c0_2 for %1] : !stream.resource<external>{%1},
        wo %arg2[%c0_2 for %6] : !stream.resource<transient>{%6}
      }
      stream.cmd.dispatch @ex::@add[%0](%2, %4, %c0, %0 : index, index, index, index) {
        ro %arg2[%c0_2 for %6] : !stream.resource<transient>{%6},
        wo %arg3[%c0_2 for %1] : !stream.resource<external>{%1}
      }
    } => !stream.timepoint
    %9 = stream.resource.dealloca on(#hal.device.affinity<@__device_0>) await(%8) => %result : !stream.resource<transient>{%6} => !stream.timepoint
    %10 = stream.timepoint.join max(%9, %8) => !stream.timepoint
    %11 = stream.timepoint.await %10 => %result_0 : !stream.resource<external>{%1}
    %12 = stream.tensor.export on(#hal.device.affinity<@__device_0>) %11 : tensor<?xf32>{%0} in !stream.resource<external>{%1} -> !hal.buffer_view
    util.return %12 : !hal.buffer_view
  }
}
