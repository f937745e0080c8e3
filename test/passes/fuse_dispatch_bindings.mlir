// RUN: mini-iree-opt %s -p iree-stream-fuse-dispatch-bindings | filecheck %s
// RUN: mini-iree-opt %s -p iree-stream-fuse-dispatch-bindings --verify-each-with-interpreter --interpreter-dynamic-size=5 -o /dev/null 2>&1 | filecheck %s --check-prefix=RESULTS

// Both reads of @add are the same resource at both sites: one binding, at
// two offsets passed as the first operands. The written binding stays its own
// (IREE's alias-mutable-bindings=false). Every binding now spans its whole
// resource from offset 0.

// RESULTS: pass 'iree-stream-fuse-dispatch-bindings' kept the results of 1 function

// CHECK-LABEL: func.func @add
// CHECK-SAME:    (%arg0: !stream.binding, %arg1: !stream.binding, %arg2: index, %arg3: index, %arg4: index, %arg5: index) {
// CHECK:         iree_tensor_ext.dispatch.workload.ordinal %arg5, 0 : index
// CHECK-NEXT:    stream.binding.subspan %arg0[%arg2] : !stream.binding
// CHECK-NEXT:    stream.binding.subspan %arg0[%arg3] : !stream.binding
// CHECK-NEXT:    stream.binding.subspan %arg1[%arg4] : !stream.binding
// CHECK-LABEL: util.func public @main
// CHECK:         %[[ZERO:c0_[0-9]+]] = arith.constant 0 : index
// CHECK-NEXT:    stream.cmd.execute
// CHECK-NEXT:      stream.cmd.dispatch @ex::@add[%0](%c0, %c0, %2, %0 : index, index, index, index) {
// CHECK-NEXT:        ro %[[IN:.+]][%[[ZERO]] for %1] : !stream.resource<external>{%1},
// CHECK-NEXT:        wo %[[T:.+]][%[[ZERO]] for %6] : !stream.resource<transient>{%6}
// CHECK-NEXT:      }
// CHECK-NEXT:      stream.cmd.dispatch @ex::@add[%0](%2, %4, %c0, %0 : index, index, index, index) {
// CHECK-NEXT:        ro %[[T]][%[[ZERO]] for %6] : !stream.resource<transient>{%6},
// CHECK-NEXT:        wo %{{.+}}[%[[ZERO]] for %1] : !stream.resource<external>{%1}
// CHECK-NEXT:      }

module @two_slices_of_one_resource attributes {stream.affinity.default = #hal.device.affinity<@__device_0>} {
  util.global private @__device_0 = #hal.device.target<"local", [#hal.executable.target<"llvm-cpu", "embedded-elf-x86_64">]> : !hal.device
  stream.executable private @ex {
    stream.executable.export public @add workgroups(%arg0: index) -> (index, index, index) {
      %x, %y, %z = iree_tensor_ext.dispatch.workgroup_count_from_slice(%arg0)
      stream.return %x, %y, %z : index, index, index
    }
    builtin.module {
      func.func @add(%arg0: !stream.binding, %arg1: !stream.binding, %arg2: index, %arg3: !stream.binding) {
        %c0 = arith.constant 0 : index
        %c16 = arith.constant 16 : index
        %0 = iree_tensor_ext.dispatch.workload.ordinal %arg2, 0 : index
        %1 = stream.binding.subspan %arg0[%c0] : !stream.binding -> !iree_tensor_ext.dispatch.tensor<readonly:tensor<?xf32>>{%0}
        %2 = stream.binding.subspan %arg1[%c0] : !stream.binding -> !iree_tensor_ext.dispatch.tensor<readonly:tensor<?xf32>>{%0}
        %3 = stream.binding.subspan %arg3[%c0] : !stream.binding -> !iree_tensor_ext.dispatch.tensor<writeonly:tensor<?xf32>>{%0}
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
    %8 = stream.cmd.execute on(#hal.device.affinity<@__device_0>) await(%7) => with(%3 as %arg1: !stream.resource<external>{%1}, %result as %arg2: !stream.resource<transient>{%6}, %result_0 as %arg3: !stream.resource<external>{%1}) {
      stream.cmd.dispatch @ex::@add[%0](%0 : index) {
        ro %arg1[%c0 for %1] : !stream.resource<external>{%1},
        ro %arg1[%c0 for %1] : !stream.resource<external>{%1},
        wo %arg2[%2 for %1] : !stream.resource<transient>{%6}
      }
      stream.cmd.dispatch @ex::@add[%0](%0 : index) {
        ro %arg2[%2 for %1] : !stream.resource<transient>{%6},
        ro %arg2[%4 for %1] : !stream.resource<transient>{%6},
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
