// RUN: mini-iree-opt %s -p iree-stream-schedule-allocation | filecheck %s
// RUN: mini-iree-opt %s -p iree-stream-schedule-allocation --verify-each-with-interpreter --interpreter-dynamic-size=5 -o /dev/null 2>&1 | filecheck %s --check-prefix=RESULTS

// Results yielded by a region get their own allocation; the one used only
// inside it (the second dispatch's) is a slice of a packed transient
// allocation, live from its producer (op 1) to its last user (op 2), freed
// after the region. Each dispatch binds its operand `ro` and its result `wo`
// at the allocation's offset.

// RESULTS: pass 'iree-stream-schedule-allocation' kept the results of 1 function

// CHECK-LABEL: util.func public @main
// CHECK:         %[[IMPORT:.+]] = stream.tensor.import
// CHECK:         %[[A:.+]], %[[A_TP:.+]] = stream.resource.alloca uninitialized on(#hal.device.affinity<@__device_0>) : !stream.resource<*>{%1} => !stream.timepoint
// CHECK-NEXT:    %[[B:.+]], %[[B_TP:.+]] = stream.resource.alloca uninitialized on(#hal.device.affinity<@__device_0>) : !stream.resource<external>{%1} => !stream.timepoint
// CHECK-NEXT:    %[[PACK:.+]]:2 = stream.resource.pack on(#hal.device.affinity<@__device_0>) slices({
// CHECK-NEXT:      [1, 2] = %1
// CHECK-NEXT:    }) : index
// CHECK-NEXT:    %[[T:.+]], %[[T_TP:.+]] = stream.resource.alloca uninitialized on(#hal.device.affinity<@__device_0>) : !stream.resource<transient>{%[[PACK]]#0} => !stream.timepoint
// CHECK-NEXT:    %[[JOIN:.+]] = stream.timepoint.join max(%[[A_TP]], %[[B_TP]], %[[T_TP]]) => !stream.timepoint
// CHECK-NEXT:    %[[EXEC:.+]] = stream.cmd.execute on(#hal.device.affinity<@__device_0>) await(%[[JOIN]]) => with(%[[IMPORT]] as %[[IN:.+]]: !stream.resource<external>{%1}, %[[A]] as %[[A_ARG:.+]]: !stream.resource<*>{%1}, %[[B]] as %[[B_ARG:.+]]: !stream.resource<external>{%1}, %[[T]] as %[[T_ARG:.+]]: !stream.resource<transient>{%[[PACK]]#0}) {
// CHECK-NEXT:      stream.cmd.dispatch @ex::@scale[%0](%0 : index) {
// CHECK-NEXT:        ro %[[IN]][%c0 for %1] : !stream.resource<external>{%1},
// CHECK-NEXT:        wo %[[A_ARG]][%[[ZERO:.+]] for %1] : !stream.resource<*>{%1}
// CHECK-NEXT:      }
// CHECK-NEXT:      stream.cmd.dispatch @ex::@scale[%0](%0 : index) {
// CHECK-NEXT:        ro %[[A_ARG]][%c0 for %1] : !stream.resource<*>{%1},
// CHECK-NEXT:        wo %[[T_ARG]][%[[PACK]]#1 for %1] : !stream.resource<transient>{%[[PACK]]#0}
// CHECK-NEXT:      }
// CHECK-NEXT:      stream.cmd.dispatch @ex::@scale[%0](%0 : index) {
// CHECK-NEXT:        ro %[[T_ARG]][%[[PACK]]#1 for %1] : !stream.resource<transient>{%[[PACK]]#0},
// CHECK-NEXT:        wo %[[B_ARG]][%[[ZERO]] for %1] : !stream.resource<external>{%1}
// CHECK-NEXT:      }
// CHECK-NEXT:    } => !stream.timepoint
// CHECK-NEXT:    %[[FREE:.+]] = stream.resource.dealloca on(#hal.device.affinity<@__device_0>) await(%[[EXEC]]) => %[[T]] : !stream.resource<transient>{%[[PACK]]#0} => !stream.timepoint
// CHECK-NEXT:    %[[DONE:.+]] = stream.timepoint.join max(%[[FREE]], %[[EXEC]]) => !stream.timepoint
// CHECK-NEXT:    %[[AW:.+]]:2 = stream.timepoint.await %[[DONE]] => %[[A]], %[[B]] : !stream.resource<*>{%1}, !stream.resource<external>{%1}
// CHECK-NEXT:    stream.tensor.export on(#hal.device.affinity<@__device_0>) %[[AW]]#1
// CHECK:         %[[C:.+]], %[[C_TP:.+]] = stream.resource.alloca uninitialized on(#hal.device.affinity<@__device_0>) : !stream.resource<external>{%1} => !stream.timepoint
// CHECK-NEXT:    stream.cmd.execute on(#hal.device.affinity<@__device_0>) await(%[[C_TP]]) => with(%[[AW]]#0 as %{{.+}}: !stream.resource<*>{%1}, %[[C]] as %{{.+}}: !stream.resource<external>{%1}) {

#executable_target_embedded_elf_x86_64 = #hal.executable.target<"llvm-cpu", "embedded-elf-x86_64">
#device_target_local = #hal.device.target<"local", [#executable_target_embedded_elf_x86_64]> : !hal.device
module @two_dispatches_and_a_host_use attributes {stream.affinity.default = #hal.device.affinity<@__device_0>} {
  util.global private @__device_0 = #device_target_local
  stream.executable private @ex {
    stream.executable.export public @scale workgroups(%arg0: index) -> (index, index, index) {
      %x, %y, %z = iree_tensor_ext.dispatch.workgroup_count_from_slice(%arg0)
      stream.return %x, %y, %z : index, index, index
    }
    builtin.module {
      func.func @scale(%arg0: !stream.binding, %arg1: index, %arg2: !stream.binding) {
        %c0 = arith.constant 0 : index
        %0 = iree_tensor_ext.dispatch.workload.ordinal %arg1, 0 : index
        %1 = stream.binding.subspan %arg0[%c0] : !stream.binding -> !iree_tensor_ext.dispatch.tensor<readonly:tensor<?xf32>>{%0}
        %2 = stream.binding.subspan %arg2[%c0] : !stream.binding -> !iree_tensor_ext.dispatch.tensor<writeonly:tensor<?xf32>>{%0}
        %3 = iree_tensor_ext.dispatch.tensor.load %1, offsets = [0], sizes = [%0], strides = [1] : !iree_tensor_ext.dispatch.tensor<readonly:tensor<?xf32>>{%0} -> tensor<?xf32>
        %4 = linalg.add ins(%3, %3 : tensor<?xf32>, tensor<?xf32>) outs(%3 : tensor<?xf32>) -> tensor<?xf32>
        iree_tensor_ext.dispatch.tensor.store %4, %2, offsets = [0], sizes = [%0], strides = [1] : tensor<?xf32> -> !iree_tensor_ext.dispatch.tensor<writeonly:tensor<?xf32>>{%0}
        return
      }
    }
  }
  util.func public @main(%arg0: !hal.buffer_view) -> (!hal.buffer_view, !hal.buffer_view) {
    %c0 = arith.constant 0 : index
    %c4 = arith.constant 4 : index
    %0 = hal.buffer_view.dim<%arg0 : !hal.buffer_view>[0] : index
    %1 = arith.muli %0, %c4 : index
    %2 = stream.tensor.import on(#hal.device.affinity<@__device_0>) %arg0 : !hal.buffer_view -> tensor<?xf32>{%0} in !stream.resource<external>{%1}
    %results, %results_0, %result_timepoint = stream.async.execute on(#hal.device.affinity<@__device_0>) with(%2 as %arg0_3: !stream.resource<external>{%1}) -> (!stream.resource<*>{%1}, !stream.resource<external>{%1}) {
      %7 = stream.async.dispatch on(#hal.device.affinity<@__device_0>) @ex::@scale[%0](%arg0_3[%c0 to %1 for %1], %0) : (!stream.resource<external>{%1}, index) -> !stream.resource<*>{%1}
      %8 = stream.async.dispatch on(#hal.device.affinity<@__device_0>) @ex::@scale[%0](%7[%c0 to %1 for %1], %0) : (!stream.resource<*>{%1}, index) -> !stream.resource<*>{%1}
      %9 = stream.async.dispatch on(#hal.device.affinity<@__device_0>) @ex::@scale[%0](%8[%c0 to %1 for %1], %0) : (!stream.resource<*>{%1}, index) -> !stream.resource<external>{%1}
      stream.yield %7, %9 : !stream.resource<*>{%1}, !stream.resource<external>{%1}
    } => !stream.timepoint
    %3:2 = stream.timepoint.await %result_timepoint => %results, %results_0 : !stream.resource<*>{%1}, !stream.resource<external>{%1}
    %4 = stream.tensor.export on(#hal.device.affinity<@__device_0>) %3#1 : tensor<?xf32>{%0} in !stream.resource<external>{%1} -> !hal.buffer_view
    %results_1, %result_timepoint_2 = stream.async.execute on(#hal.device.affinity<@__device_0>) with(%3#0 as %arg0_3: !stream.resource<*>{%1}) -> !stream.resource<external>{%1} {
      %7 = stream.async.dispatch on(#hal.device.affinity<@__device_0>) @ex::@scale[%0](%arg0_3[%c0 to %1 for %1], %0) : (!stream.resource<*>{%1}, index) -> !stream.resource<external>{%1}
      stream.yield %7 : !stream.resource<external>{%1}
    } => !stream.timepoint
    %5 = stream.timepoint.await %result_timepoint_2 => %results_1 : !stream.resource<external>{%1}
    %6 = stream.tensor.export on(#hal.device.affinity<@__device_0>) %5 : tensor<?xf32>{%0} in !stream.resource<external>{%1} -> !hal.buffer_view
    util.return %4, %6 : !hal.buffer_view, !hal.buffer_view
  }
}
