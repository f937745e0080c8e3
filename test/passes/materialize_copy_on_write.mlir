// RUN: mini-iree-opt %s -p iree-stream-materialize-copy-on-write | filecheck %s
// RUN: mini-iree-opt %s -p iree-stream-materialize-copy-on-write --verify-each-with-interpreter --interpreter-dynamic-size=5 -o /dev/null 2>&1 | filecheck %s --check-prefix=RESULTS

// A dispatch updating its operand in place (`-> %x{%size}`) gets a clone of
// an operand it does not own (the caller's imported buffer); the result of
// another dispatch used only by it is updated as it is.

// RESULTS: pass 'iree-stream-materialize-copy-on-write' kept the results of 1 function

// CHECK-LABEL: util.func public @main
// CHECK:         %[[IMPORT:.+]] = stream.tensor.import
// CHECK-NEXT:    %[[CLONE:.+]] = stream.async.clone on(#hal.device.affinity<@__device_0>) %[[IMPORT]] : !stream.resource<external>{%1} -> !stream.resource<external>{%1}
// CHECK-NEXT:    %[[A:.+]] = stream.async.dispatch on(#hal.device.affinity<@__device_0>) @ex::@double[%0](%[[CLONE]][%c0 to %1 for %1], %0) : (!stream.resource<external>{%1}, index) -> %[[CLONE]]{%1}
// CHECK-NEXT:    stream.async.dispatch on(#hal.device.affinity<@__device_0>) @ex::@double[%0](%[[A]][%c0 to %1 for %1], %0) : (!stream.resource<external>{%1}, index) -> %[[A]]{%1}
module @in_place attributes {stream.affinity.default = #hal.device.affinity<@__device_0>} {
  util.global private @__device_0 = #hal.device.target<"local", [#hal.executable.target<"llvm-cpu", "embedded-elf-x86_64">]> : !hal.device
  stream.executable private @ex {
    stream.executable.export public @double workgroups(%arg0: index) -> (index, index, index) {
      %x, %y, %z = iree_tensor_ext.dispatch.workgroup_count_from_slice(%arg0)
      stream.return %x, %y, %z : index, index, index
    }
    builtin.module {
      func.func @double(%arg0: !stream.binding, %arg1: index) {
        %c0 = arith.constant 0 : index
        %0 = iree_tensor_ext.dispatch.workload.ordinal %arg1, 0 : index
        %1 = stream.binding.subspan %arg0[%c0] : !stream.binding -> !iree_tensor_ext.dispatch.tensor<readwrite:tensor<?xf32>>{%0}
        %2 = iree_tensor_ext.dispatch.tensor.load %1, offsets = [0], sizes = [%0], strides = [1] : !iree_tensor_ext.dispatch.tensor<readwrite:tensor<?xf32>>{%0} -> tensor<?xf32>
        %3 = linalg.add ins(%2, %2 : tensor<?xf32>, tensor<?xf32>) outs(%2 : tensor<?xf32>) -> tensor<?xf32>
        iree_tensor_ext.dispatch.tensor.store %3, %1, offsets = [0], sizes = [%0], strides = [1] : tensor<?xf32> -> !iree_tensor_ext.dispatch.tensor<readwrite:tensor<?xf32>>{%0}
        return
      }
    }
  }
  util.func public @main(%arg0: !hal.buffer_view) -> !hal.buffer_view {
    %c0 = arith.constant 0 : index
    %c4 = arith.constant 4 : index
    %0 = hal.buffer_view.dim<%arg0 : !hal.buffer_view>[0] : index
    %1 = arith.muli %0, %c4 : index
    %2 = stream.tensor.import on(#hal.device.affinity<@__device_0>) %arg0 : !hal.buffer_view -> tensor<?xf32>{%0} in !stream.resource<external>{%1}
    %3 = stream.async.dispatch on(#hal.device.affinity<@__device_0>) @ex::@double[%0](%2[%c0 to %1 for %1], %0) : (!stream.resource<external>{%1}, index) -> %2{%1}
    %4 = stream.async.dispatch on(#hal.device.affinity<@__device_0>) @ex::@double[%0](%3[%c0 to %1 for %1], %0) : (!stream.resource<external>{%1}, index) -> %3{%1}
    %5 = stream.tensor.export on(#hal.device.affinity<@__device_0>) %4 : tensor<?xf32>{%0} in !stream.resource<external>{%1} -> !hal.buffer_view
    util.return %5 : !hal.buffer_view
  }
}
