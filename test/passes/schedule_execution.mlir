// RUN: mini-iree-opt %s -p iree-stream-schedule-execution | filecheck %s
// RUN: mini-iree-opt %s -p iree-stream-schedule-execution --verify-each-with-interpreter --interpreter-dynamic-size=5 -o /dev/null 2>&1 | filecheck %s --check-prefix=RESULTS

// Consecutive dispatches on one device form one `stream.async.execute`; the
// resources it uses from outside are captured, the ones used after it are
// yielded and awaited. The export needs the third result on the host, which
// ends the region there: the fourth dispatch gets a region of its own.

// RESULTS: pass 'iree-stream-schedule-execution' kept the results of 1 function

// CHECK-LABEL: util.func public @main
// CHECK:         %[[IMPORT:.+]] = stream.tensor.import
// CHECK-NEXT:    %[[R0:.+]], %[[R1:.+]], %[[TP:.+]] = stream.async.execute on(#hal.device.affinity<@__device_0>) with(%[[IMPORT]] as %[[ARG:.+]]: !stream.resource<external>{%1}) -> (!stream.resource<*>{%1}, !stream.resource<external>{%1}) {
// CHECK-NEXT:      %[[A:.+]] = stream.async.dispatch on(#hal.device.affinity<@__device_0>) @ex::@scale[%0](%[[ARG]][%c0 to %1 for %1], %0)
// CHECK-NEXT:      %[[B:.+]] = stream.async.dispatch on(#hal.device.affinity<@__device_0>) @ex::@scale[%0](%[[A]][%c0 to %1 for %1], %0)
// CHECK-NEXT:      %[[C:.+]] = stream.async.dispatch on(#hal.device.affinity<@__device_0>) @ex::@scale[%0](%[[B]][%c0 to %1 for %1], %0)
// CHECK-NEXT:      stream.yield %[[A]], %[[C]] : !stream.resource<*>{%1}, !stream.resource<external>{%1}
// CHECK-NEXT:    } => !stream.timepoint
// CHECK-NEXT:    %[[AW:.+]]:2 = stream.timepoint.await %[[TP]] => %[[R0]], %[[R1]] : !stream.resource<*>{%1}, !stream.resource<external>{%1}
// CHECK-NEXT:    stream.tensor.export on(#hal.device.affinity<@__device_0>) %[[AW]]#1
// CHECK-NEXT:    %{{.+}}, %[[TP2:.+]] = stream.async.execute on(#hal.device.affinity<@__device_0>) with(%[[AW]]#0 as %[[ARG2:.+]]: !stream.resource<*>{%1}) -> !stream.resource<external>{%1} {
// CHECK-NEXT:      %[[D:.+]] = stream.async.dispatch on(#hal.device.affinity<@__device_0>) @ex::@scale[%0](%[[ARG2]][%c0 to %1 for %1], %0)
// CHECK-NEXT:      stream.yield %[[D]] : !stream.resource<external>{%1}
// CHECK-NEXT:    } => !stream.timepoint
// CHECK-NEXT:    stream.timepoint.await %[[TP2]]
module @two_dispatches_and_a_host_use attributes {stream.affinity.default = #hal.device.affinity<@__device_0>} {
  util.global private @__device_0 = #hal.device.target<"local", [#hal.executable.target<"llvm-cpu", "embedded-elf-x86_64">]> : !hal.device
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
    %3 = stream.async.dispatch on(#hal.device.affinity<@__device_0>) @ex::@scale[%0](%2[%c0 to %1 for %1], %0) : (!stream.resource<external>{%1}, index) -> !stream.resource<*>{%1}
    %4 = stream.async.dispatch on(#hal.device.affinity<@__device_0>) @ex::@scale[%0](%3[%c0 to %1 for %1], %0) : (!stream.resource<*>{%1}, index) -> !stream.resource<*>{%1}
    %5 = stream.async.dispatch on(#hal.device.affinity<@__device_0>) @ex::@scale[%0](%4[%c0 to %1 for %1], %0) : (!stream.resource<*>{%1}, index) -> !stream.resource<external>{%1}
    %6 = stream.tensor.export on(#hal.device.affinity<@__device_0>) %5 : tensor<?xf32>{%0} in !stream.resource<external>{%1} -> !hal.buffer_view
    %7 = stream.async.dispatch on(#hal.device.affinity<@__device_0>) @ex::@scale[%0](%3[%c0 to %1 for %1], %0) : (!stream.resource<*>{%1}, index) -> !stream.resource<external>{%1}
    %8 = stream.tensor.export on(#hal.device.affinity<@__device_0>) %7 : tensor<?xf32>{%0} in !stream.resource<external>{%1} -> !hal.buffer_view
    util.return %6, %8 : !hal.buffer_view, !hal.buffer_view
  }
}
