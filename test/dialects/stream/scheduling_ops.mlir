// RUN: mini-iree-opt %s --split-input-file | mini-iree-opt --split-input-file | filecheck %s
// RUN: mini-iree-opt %s --split-input-file --mlir-print-op-generic | mini-iree-opt --split-input-file | filecheck %s

// The async -> cmd scheduling ops as IREE prints them (the host program of the
// walkthrough's matmul after iree-stream-schedule-execution, then after
// iree-stream-schedule-allocation).

// CHECK-LABEL: util.func public @async_execute
// CHECK:         %results, %results_0, %result_timepoint = stream.async.execute on(#hal.device.affinity<@__device_0>) with(%arg0 as %arg2: !stream.resource<external>{%arg1}) -> (!stream.resource<*>{%arg1}, !stream.resource<*>{%arg1}) {
// CHECK-NEXT:      %[[D:.+]] = stream.async.dispatch @ex::@fn(%arg2[%c0 to %arg1 for %arg1]) : (!stream.resource<external>{%arg1}) -> !stream.resource<*>{%arg1}
// CHECK-NEXT:      stream.yield %[[D]], %[[D]] : !stream.resource<*>{%arg1}, !stream.resource<*>{%arg1}
// CHECK-NEXT:    } => !stream.timepoint
// CHECK-NEXT:    %[[R:.+]]:2 = stream.timepoint.await %result_timepoint => %results, %results_0 : !stream.resource<*>{%arg1}, !stream.resource<*>{%arg1}
// CHECK-NEXT:    %[[J:.+]] = stream.timepoint.join max(%result_timepoint, %result_timepoint) => !stream.timepoint
util.func public @async_execute(%arg0: !stream.resource<external>, %arg1: index) -> !stream.resource<*> {
  %c0 = arith.constant 0 : index
  %results:2, %result_timepoint = stream.async.execute on(#hal.device.affinity<@__device_0>) with(%arg0 as %arg2: !stream.resource<external>{%arg1}) -> (!stream.resource<*>{%arg1}, !stream.resource<*>{%arg1}) {
    %0 = stream.async.dispatch @ex::@fn(%arg2[%c0 to %arg1 for %arg1]) : (!stream.resource<external>{%arg1}) -> !stream.resource<*>{%arg1}
    stream.yield %0, %0 : !stream.resource<*>{%arg1}, !stream.resource<*>{%arg1}
  } => !stream.timepoint
  %1:2 = stream.timepoint.await %result_timepoint => %results#0, %results#1 : !stream.resource<*>{%arg1}, !stream.resource<*>{%arg1}
  %2 = stream.timepoint.join max(%result_timepoint, %result_timepoint) => !stream.timepoint
  util.return %1#0 : !stream.resource<*>
}

// -----

// CHECK-LABEL: util.func public @cmd_execute
// CHECK:         %result, %result_timepoint = stream.resource.alloca uninitialized on(#hal.device.affinity<@__device_0>) : !stream.resource<external>{%arg2} => !stream.timepoint
// CHECK-NEXT:    %[[P:.+]]:3 = stream.resource.pack on(#hal.device.affinity<@__device_0>) slices({
// CHECK-NEXT:      [0, 1] = %arg1,
// CHECK-NEXT:      [0, 1] = %arg2
// CHECK-NEXT:    }) : index
// CHECK-NEXT:    %result_0, %result_timepoint_1 = stream.resource.alloca uninitialized on(#hal.device.affinity<@__device_0>) : !stream.resource<transient>{%[[P]]#0} => !stream.timepoint
// CHECK-NEXT:    %[[J:.+]] = stream.timepoint.join max(%result_timepoint, %result_timepoint_1) => !stream.timepoint
// CHECK-NEXT:    %[[E:.+]] = stream.cmd.execute on(#hal.device.affinity<@__device_0>) await(%[[J]]) => with(%arg0 as %arg3: !stream.resource<external>{%arg1}, %result as %arg4: !stream.resource<external>{%arg2}, %result_0 as %arg5: !stream.resource<transient>{%[[P]]#0}) {
// CHECK-NEXT:      stream.cmd.dispatch @ex::@fn[%arg1, %arg2](%arg1, %arg2 : index, index) {
// CHECK-NEXT:        ro %arg3[%c0 for %arg1] : !stream.resource<external>{%arg1},
// CHECK-NEXT:        wo %arg5[%[[P]]#1 for %arg1] : !stream.resource<transient>{%[[P]]#0}
// CHECK-NEXT:      }
// CHECK-NEXT:      stream.cmd.dispatch @ex::@fn2 {
// CHECK-NEXT:        rw %arg4[%c0 for %arg2] : !stream.resource<external>{%arg2}
// CHECK-NEXT:      }
// CHECK-NEXT:    } => !stream.timepoint
// CHECK-NEXT:    %[[D:.+]] = stream.resource.dealloca on(#hal.device.affinity<@__device_0>) await(%[[E]]) => %result_0 : !stream.resource<transient>{%[[P]]#0} => !stream.timepoint
// CHECK-NEXT:    stream.timepoint.await %[[D]] => %result : !stream.resource<external>{%arg2}
util.func public @cmd_execute(%arg0: !stream.resource<external>, %arg1: index, %arg2: index) -> !stream.resource<external> {
  %c0 = arith.constant 0 : index
  %result, %result_timepoint = stream.resource.alloca uninitialized on(#hal.device.affinity<@__device_0>) : !stream.resource<external>{%arg2} => !stream.timepoint
  %0:3 = stream.resource.pack on(#hal.device.affinity<@__device_0>) slices({
    [0, 1] = %arg1,
    [0, 1] = %arg2
  }) : index
  %result_0, %result_timepoint_1 = stream.resource.alloca uninitialized on(#hal.device.affinity<@__device_0>) : !stream.resource<transient>{%0#0} => !stream.timepoint
  %1 = stream.timepoint.join max(%result_timepoint, %result_timepoint_1) => !stream.timepoint
  %2 = stream.cmd.execute on(#hal.device.affinity<@__device_0>) await(%1) => with(%arg0 as %arg3: !stream.resource<external>{%arg1}, %result as %arg4: !stream.resource<external>{%arg2}, %result_0 as %arg5: !stream.resource<transient>{%0#0}) {
    stream.cmd.dispatch @ex::@fn[%arg1, %arg2](%arg1, %arg2 : index, index) {
      ro %arg3[%c0 for %arg1] : !stream.resource<external>{%arg1},
      wo %arg5[%0#1 for %arg1] : !stream.resource<transient>{%0#0}
    }
    stream.cmd.dispatch @ex::@fn2 {
      rw %arg4[%c0 for %arg2] : !stream.resource<external>{%arg2}
    }
  } => !stream.timepoint
  %3 = stream.resource.dealloca on(#hal.device.affinity<@__device_0>) await(%2) => %result_0 : !stream.resource<transient>{%0#0} => !stream.timepoint
  %4 = stream.timepoint.await %3 => %result : !stream.resource<external>{%arg2}
  util.return %4 : !stream.resource<external>
}
