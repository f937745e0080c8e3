// RUN: mini-iree-opt %s -p 'iree-stream-conversion{async-cast=true}' --split-input-file | filecheck %s

// IREE 3.13's own IR between dispatch formation and stream conversion: its
// entry-point wrapping puts compute barriers on the inputs and results
// (iree-dispatch-creation-insert-tensor-barriers), which IREE removes before
// converting; a barrier forwards its operand, and a `tensor.dim` of a barrier is
// the dim the import carries, under that value's own name.

#executable_target = #hal.executable.target<"llvm-cpu", "embedded-elf-x86_64", {}>
module attributes {stream.affinity.default = #hal.device.affinity<@__device_0>} {
  util.global private @__device_0 = #hal.device.target<"local", [#executable_target]> : !hal.device
  flow.executable private @ex {
    flow.executable.export public @double workgroups(%arg0: index) -> (index, index, index) {
      %x, %y, %z = iree_tensor_ext.dispatch.workgroup_count_from_slice(%arg0)
      flow.return %x, %y, %z : index, index, index
    }
    builtin.module {
      func.func @double(%arg0: !iree_tensor_ext.dispatch.tensor<readonly:tensor<?x4xf32>>, %arg1: index, %arg2: !iree_tensor_ext.dispatch.tensor<writeonly:tensor<?x4xf32>>) {
        %0 = iree_tensor_ext.dispatch.workload.ordinal %arg1, 0 : index
        %1 = flow.dispatch.tie_shape %arg0 : !iree_tensor_ext.dispatch.tensor<readonly:tensor<?x4xf32>>{%0}
        %2 = flow.dispatch.tie_shape %arg2 : !iree_tensor_ext.dispatch.tensor<writeonly:tensor<?x4xf32>>{%0}
        %3 = iree_tensor_ext.dispatch.tensor.load %1, offsets = [0, 0], sizes = [%0, 4], strides = [1, 1] : !iree_tensor_ext.dispatch.tensor<readonly:tensor<?x4xf32>>{%0} -> tensor<?x4xf32>
        %4 = tensor.empty(%0) : tensor<?x4xf32>
        %5 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%3 : tensor<?x4xf32>) outs(%4 : tensor<?x4xf32>) {
        ^bb0(%in: f32, %out: f32):
          %6 = arith.addf %in, %in : f32
          linalg.yield %6 : f32
        } -> tensor<?x4xf32>
        iree_tensor_ext.dispatch.tensor.store %5, %2, offsets = [0, 0], sizes = [%0, 4], strides = [1, 1] : tensor<?x4xf32> -> !iree_tensor_ext.dispatch.tensor<writeonly:tensor<?x4xf32>>{%0}
        return
      }
    }
  }
  util.func public @barriers(%arg0: !hal.buffer_view) -> !hal.buffer_view attributes {iree.abi.stub, iree.reflection = {iree.abi.declaration = "sync func @barriers(%input0: tensor<?x4xf32>) -> (%output0: tensor<?x4xf32>)"}} {
    %0 = hal.buffer_view.dim<%arg0 : !hal.buffer_view>[0] : index
    %1 = hal.tensor.import %arg0 "input0" : !hal.buffer_view -> tensor<?x4xf32>{%0}
    %2 = iree_tensor_ext.compute_barrier.start %1 : tensor<?x4xf32>{%0} -> tensor<?x4xf32>
    %c0 = arith.constant 0 : index
    %dim = tensor.dim %2, %c0 : tensor<?x4xf32>
    %3 = flow.dispatch @ex::@double[%dim](%2, %dim) : (tensor<?x4xf32>{%dim}, index) -> tensor<?x4xf32>{%dim}
    %4 = iree_tensor_ext.compute_barrier.end %3 : tensor<?x4xf32>{%dim} -> tensor<?x4xf32>
    %5 = hal.tensor.export %4 "output0" : tensor<?x4xf32>{%dim} -> !hal.buffer_view
    util.return %5 : !hal.buffer_view
  }
}
// CHECK-LABEL: util.func public @barriers(
// CHECK-SAME:      %[[ARG:.+]]: !hal.buffer_view) -> !hal.buffer_view attributes {iree.abi.stub, iree.reflection = {iree.abi.declaration = "sync func @barriers(%input0: tensor<?x4xf32>) -> (%output0: tensor<?x4xf32>)"}} {
// CHECK-NEXT:    %[[D:[0-9]+]] = hal.buffer_view.dim<%[[ARG]] : !hal.buffer_view>[0] : index
// CHECK:         %[[SIZE:.+]] = stream.tensor.sizeof on(#hal.device.affinity<@__device_0>) tensor<?x4xf32>{%[[D]]} : index
// CHECK-NEXT:    %[[IMP:.+]] = stream.tensor.import on(#hal.device.affinity<@__device_0>) %[[ARG]] : !hal.buffer_view -> tensor<?x4xf32>{%[[D]]} in !stream.resource<external>{%[[SIZE]]}
// CHECK-NEXT:    %[[IN:.+]] = stream.async.cast on(#hal.device.affinity<@__device_0>) %[[IMP]] : !stream.resource<external>{%[[SIZE]]} -> !stream.resource<*>{%[[SIZE]]}
// CHECK-NOT:     compute_barrier
// CHECK:         %[[RSIZE:.+]] = stream.tensor.sizeof on(#hal.device.affinity<@__device_0>) tensor<?x4xf32>{%[[D]]} : index
// CHECK-NEXT:    %[[R:.+]] = stream.tensor.dispatch on(#hal.device.affinity<@__device_0>) @ex::@double[%[[D]]](%[[IN]], %[[D]]) : (tensor<?x4xf32>{%[[D]]} in !stream.resource<*>{%[[SIZE]]}, index) -> tensor<?x4xf32>{%[[D]]} in !stream.resource<*>{%[[RSIZE]]}
// CHECK-NEXT:    %[[OUT:.+]] = stream.async.cast on(#hal.device.affinity<@__device_0>) %[[R]] : !stream.resource<*>{%[[RSIZE]]} -> !stream.resource<external>{%[[RSIZE]]}
// CHECK-NEXT:    %[[EXP:.+]] = stream.tensor.export on(#hal.device.affinity<@__device_0>) %[[OUT]] : tensor<?x4xf32>{%[[D]]} in !stream.resource<external>{%[[RSIZE]]} -> !hal.buffer_view
// CHECK-NEXT:    util.return %[[EXP]] : !hal.buffer_view

// -----

// An executable may export a `util.func` (IREE converts every public function of
// the executable's module): its dispatch tensors become bindings, as IREE 3.13
// prints them.

module attributes {stream.affinity.default = #hal.device.affinity<@__device_0>} {
  util.global private @__device_0 = #hal.device.target<"local", [#hal.executable.target<"llvm-cpu", "embedded-elf-x86_64">]> : !hal.device
  flow.executable private @ex {
    flow.executable.export public @entry workgroups(%arg0: index) -> (index, index, index) {
      %x, %y, %z = iree_tensor_ext.dispatch.workgroup_count_from_slice(%arg0)
      flow.return %x, %y, %z : index, index, index
    }
    builtin.module {
      util.func public @entry(%arg0: !iree_tensor_ext.dispatch.tensor<readonly:tensor<?xf32>>, %arg1: index, %arg2: !iree_tensor_ext.dispatch.tensor<writeonly:tensor<?xf32>>) {
        %0 = iree_tensor_ext.dispatch.workload.ordinal %arg1, 0 : index
        %1 = flow.dispatch.tie_shape %arg0 : !iree_tensor_ext.dispatch.tensor<readonly:tensor<?xf32>>{%0}
        %2 = flow.dispatch.tie_shape %arg2 : !iree_tensor_ext.dispatch.tensor<writeonly:tensor<?xf32>>{%0}
        %3 = iree_tensor_ext.dispatch.tensor.load %1, offsets = [0], sizes = [%0], strides = [1] : !iree_tensor_ext.dispatch.tensor<readonly:tensor<?xf32>>{%0} -> tensor<?xf32>
        iree_tensor_ext.dispatch.tensor.store %3, %2, offsets = [0], sizes = [%0], strides = [1] : tensor<?xf32> -> !iree_tensor_ext.dispatch.tensor<writeonly:tensor<?xf32>>{%0}
        util.return
      }
    }
  }
  util.func public @util_func_entry_point(%arg0: !hal.buffer_view) -> !hal.buffer_view {
    %n = hal.buffer_view.dim<%arg0 : !hal.buffer_view>[0] : index
    %t = hal.tensor.import %arg0 "input0" : !hal.buffer_view -> tensor<?xf32>{%n}
    %r = flow.dispatch @ex::@entry[%n](%t, %n) : (tensor<?xf32>{%n}, index) -> tensor<?xf32>{%n}
    %v = hal.tensor.export %r "output0" : tensor<?xf32>{%n} -> !hal.buffer_view
    util.return %v : !hal.buffer_view
  }
}
// CHECK-LABEL: stream.executable private @ex {
// CHECK:         builtin.module {
// CHECK-NEXT:      util.func public @entry(%[[B0:.+]]: !stream.binding, %[[N:.+]]: index, %[[B1:.+]]: !stream.binding) {
// CHECK-NEXT:        %[[C0:.+]] = arith.constant 0 : index
// CHECK-NEXT:        %[[W:.+]] = iree_tensor_ext.dispatch.workload.ordinal %[[N]], 0 : index
// CHECK-NEXT:        %[[IN:.+]] = stream.binding.subspan %[[B0]][%[[C0]]] : !stream.binding -> !iree_tensor_ext.dispatch.tensor<readonly:tensor<?xf32>>{%[[W]]}
// CHECK-NEXT:        %[[OUT:.+]] = stream.binding.subspan %[[B1]][%[[C0]]] : !stream.binding -> !iree_tensor_ext.dispatch.tensor<writeonly:tensor<?xf32>>{%[[W]]}
// CHECK-NEXT:        %[[V:.+]] = iree_tensor_ext.dispatch.tensor.load %[[IN]], offsets = [0], sizes = [%[[W]]], strides = [1] : !iree_tensor_ext.dispatch.tensor<readonly:tensor<?xf32>>{%[[W]]} -> tensor<?xf32>
// CHECK-NEXT:        iree_tensor_ext.dispatch.tensor.store %[[V]], %[[OUT]], offsets = [0], sizes = [%[[W]]], strides = [1] : tensor<?xf32> -> !iree_tensor_ext.dispatch.tensor<writeonly:tensor<?xf32>>{%[[W]]}
// CHECK-NEXT:        util.return
// CHECK-LABEL: util.func public @util_func_entry_point(
// CHECK:         stream.tensor.dispatch on(#hal.device.affinity<@__device_0>) @ex::@entry[

// -----

// `flow.tensor.alloca` is sized and allocated uninitialized, as IREE 3.13
// converts it.

module attributes {stream.affinity.default = #hal.device.affinity<@__device_0>} {
  util.global private @__device_0 = #hal.device.target<"local", [#hal.executable.target<"llvm-cpu", "embedded-elf-x86_64">]> : !hal.device
  util.func public @alloca(%arg0: index) -> !hal.buffer_view {
    %0 = flow.tensor.alloca : tensor<?x4xf32>{%arg0}
    %1 = hal.tensor.export %0 "output0" : tensor<?x4xf32>{%arg0} -> !hal.buffer_view
    util.return %1 : !hal.buffer_view
  }
}
// CHECK-LABEL: util.func public @alloca(
// CHECK-SAME:      %[[N:.+]]: index) -> !hal.buffer_view {
// CHECK-NEXT:    %[[SIZE:.+]] = stream.tensor.sizeof on(#hal.device.affinity<@__device_0>) tensor<?x4xf32>{%[[N]]} : index
// CHECK-NEXT:    %[[A:.+]] = stream.async.alloca on(#hal.device.affinity<@__device_0>) : !stream.resource<*>{%[[SIZE]]}
// CHECK-NEXT:    %[[EXT:.+]] = stream.async.cast on(#hal.device.affinity<@__device_0>) %[[A]] : !stream.resource<*>{%[[SIZE]]} -> !stream.resource<external>{%[[SIZE]]}
// CHECK-NEXT:    stream.tensor.export on(#hal.device.affinity<@__device_0>) %[[EXT]] : tensor<?x4xf32>{%[[N]]} in !stream.resource<external>{%[[SIZE]]} -> !hal.buffer_view

// -----

// `flow.tensor.empty` becomes `stream.tensor.empty` of its size, as IREE 3.13
// prints it (`%empty`); IREE's encode-host-tensors later allocates it.

module attributes {stream.affinity.default = #hal.device.affinity<@__device_0>} {
  util.global private @__device_0 = #hal.device.target<"local", [#hal.executable.target<"llvm-cpu", "embedded-elf-x86_64">]> : !hal.device
  util.func public @empty(%arg0: index) -> !hal.buffer_view {
    %0 = flow.tensor.empty : tensor<?x4xf32>{%arg0}
    %1 = hal.tensor.export %0 "output0" : tensor<?x4xf32>{%arg0} -> !hal.buffer_view
    util.return %1 : !hal.buffer_view
  }
}
// CHECK-LABEL: util.func public @empty(
// CHECK-SAME:      %[[N:.+]]: index) -> !hal.buffer_view {
// CHECK-NEXT:    %[[SIZE:.+]] = stream.tensor.sizeof on(#hal.device.affinity<@__device_0>) tensor<?x4xf32>{%[[N]]} : index
// CHECK-NEXT:    %empty = stream.tensor.empty on(#hal.device.affinity<@__device_0>) : tensor<?x4xf32>{%[[N]]} in !stream.resource<*>{%[[SIZE]]}
// CHECK-NEXT:    %[[EXT:.+]] = stream.async.cast on(#hal.device.affinity<@__device_0>) %empty : !stream.resource<*>{%[[SIZE]]} -> !stream.resource<external>{%[[SIZE]]}
// CHECK-NEXT:    stream.tensor.export on(#hal.device.affinity<@__device_0>) %[[EXT]] : tensor<?x4xf32>{%[[N]]} in !stream.resource<external>{%[[SIZE]]} -> !hal.buffer_view
