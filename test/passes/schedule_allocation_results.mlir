// RUN: mini-iree-opt %s -p iree-stream-schedule-allocation | filecheck %s
// RUN: mini-iree-opt %s -p iree-stream-schedule-allocation,iree-stream-layout-slices,canonicalize | filecheck %s --check-prefix=FOLDED
// RUN: mini-iree-opt %s -p iree-stream-schedule-allocation,iree-stream-layout-slices,canonicalize --verify-each-with-interpreter --interpreter-dynamic-size=5 -o /dev/null 2>&1 | filecheck %s --check-prefix=RESULTS

// Two results of one lifetime share one allocation (IREE's createSuballocations):
// a pack of two slices live at once ([0, 0]), one alloca of its total length,
// a subview of it per result, captured by the region and used after it.
// Canonicalization then captures the allocation itself (once), moves each
// subview's offset into the range of the command writing it, and waits on the
// allocation before taking the subviews on the host.

// RESULTS-DAG: pass 'iree-stream-schedule-allocation' kept the results of 1 function
// RESULTS-DAG: pass 'canonicalize' kept the results of 1 function

// CHECK-LABEL: util.func public @main
// CHECK:         %[[IMPORT:.+]] = stream.tensor.import
// CHECK:         %[[PACK:.+]]:3 = stream.resource.pack on(#hal.device.affinity<@__device_0>) slices({
// CHECK-NEXT:      [0, 0] = %1,
// CHECK-NEXT:      [0, 0] = %1
// CHECK-NEXT:    }) : index
// CHECK-NEXT:    %[[SLAB:.+]], %[[SLAB_TP:.+]] = stream.resource.alloca uninitialized on(#hal.device.affinity<@__device_0>) : !stream.resource<external>{%[[PACK]]#0} => !stream.timepoint
// CHECK-NEXT:    %[[A:.+]] = stream.resource.subview %[[SLAB]][%[[PACK]]#1] : !stream.resource<external>{%[[PACK]]#0} -> !stream.resource<external>{%1}
// CHECK-NEXT:    %[[B:.+]] = stream.resource.subview %[[SLAB]][%[[PACK]]#2] : !stream.resource<external>{%[[PACK]]#0} -> !stream.resource<external>{%1}
// CHECK:         stream.cmd.execute {{.+}} with(%[[IMPORT]] as %{{.+}}: !stream.resource<external>{%1}, %[[A]] as %[[A_ARG:.+]]: !stream.resource<external>{%1}, %[[B]] as %[[B_ARG:.+]]: !stream.resource<external>{%1}, %{{.+}})
// CHECK:           wo %[[A_ARG]][%[[ZERO:.+]] for %1] : !stream.resource<external>{%1}
// CHECK:           wo %[[B_ARG]][%[[ZERO]] for %1] : !stream.resource<external>{%1}
// CHECK:         stream.timepoint.await %{{.+}} => %[[A]], %[[B]] :

// FOLDED-LABEL: util.func public @main
// FOLDED:         %[[SLAB:.+]], %{{.+}} = stream.resource.alloca uninitialized on(#hal.device.affinity<@__device_0>) : !stream.resource<external>{%[[TOTAL:.+]]} => !stream.timepoint
// FOLDED-NOT:     stream.resource.subview
// FOLDED:         stream.cmd.execute {{.+}} with(%{{.+}} as %{{.+}}: !stream.resource<external>{%1}, %[[SLAB]] as %[[SLAB_ARG:.+]]: !stream.resource<external>{%[[TOTAL]]}, %{{.+}} as
// FOLDED-NOT:       stream.resource.subview
// FOLDED:           wo %[[SLAB_ARG]][%[[ZERO:.+]] for %1] : !stream.resource<external>{%[[TOTAL]]}
// FOLDED:           wo %[[SLAB_ARG]][%[[OFFSET:.+]] for %1] : !stream.resource<external>{%[[TOTAL]]}
// The host waits on the allocation once, then takes the second result's range of it.
// FOLDED:         %[[AWAITED:.+]] = stream.timepoint.await %{{.+}} => %[[SLAB]] : !stream.resource<external>{%[[TOTAL]]}
// FOLDED-NEXT:    %[[B:.+]] = stream.resource.subview %[[AWAITED]][%[[OFFSET]]] : !stream.resource<external>{%[[TOTAL]]} -> !stream.resource<external>{%1}
// FOLDED-NEXT:    stream.tensor.export on(#hal.device.affinity<@__device_0>) %[[B]]

#executable_target_embedded_elf_x86_64 = #hal.executable.target<"llvm-cpu", "embedded-elf-x86_64">
#device_target_local = #hal.device.target<"local", [#executable_target_embedded_elf_x86_64]> : !hal.device
module @two_results_of_one_lifetime attributes {stream.affinity.default = #hal.device.affinity<@__device_0>} {
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
    %results, %results_0, %result_timepoint = stream.async.execute on(#hal.device.affinity<@__device_0>) with(%2 as %arg0_3: !stream.resource<external>{%1}) -> (!stream.resource<external>{%1}, !stream.resource<external>{%1}) {
      %7 = stream.async.dispatch on(#hal.device.affinity<@__device_0>) @ex::@scale[%0](%arg0_3[%c0 to %1 for %1], %0) : (!stream.resource<external>{%1}, index) -> !stream.resource<external>{%1}
      %8 = stream.async.dispatch on(#hal.device.affinity<@__device_0>) @ex::@scale[%0](%7[%c0 to %1 for %1], %0) : (!stream.resource<external>{%1}, index) -> !stream.resource<*>{%1}
      %9 = stream.async.dispatch on(#hal.device.affinity<@__device_0>) @ex::@scale[%0](%8[%c0 to %1 for %1], %0) : (!stream.resource<*>{%1}, index) -> !stream.resource<external>{%1}
      stream.yield %7, %9 : !stream.resource<external>{%1}, !stream.resource<external>{%1}
    } => !stream.timepoint
    %3:2 = stream.timepoint.await %result_timepoint => %results, %results_0 : !stream.resource<external>{%1}, !stream.resource<external>{%1}
    %4 = stream.tensor.export on(#hal.device.affinity<@__device_0>) %3#1 : tensor<?xf32>{%0} in !stream.resource<external>{%1} -> !hal.buffer_view
    %results_1, %result_timepoint_2 = stream.async.execute on(#hal.device.affinity<@__device_0>) with(%3#0 as %arg0_3: !stream.resource<external>{%1}) -> !stream.resource<external>{%1} {
      %7 = stream.async.dispatch on(#hal.device.affinity<@__device_0>) @ex::@scale[%0](%arg0_3[%c0 to %1 for %1], %0) : (!stream.resource<external>{%1}, index) -> !stream.resource<external>{%1}
      stream.yield %7 : !stream.resource<external>{%1}
    } => !stream.timepoint
    %5 = stream.timepoint.await %result_timepoint_2 => %results_1 : !stream.resource<external>{%1}
    %6 = stream.tensor.export on(#hal.device.affinity<@__device_0>) %5 : tensor<?xf32>{%0} in !stream.resource<external>{%1} -> !hal.buffer_view
    util.return %4, %6 : !hal.buffer_view, !hal.buffer_view
  }
}
