// RUN: mini-iree-opt %s -p iree-stream-conversion --split-input-file | filecheck %s
// RUN: mini-iree-opt %s -p 'iree-stream-conversion{async-cast=true}' --split-input-file | filecheck %s --check-prefix=CAST

// A static import: the buffer view's shape is asserted with constants; the
// resource goes to the unknown lifetime and back to an external one for export.

module attributes {stream.affinity.default = #hal.device.affinity<@__device_0>} {
  util.global private @__device_0 = #hal.device.target<"local", [#hal.executable.target<"llvm-cpu", "embedded-elf-x86_64", {}>]> : !hal.device
  util.func public @import_export_static(%arg0: !hal.buffer_view) -> !hal.buffer_view {
    %0 = hal.tensor.import %arg0 "input0" : !hal.buffer_view -> tensor<4x8xf32>
    %1 = hal.tensor.export %0 "output0" : tensor<4x8xf32> -> !hal.buffer_view
    util.return %1 : !hal.buffer_view
  }
}
// CHECK-LABEL: util.func public @import_export_static(
// CHECK-SAME:      %[[ARG:[a-zA-Z0-9]+]]: !hal.buffer_view
// CHECK-NEXT:    %[[ET:.+]] = hal.element_type<f32> : i32
// CHECK-NEXT:    %[[ENC:.+]] = hal.encoding_type<dense_row_major> : i32
// CHECK-NEXT:    %[[C4:.+]] = arith.constant 4 : index
// CHECK-NEXT:    %[[C8:.+]] = arith.constant 8 : index
// CHECK-NEXT:    hal.buffer_view.assert<%[[ARG]] : !hal.buffer_view> message("input0") shape([%[[C4]], %[[C8]]]) type(%[[ET]]) encoding(%[[ENC]])
// CHECK-NEXT:    %[[SIZE:.+]] = stream.tensor.sizeof on(#hal.device.affinity<@__device_0>) tensor<4x8xf32> : index
// CHECK-NEXT:    %[[IMP:.+]] = stream.tensor.import on(#hal.device.affinity<@__device_0>) %[[ARG]] : !hal.buffer_view -> tensor<4x8xf32> in !stream.resource<external>{%[[SIZE]]}
// CHECK-NEXT:    %[[T0:.+]] = stream.async.transfer %[[IMP]] : !stream.resource<external>{%[[SIZE]]} from(#hal.device.affinity<@__device_0>) -> to(#hal.device.affinity<@__device_0>) !stream.resource<*>{%[[SIZE]]}
// CHECK-NEXT:    %[[T1:.+]] = stream.async.transfer %[[T0]] : !stream.resource<*>{%[[SIZE]]} from(#hal.device.affinity<@__device_0>) -> to(#hal.device.affinity<@__device_0>) !stream.resource<external>{%[[SIZE]]}
// CHECK-NEXT:    %[[EXP:.+]] = stream.tensor.export on(#hal.device.affinity<@__device_0>) %[[T1]] : tensor<4x8xf32> in !stream.resource<external>{%[[SIZE]]} -> !hal.buffer_view
// CHECK-NEXT:    util.return %[[EXP]] : !hal.buffer_view

// IREE 3.13 changes the lifetime at the boundary with stream.async.cast.
// CAST-LABEL: util.func public @import_export_static(
// CAST:         %[[SIZE:.+]] = stream.tensor.sizeof
// CAST-NEXT:    %[[IMP:.+]] = stream.tensor.import
// CAST-NEXT:    %[[C0:.+]] = stream.async.cast on(#hal.device.affinity<@__device_0>) %[[IMP]] : !stream.resource<external>{%[[SIZE]]} -> !stream.resource<*>{%[[SIZE]]}
// CAST-NEXT:    %[[C1:.+]] = stream.async.cast on(#hal.device.affinity<@__device_0>) %[[C0]] : !stream.resource<*>{%[[SIZE]]} -> !stream.resource<external>{%[[SIZE]]}
// CAST-NEXT:    stream.tensor.export on(#hal.device.affinity<@__device_0>) %[[C1]]

// -----

// flow.tensor.encode: the result is sized with its encoding, on the device of the op.

#encoding = #iree_encoding.testing<>
module attributes {stream.affinity.default = #hal.device.affinity<@__device_0>} {
  util.global private @__device_0 = #hal.device.target<"local", [#hal.executable.target<"llvm-cpu", "embedded-elf-x86_64", {}>]> : !hal.device
  util.func public @encode_dynamic(%arg0: !hal.buffer_view) -> !hal.buffer_view {
    %0 = hal.buffer_view.dim<%arg0 : !hal.buffer_view>[0] : index
    %1 = hal.tensor.import %arg0 "input0" : !hal.buffer_view -> tensor<?x3xf32>{%0}
    %2 = flow.tensor.encode %1 : tensor<?x3xf32>{%0} -> tensor<?x3xf32, #encoding>{%0}
    %3 = flow.tensor.encode %2 : tensor<?x3xf32, #encoding>{%0} -> tensor<?x3xf32>{%0}
    %4 = hal.tensor.export %3 "output0" : tensor<?x3xf32>{%0} -> !hal.buffer_view
    util.return %4 : !hal.buffer_view
  }
}
// CHECK-LABEL: util.func public @encode_dynamic(
// CHECK:         %[[D0:.+]] = hal.buffer_view.dim
// CHECK:         %[[S0:.+]] = stream.tensor.sizeof on(#hal.device.affinity<@__device_0>) tensor<?x3xf32>{%[[D0]]} : index
// CHECK:         %[[T0:.+]] = stream.async.transfer {{.+}} -> to(#hal.device.affinity<@__device_0>) !stream.resource<*>{%[[S0]]}
// CHECK-NEXT:    %[[S1:.+]] = stream.tensor.sizeof on(#hal.device.affinity<@__device_0>) tensor<?x3xf32, #encoding>{%[[D0]]} : index
// CHECK-NEXT:    %[[E1:.+]] = stream.tensor.encode on(#hal.device.affinity<@__device_0>) %[[T0]] : tensor<?x3xf32>{%[[D0]]} in !stream.resource<*>{%[[S0]]} -> tensor<?x3xf32, #encoding>{%[[D0]]} in !stream.resource<*>{%[[S1]]}
// CHECK-NEXT:    %[[S2:.+]] = stream.tensor.sizeof on(#hal.device.affinity<@__device_0>) tensor<?x3xf32>{%[[D0]]} : index
// CHECK-NEXT:    %[[E2:.+]] = stream.tensor.encode on(#hal.device.affinity<@__device_0>) %[[E1]] : tensor<?x3xf32, #encoding>{%[[D0]]} in !stream.resource<*>{%[[S1]]} -> tensor<?x3xf32>{%[[D0]]} in !stream.resource<*>{%[[S2]]}
// CHECK-NEXT:    %[[T1:.+]] = stream.async.transfer %[[E2]] : !stream.resource<*>{%[[S2]]} {{.+}} !stream.resource<external>{%[[S2]]}
// CHECK-NEXT:    stream.tensor.export on(#hal.device.affinity<@__device_0>) %[[T1]] : tensor<?x3xf32>{%[[D0]]} in !stream.resource<external>{%[[S2]]} -> !hal.buffer_view

// -----

// flow.tensor.reshape (what convert-tensor-to-flow makes of a host reshape): a
// stream.tensor.clone of the operand's resource as the result type, sized with
// the result's dims (IREE's ConvertTensorCastLikeOp). Canonicalization elides it.

module attributes {stream.affinity.default = #hal.device.affinity<@__device_0>} {
  util.global private @__device_0 = #hal.device.target<"local", [#hal.executable.target<"llvm-cpu", "embedded-elf-x86_64", {}>]> : !hal.device
  util.func public @reshape(%arg0: !hal.buffer_view) -> !hal.buffer_view {
    %0 = hal.buffer_view.dim<%arg0 : !hal.buffer_view>[0] : index
    %1 = hal.tensor.import %arg0 "input0" : !hal.buffer_view -> tensor<?x4xf32>{%0}
    %c4 = arith.constant 4 : index
    %n = arith.muli %0, %c4 : index
    %2 = flow.tensor.reshape %1 : tensor<?x4xf32>{%0} -> tensor<?xf32>{%n}
    %3 = hal.tensor.export %2 "output0" : tensor<?xf32>{%n} -> !hal.buffer_view
    util.return %3 : !hal.buffer_view
  }
}
// CHECK-LABEL: util.func public @reshape(
// CHECK:         %[[D0:.+]] = hal.buffer_view.dim
// CHECK:         %[[S0:.+]] = stream.tensor.sizeof on(#hal.device.affinity<@__device_0>) tensor<?x4xf32>{%[[D0]]} : index
// CHECK:         %[[T0:.+]] = stream.async.transfer {{.+}} -> to(#hal.device.affinity<@__device_0>) !stream.resource<*>{%[[S0]]}
// CHECK:         %[[N:.+]] = arith.muli %[[D0]]
// CHECK-NEXT:    %[[S1:.+]] = stream.tensor.sizeof on(#hal.device.affinity<@__device_0>) tensor<?xf32>{%[[N]]} : index
// CHECK-NEXT:    %[[C:.+]] = stream.tensor.clone on(#hal.device.affinity<@__device_0>) %[[T0]] : tensor<?x4xf32>{%[[D0]]} in !stream.resource<*>{%[[S0]]} -> tensor<?xf32>{%[[N]]} in !stream.resource<*>{%[[S1]]}
// CHECK-NEXT:    %[[T1:.+]] = stream.async.transfer %[[C]] : !stream.resource<*>{%[[S1]]} {{.+}} !stream.resource<external>{%[[S1]]}
// CHECK-NEXT:    stream.tensor.export on(#hal.device.affinity<@__device_0>) %[[T1]] : tensor<?xf32>{%[[N]]} in !stream.resource<external>{%[[S1]]} -> !hal.buffer_view
// CAST-LABEL:  util.func public @reshape(
// CAST:          %[[C:.+]] = stream.tensor.clone
// CAST-NEXT:     stream.async.cast on(#hal.device.affinity<@__device_0>) %[[C]]

// -----

// A dispatch with dynamic dims: bindings replace dispatch tensors, the dims of
// each flow.dispatch.tie_shape move onto its stream.binding.subspan, and the
// host dispatch carries each operand's resource size and a sizeof per result.

#map = affine_map<(d0) -> (d0)>
module attributes {stream.affinity.default = #hal.device.affinity<@__device_0>} {
  util.global private @__device_0 = #hal.device.target<"local", [#hal.executable.target<"llvm-cpu", "embedded-elf-x86_64", {}>]> : !hal.device
  flow.executable private @add_dispatch_0 {
    flow.executable.export public @add_dispatch_0_elementwise_D_f32 workgroups(%arg0: index) -> (index, index, index) {
      %x, %y, %z = iree_tensor_ext.dispatch.workgroup_count_from_slice(%arg0)
      flow.return %x, %y, %z : index, index, index
    }
    builtin.module {
      func.func @add_dispatch_0_elementwise_D_f32(%arg0: !iree_tensor_ext.dispatch.tensor<readonly:tensor<?xf32>>, %arg1: !iree_tensor_ext.dispatch.tensor<readonly:tensor<?xf32>>, %arg2: index, %arg3: !iree_tensor_ext.dispatch.tensor<writeonly:tensor<?xf32>>) {
        %0 = iree_tensor_ext.dispatch.workload.ordinal %arg2, 0 : index
        %1 = flow.dispatch.tie_shape %arg0 : !iree_tensor_ext.dispatch.tensor<readonly:tensor<?xf32>>{%0}
        %2 = flow.dispatch.tie_shape %arg1 : !iree_tensor_ext.dispatch.tensor<readonly:tensor<?xf32>>{%0}
        %3 = flow.dispatch.tie_shape %arg3 : !iree_tensor_ext.dispatch.tensor<writeonly:tensor<?xf32>>{%0}
        %4 = iree_tensor_ext.dispatch.tensor.load %1, offsets = [0], sizes = [%0], strides = [1] : !iree_tensor_ext.dispatch.tensor<readonly:tensor<?xf32>>{%0} -> tensor<?xf32>
        %5 = iree_tensor_ext.dispatch.tensor.load %2, offsets = [0], sizes = [%0], strides = [1] : !iree_tensor_ext.dispatch.tensor<readonly:tensor<?xf32>>{%0} -> tensor<?xf32>
        %6 = tensor.empty(%0) : tensor<?xf32>
        %7 = linalg.generic {indexing_maps = [#map, #map, #map], iterator_types = ["parallel"]} ins(%4, %5 : tensor<?xf32>, tensor<?xf32>) outs(%6 : tensor<?xf32>) {
        ^bb0(%in: f32, %in_0: f32, %out: f32):
          %8 = arith.addf %in, %in_0 : f32
          linalg.yield %8 : f32
        } -> tensor<?xf32>
        iree_tensor_ext.dispatch.tensor.store %7, %3, offsets = [0], sizes = [%0], strides = [1] : tensor<?xf32> -> !iree_tensor_ext.dispatch.tensor<writeonly:tensor<?xf32>>{%0}
        return
      }
    }
  }
  util.func public @dispatch_dynamic(%arg0: !hal.buffer_view, %arg1: !hal.buffer_view) -> !hal.buffer_view {
    %0 = hal.buffer_view.dim<%arg0 : !hal.buffer_view>[0] : index
    %1 = hal.tensor.import %arg0 "input0" : !hal.buffer_view -> tensor<?xf32>{%0}
    %2 = hal.tensor.import %arg1 "input1" : !hal.buffer_view -> tensor<?xf32>{%0}
    %3 = flow.dispatch @add_dispatch_0::@add_dispatch_0_elementwise_D_f32[%0](%1, %2, %0) : (tensor<?xf32>{%0}, tensor<?xf32>{%0}, index) -> tensor<?xf32>{%0}
    %4 = hal.tensor.export %3 "output0" : tensor<?xf32>{%0} -> !hal.buffer_view
    util.return %4 : !hal.buffer_view
  }
}
// CHECK:       stream.executable private @add_dispatch_0 {
// CHECK-NEXT:    stream.executable.export public @add_dispatch_0_elementwise_D_f32 workgroups(%[[W:.+]]: index) -> (index, index, index) {
// CHECK-NEXT:      %[[X:.+]], %[[Y:.+]], %[[Z:.+]] = iree_tensor_ext.dispatch.workgroup_count_from_slice(%[[W]])
// CHECK-NEXT:      stream.return %[[X]], %[[Y]], %[[Z]] : index, index, index
// CHECK:         func.func @add_dispatch_0_elementwise_D_f32(%[[A0:.+]]: !stream.binding, %[[A1:.+]]: !stream.binding, %[[A2:.+]]: index, %[[A3:.+]]: !stream.binding) {
// CHECK-NEXT:      %[[C0:.+]] = arith.constant 0 : index
// CHECK-NEXT:      %[[N:.+]] = iree_tensor_ext.dispatch.workload.ordinal %[[A2]], 0 : index
// CHECK-NEXT:      %[[B0:.+]] = stream.binding.subspan %[[A0]][%[[C0]]] : !stream.binding -> !iree_tensor_ext.dispatch.tensor<readonly:tensor<?xf32>>{%[[N]]}
// CHECK-NEXT:      %[[B1:.+]] = stream.binding.subspan %[[A1]][%[[C0]]] : !stream.binding -> !iree_tensor_ext.dispatch.tensor<readonly:tensor<?xf32>>{%[[N]]}
// CHECK-NEXT:      %[[B3:.+]] = stream.binding.subspan %[[A3]][%[[C0]]] : !stream.binding -> !iree_tensor_ext.dispatch.tensor<writeonly:tensor<?xf32>>{%[[N]]}
// CHECK-NEXT:      iree_tensor_ext.dispatch.tensor.load %[[B0]]
// CHECK-NEXT:      iree_tensor_ext.dispatch.tensor.load %[[B1]]
// CHECK-NOT:       flow.dispatch.tie_shape
// CHECK:           iree_tensor_ext.dispatch.tensor.store %{{.+}}, %[[B3]]
// CHECK-LABEL: util.func public @dispatch_dynamic(
// CHECK:         %[[N:.+]] = hal.buffer_view.dim
// CHECK:         %[[S0:.+]] = stream.tensor.sizeof on(#hal.device.affinity<@__device_0>) tensor<?xf32>{%[[N]]} : index
// CHECK:         %[[R0:.+]] = stream.async.transfer {{.+}} !stream.resource<*>{%[[S0]]}
// CHECK:         %[[S1:.+]] = stream.tensor.sizeof on(#hal.device.affinity<@__device_0>) tensor<?xf32>{%[[N]]} : index
// CHECK:         %[[R1:.+]] = stream.async.transfer {{.+}} !stream.resource<*>{%[[S1]]}
// CHECK-NEXT:    %[[S2:.+]] = stream.tensor.sizeof on(#hal.device.affinity<@__device_0>) tensor<?xf32>{%[[N]]} : index
// CHECK-NEXT:    %[[D:.+]] = stream.tensor.dispatch on(#hal.device.affinity<@__device_0>) @add_dispatch_0::@add_dispatch_0_elementwise_D_f32[%[[N]]](%[[R0]], %[[R1]], %[[N]]) : (tensor<?xf32>{%[[N]]} in !stream.resource<*>{%[[S0]]}, tensor<?xf32>{%[[N]]} in !stream.resource<*>{%[[S1]]}, index) -> tensor<?xf32>{%[[N]]} in !stream.resource<*>{%[[S2]]}
// CHECK-NEXT:    stream.async.transfer %[[D]] : !stream.resource<*>{%[[S2]]}

// -----

// Static shapes and a tied result: a static binding is viewed at the top of the
// function; the tied result reuses its operand's resource and size.

module attributes {stream.affinity.default = #hal.device.affinity<@__device_0>} {
  util.global private @__device_0 = #hal.device.target<"local", [#hal.executable.target<"llvm-cpu", "embedded-elf-x86_64", {}>]> : !hal.device
  flow.executable private @acc_dispatch_0 {
    flow.executable.export public @acc_dispatch_0_matmul_4x4x8_f32 workgroups() -> (index, index, index) {
      %x, %y, %z = iree_tensor_ext.dispatch.workgroup_count_from_slice()
      flow.return %x, %y, %z : index, index, index
    }
    builtin.module {
      func.func @acc_dispatch_0_matmul_4x4x8_f32(%arg0: !iree_tensor_ext.dispatch.tensor<readonly:tensor<4x8xf32>>, %arg1: !iree_tensor_ext.dispatch.tensor<readonly:tensor<8x4xf32>>, %arg2: !iree_tensor_ext.dispatch.tensor<readwrite:tensor<4x4xf32>>) {
        %0 = iree_tensor_ext.dispatch.tensor.load %arg0, offsets = [0, 0], sizes = [4, 8], strides = [1, 1] : !iree_tensor_ext.dispatch.tensor<readonly:tensor<4x8xf32>> -> tensor<4x8xf32>
        %1 = iree_tensor_ext.dispatch.tensor.load %arg1, offsets = [0, 0], sizes = [8, 4], strides = [1, 1] : !iree_tensor_ext.dispatch.tensor<readonly:tensor<8x4xf32>> -> tensor<8x4xf32>
        %2 = iree_tensor_ext.dispatch.tensor.load %arg2, offsets = [0, 0], sizes = [4, 4], strides = [1, 1] : !iree_tensor_ext.dispatch.tensor<readwrite:tensor<4x4xf32>> -> tensor<4x4xf32>
        %3 = linalg.matmul ins(%0, %1 : tensor<4x8xf32>, tensor<8x4xf32>) outs(%2 : tensor<4x4xf32>) -> tensor<4x4xf32>
        iree_tensor_ext.dispatch.tensor.store %3, %arg2, offsets = [0, 0], sizes = [4, 4], strides = [1, 1] : tensor<4x4xf32> -> !iree_tensor_ext.dispatch.tensor<readwrite:tensor<4x4xf32>>
        return
      }
    }
  }
  util.func public @dispatch_static_tied(%arg0: !hal.buffer_view, %arg1: !hal.buffer_view, %arg2: !hal.buffer_view) -> !hal.buffer_view {
    %0 = hal.tensor.import %arg0 "lhs" : !hal.buffer_view -> tensor<4x8xf32>
    %1 = hal.tensor.import %arg1 "rhs" : !hal.buffer_view -> tensor<8x4xf32>
    %2 = hal.tensor.import %arg2 "acc" : !hal.buffer_view -> tensor<4x4xf32>
    %3 = flow.dispatch @acc_dispatch_0::@acc_dispatch_0_matmul_4x4x8_f32(%0, %1, %2) : (tensor<4x8xf32>, tensor<8x4xf32>, tensor<4x4xf32>) -> %2
    %4 = hal.tensor.export %3 "output0" : tensor<4x4xf32> -> !hal.buffer_view
    util.return %4 : !hal.buffer_view
  }
}
// CHECK:         func.func @acc_dispatch_0_matmul_4x4x8_f32(%[[A0:.+]]: !stream.binding, %[[A1:.+]]: !stream.binding, %[[A2:.+]]: !stream.binding) {
// CHECK-NEXT:      %[[C0:.+]] = arith.constant 0 : index
// CHECK-NEXT:      %[[B0:.+]] = stream.binding.subspan %[[A0]][%[[C0]]] : !stream.binding -> !iree_tensor_ext.dispatch.tensor<readonly:tensor<4x8xf32>>
// CHECK-NEXT:      %[[B1:.+]] = stream.binding.subspan %[[A1]][%[[C0]]] : !stream.binding -> !iree_tensor_ext.dispatch.tensor<readonly:tensor<8x4xf32>>
// CHECK-NEXT:      %[[B2:.+]] = stream.binding.subspan %[[A2]][%[[C0]]] : !stream.binding -> !iree_tensor_ext.dispatch.tensor<readwrite:tensor<4x4xf32>>
// CHECK-NEXT:      iree_tensor_ext.dispatch.tensor.load %[[B0]]
// CHECK-LABEL: util.func public @dispatch_static_tied(
// CHECK:         %[[S2:.+]] = stream.tensor.sizeof on(#hal.device.affinity<@__device_0>) tensor<4x4xf32> : index
// CHECK:         %[[R2:.+]] = stream.async.transfer {{.+}} !stream.resource<*>{%[[S2]]}
// CHECK-NOT:     stream.tensor.sizeof
// CHECK:         %[[D:.+]] = stream.tensor.dispatch on(#hal.device.affinity<@__device_0>) @acc_dispatch_0::@acc_dispatch_0_matmul_4x4x8_f32(%{{.+}}, %{{.+}}, %[[R2]]) : (tensor<4x8xf32> in !stream.resource<*>{%{{.+}}}, tensor<8x4xf32> in !stream.resource<*>{%{{.+}}}, tensor<4x4xf32> in !stream.resource<*>{%[[S2]]}) -> tensor<4x4xf32> in %[[R2]]{%[[S2]]}
// CHECK-NEXT:    stream.async.transfer %[[D]] : !stream.resource<*>{%[[S2]]}

// -----

// A hoisted encoded weight (walkthrough dump 08's form): the global becomes a
// constant resource plus a __size global; the initializer builds it from a
// stream.tensor.constant; the function loads both and transfers to `*`.

#map = affine_map<(d0, d1, d2) -> (d0, d2)>
#map1 = affine_map<(d0, d1, d2) -> (d2, d1)>
#map2 = affine_map<(d0, d1, d2) -> (d0, d1)>
#encoding = #iree_encoding.encoding<operand_index = 1 : index, op_type = matmul, element_types = [f32, f32, f32], user_indexing_maps = [#map, #map1, #map2], iteration_sizes = [?, 3, 4]>
#encoding1 = #iree_encoding.encoding<operand_index = 0 : index, op_type = matmul, element_types = [f32, f32, f32], user_indexing_maps = [#map, #map1, #map2], iteration_sizes = [?, 3, 4]>
#encoding2 = #iree_encoding.encoding<operand_index = 2 : index, op_type = matmul, element_types = [f32, f32, f32], user_indexing_maps = [#map, #map1, #map2], iteration_sizes = [?, 3, 4]>
module attributes {stream.affinity.default = #hal.device.affinity<@__device_0>} {
  util.global private @__device_0 = #hal.device.target<"local", [#hal.executable.target<"llvm-cpu", "embedded-elf-x86_64", {}>]> : !hal.device
  util.global private @__hoisted_tensor_4x3xf32__encoded : tensor<4x3xf32, #encoding>
  util.initializer {
    %cst = arith.constant dense<[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0], [7.0, 8.0, 9.0], [-1.0, -2.0, 0.5]]> : tensor<4x3xf32>
    %0 = flow.tensor.encode %cst : tensor<4x3xf32> -> tensor<4x3xf32, #encoding>
    util.global.store %0, @__hoisted_tensor_4x3xf32__encoded : tensor<4x3xf32, #encoding>
    util.return
  }
  flow.executable private @matmul_const_weight_dispatch_0 {
    flow.executable.export public @matmul_const_weight_dispatch_0_matmul_Dx3x4_f32 workgroups(%arg0: index) -> (index, index, index) {
      %x, %y, %z = iree_tensor_ext.dispatch.workgroup_count_from_slice(%arg0)
      flow.return %x, %y, %z : index, index, index
    }
    builtin.module {
      func.func @matmul_const_weight_dispatch_0_matmul_Dx3x4_f32(%arg0: !iree_tensor_ext.dispatch.tensor<readonly:tensor<?x4xf32, #encoding1>>, %arg1: !iree_tensor_ext.dispatch.tensor<readonly:tensor<4x3xf32, #encoding>>, %arg2: index, %arg3: !iree_tensor_ext.dispatch.tensor<writeonly:tensor<?x3xf32>>) {
        %cst = arith.constant 0.000000e+00 : f32
        %0 = iree_tensor_ext.dispatch.workload.ordinal %arg2, 0 : index
        %1 = flow.dispatch.tie_shape %arg0 : !iree_tensor_ext.dispatch.tensor<readonly:tensor<?x4xf32, #encoding1>>{%0}
        %2 = flow.dispatch.tie_shape %arg3 : !iree_tensor_ext.dispatch.tensor<writeonly:tensor<?x3xf32>>{%0}
        %3 = iree_tensor_ext.dispatch.tensor.load %1, offsets = [0, 0], sizes = [%0, 4], strides = [1, 1] : !iree_tensor_ext.dispatch.tensor<readonly:tensor<?x4xf32, #encoding1>>{%0} -> tensor<?x4xf32, #encoding1>
        %4 = iree_tensor_ext.dispatch.tensor.load %arg1, offsets = [0, 0], sizes = [4, 3], strides = [1, 1] : !iree_tensor_ext.dispatch.tensor<readonly:tensor<4x3xf32, #encoding>> -> tensor<4x3xf32, #encoding>
        %5 = tensor.empty(%0) : tensor<?x3xf32, #encoding2>
        %6 = linalg.fill ins(%cst : f32) outs(%5 : tensor<?x3xf32, #encoding2>) -> tensor<?x3xf32, #encoding2>
        %7 = linalg.matmul ins(%3, %4 : tensor<?x4xf32, #encoding1>, tensor<4x3xf32, #encoding>) outs(%6 : tensor<?x3xf32, #encoding2>) -> tensor<?x3xf32, #encoding2>
        %8 = iree_encoding.unset_encoding %7 : tensor<?x3xf32, #encoding2> -> tensor<?x3xf32>{%0}
        iree_tensor_ext.dispatch.tensor.store %8, %2, offsets = [0, 0], sizes = [%0, 3], strides = [1, 1] : tensor<?x3xf32> -> !iree_tensor_ext.dispatch.tensor<writeonly:tensor<?x3xf32>>{%0}
        return
      }
    }
  }
  util.func public @matmul_const_weight(%arg0: !hal.buffer_view) -> !hal.buffer_view {
    %0 = hal.buffer_view.dim<%arg0 : !hal.buffer_view>[0] : index
    %1 = hal.tensor.import %arg0 "input0" : !hal.buffer_view -> tensor<?x4xf32>{%0}
    %2 = flow.tensor.encode %1 : tensor<?x4xf32>{%0} -> tensor<?x4xf32, #encoding1>{%0}
    %__hoisted_tensor_4x3xf32__encoded = util.global.load immutable @__hoisted_tensor_4x3xf32__encoded : tensor<4x3xf32, #encoding>
    %3 = flow.dispatch @matmul_const_weight_dispatch_0::@matmul_const_weight_dispatch_0_matmul_Dx3x4_f32[%0](%2, %__hoisted_tensor_4x3xf32__encoded, %0) : (tensor<?x4xf32, #encoding1>{%0}, tensor<4x3xf32, #encoding>, index) -> tensor<?x3xf32>{%0}
    %4 = hal.tensor.export %3 "output0" : tensor<?x3xf32>{%0} -> !hal.buffer_view
    util.return %4 : !hal.buffer_view
  }
}
// CHECK:       util.global private @__hoisted_tensor_4x3xf32__encoded : !stream.resource<constant>
// CHECK-NEXT:  util.global private @__hoisted_tensor_4x3xf32__encoded__size : index
// CHECK-NEXT:  util.initializer {
// CHECK-NEXT:    %[[CST:.+]] = stream.tensor.constant on(#hal.device.affinity<@__device_0>) : tensor<4x3xf32> in !stream.resource<constant> = dense<{{.+}}> : tensor<4x3xf32>
// CHECK-NEXT:    %[[CSIZE:.+]] = stream.resource.size %[[CST]] : !stream.resource<constant>
// CHECK-NEXT:    %[[T0:.+]] = stream.async.transfer %[[CST]] : !stream.resource<constant>{%[[CSIZE]]} from(#hal.device.affinity<@__device_0>) -> to(#hal.device.affinity<@__device_0>) !stream.resource<*>{%[[CSIZE]]}
// CHECK-NEXT:    %[[ESIZE:.+]] = stream.tensor.sizeof on(#hal.device.affinity<@__device_0>) tensor<4x3xf32, #encoding> : index
// CHECK-NEXT:    %[[ENC:.+]] = stream.tensor.encode on(#hal.device.affinity<@__device_0>) %[[T0]] : tensor<4x3xf32> in !stream.resource<*>{%[[CSIZE]]} -> tensor<4x3xf32, #encoding> in !stream.resource<*>{%[[ESIZE]]}
// CHECK-NEXT:    %[[T1:.+]] = stream.async.transfer %[[ENC]] : !stream.resource<*>{%[[ESIZE]]} from(#hal.device.affinity<@__device_0>) -> to(#hal.device.affinity<@__device_0>) !stream.resource<constant>{%[[ESIZE]]}
// CHECK-NEXT:    util.global.store %[[T1]], @__hoisted_tensor_4x3xf32__encoded : !stream.resource<constant>
// CHECK-NEXT:    util.global.store %[[ESIZE]], @__hoisted_tensor_4x3xf32__encoded__size : index
// CHECK-NEXT:    util.return
// CHECK:       stream.executable private @matmul_const_weight_dispatch_0
// CHECK:         %[[C0:.+]] = arith.constant 0 : index
// CHECK-NEXT:    %[[W:.+]] = stream.binding.subspan %{{.+}}[%[[C0]]] : !stream.binding -> !iree_tensor_ext.dispatch.tensor<readonly:tensor<4x3xf32, #encoding>>
// CHECK-LABEL: util.func public @matmul_const_weight(
// CHECK:         %[[G:.+]] = util.global.load @__hoisted_tensor_4x3xf32__encoded : !stream.resource<constant>
// CHECK-NEXT:    %[[GS:.+]] = util.global.load @__hoisted_tensor_4x3xf32__encoded__size : index
// CHECK-NEXT:    %[[GT:.+]] = stream.async.transfer %[[G]] : !stream.resource<constant>{%[[GS]]} from(#hal.device.affinity<@__device_0>) -> to(#hal.device.affinity<@__device_0>) !stream.resource<*>{%[[GS]]}
// CHECK-NEXT:    %[[RS:.+]] = stream.tensor.sizeof on(#hal.device.affinity<@__device_0>) tensor<?x3xf32>{%{{.+}}} : index
// CHECK-NEXT:    stream.tensor.dispatch on(#hal.device.affinity<@__device_0>) @matmul_const_weight_dispatch_0::@matmul_const_weight_dispatch_0_matmul_Dx3x4_f32[%{{.+}}](%{{.+}}, %[[GT]], %{{.+}}) : ({{.+}}, tensor<4x3xf32, #encoding> in !stream.resource<*>{%[[GS]]}, index) -> tensor<?x3xf32>{%{{.+}}} in !stream.resource<*>{%[[RS]]}

// -----

// Two devices: the input arrives on device A, the dispatch runs on device B
// (its stream.affinity), the result leaves from device A. Each crossing is a
// stream.async.transfer between the two affinities.

module attributes {stream.affinity.default = #hal.device.affinity<@device_a>} {
  util.global private @device_a = #hal.device.target<"local", [#hal.executable.target<"llvm-cpu", "embedded-elf-x86_64", {}>]> : !hal.device
  util.global private @device_b = #hal.device.target<"local", [#hal.executable.target<"vmvx", "vmvx-bytecode-fb", {}>]> : !hal.device
  flow.executable private @scale_dispatch_0 {
    flow.executable.export public @scale_dispatch_0_matmul_2x2x2_f32 workgroups() -> (index, index, index) {
      %x, %y, %z = iree_tensor_ext.dispatch.workgroup_count_from_slice()
      flow.return %x, %y, %z : index, index, index
    }
    builtin.module {
      func.func @scale_dispatch_0_matmul_2x2x2_f32(%arg0: !iree_tensor_ext.dispatch.tensor<readonly:tensor<2x2xf32>>, %arg1: !iree_tensor_ext.dispatch.tensor<writeonly:tensor<2x2xf32>>) {
        %cst = arith.constant 0.000000e+00 : f32
        %0 = iree_tensor_ext.dispatch.tensor.load %arg0, offsets = [0, 0], sizes = [2, 2], strides = [1, 1] : !iree_tensor_ext.dispatch.tensor<readonly:tensor<2x2xf32>> -> tensor<2x2xf32>
        %1 = tensor.empty() : tensor<2x2xf32>
        %2 = linalg.fill ins(%cst : f32) outs(%1 : tensor<2x2xf32>) -> tensor<2x2xf32>
        %3 = linalg.matmul ins(%0, %0 : tensor<2x2xf32>, tensor<2x2xf32>) outs(%2 : tensor<2x2xf32>) -> tensor<2x2xf32>
        iree_tensor_ext.dispatch.tensor.store %3, %arg1, offsets = [0, 0], sizes = [2, 2], strides = [1, 1] : tensor<2x2xf32> -> !iree_tensor_ext.dispatch.tensor<writeonly:tensor<2x2xf32>>
        return
      }
    }
  }
  util.func public @two_devices(%arg0: !hal.buffer_view) -> !hal.buffer_view {
    %0 = hal.tensor.import %arg0 "input0" : !hal.buffer_view -> tensor<2x2xf32>
    %1 = flow.dispatch @scale_dispatch_0::@scale_dispatch_0_matmul_2x2x2_f32(%0) {stream.affinity = #hal.device.affinity<@device_b>} : (tensor<2x2xf32>) -> tensor<2x2xf32>
    %2 = hal.tensor.export %1 "output0" : tensor<2x2xf32> -> !hal.buffer_view
    util.return %2 : !hal.buffer_view
  }
}
// CHECK-LABEL: util.func public @two_devices(
// CHECK:         %[[S0:.+]] = stream.tensor.sizeof on(#hal.device.affinity<@device_a>) tensor<2x2xf32> : index
// CHECK:         %[[R0:.+]] = stream.async.transfer %{{.+}} : !stream.resource<external>{%[[S0]]} from(#hal.device.affinity<@device_a>) -> to(#hal.device.affinity<@device_a>) !stream.resource<*>{%[[S0]]}
// CHECK-NEXT:    %[[R0B:.+]] = stream.async.transfer %[[R0]] : !stream.resource<*>{%[[S0]]} from(#hal.device.affinity<@device_a>) -> to(#hal.device.affinity<@device_b>) !stream.resource<*>{%[[S0]]}
// CHECK-NEXT:    %[[S1:.+]] = stream.tensor.sizeof on(#hal.device.affinity<@device_b>) tensor<2x2xf32> : index
// CHECK-NEXT:    %[[D:.+]] = stream.tensor.dispatch on(#hal.device.affinity<@device_b>) @scale_dispatch_0::@scale_dispatch_0_matmul_2x2x2_f32(%[[R0B]])
// CHECK-NOT:       stream.affinity =
// CHECK-NEXT:    %[[DA:.+]] = stream.async.transfer %[[D]] : !stream.resource<*>{%[[S1]]} from(#hal.device.affinity<@device_b>) -> to(#hal.device.affinity<@device_a>) !stream.resource<*>{%[[S1]]}
// CHECK-NEXT:    %[[EXT:.+]] = stream.async.transfer %[[DA]] : !stream.resource<*>{%[[S1]]} from(#hal.device.affinity<@device_a>) -> to(#hal.device.affinity<@device_a>) !stream.resource<external>{%[[S1]]}
// CHECK-NEXT:    stream.tensor.export on(#hal.device.affinity<@device_a>) %[[EXT]]

// -----

// Without any affinity in the module, ops are placed nowhere in particular.

util.func public @no_affinity(%arg0: !hal.buffer_view) -> !hal.buffer_view {
  %0 = hal.tensor.import %arg0 "input0" : !hal.buffer_view -> tensor<2xf32>
  %1 = hal.tensor.export %0 "output0" : tensor<2xf32> -> !hal.buffer_view
  util.return %1 : !hal.buffer_view
}
// CHECK-LABEL: util.func public @no_affinity(
// CHECK:         %[[S:.+]] = stream.tensor.sizeof tensor<2xf32> : index
// CHECK-NEXT:    %[[I:.+]] = stream.tensor.import %{{.+}} : !hal.buffer_view -> tensor<2xf32> in !stream.resource<external>{%[[S]]}
// CHECK-NEXT:    %[[T:.+]] = stream.async.transfer %[[I]] : !stream.resource<external>{%[[S]]} -> !stream.resource<*>{%[[S]]}
// CHECK-NEXT:    %[[E:.+]] = stream.async.transfer %[[T]] : !stream.resource<*>{%[[S]]} -> !stream.resource<external>{%[[S]]}
// CHECK-NEXT:    stream.tensor.export %[[E]] : tensor<2xf32> in !stream.resource<external>{%[[S]]} -> !hal.buffer_view

// -----

// A global with a tensor initial value gets an initializer that builds it; a
// mutable global holds a variable resource, stored through a transfer.

module attributes {stream.affinity.default = #hal.device.affinity<@__device_0>} {
  util.global private @__device_0 = #hal.device.target<"local", [#hal.executable.target<"llvm-cpu", "embedded-elf-x86_64", {}>]> : !hal.device
  util.global private @bias = dense<[1.0, 2.0]> : tensor<2xf32>
  util.global private mutable @state : tensor<2xf32>
  util.func public @globals(%arg0: !hal.buffer_view) -> (!hal.buffer_view, !hal.buffer_view) {
    %0 = hal.tensor.import %arg0 "input0" : !hal.buffer_view -> tensor<2xf32>
    util.global.store %0, @state : tensor<2xf32>
    %1 = util.global.load @state : tensor<2xf32>
    %2 = util.global.load immutable @bias : tensor<2xf32>
    %3 = hal.tensor.export %1 "output0" : tensor<2xf32> -> !hal.buffer_view
    %4 = hal.tensor.export %2 "output1" : tensor<2xf32> -> !hal.buffer_view
    util.return %3, %4 : !hal.buffer_view, !hal.buffer_view
  }
}
// CHECK:       util.global private @bias : !stream.resource<constant>
// CHECK-NEXT:  util.global private @bias__size : index
// CHECK-NEXT:  util.initializer {
// CHECK-NEXT:    %[[CST:.+]] = stream.tensor.constant on(#hal.device.affinity<@__device_0>) : tensor<2xf32> in !stream.resource<constant> = dense<[1.000000e+00, 2.000000e+00]> : tensor<2xf32>
// CHECK-NEXT:    %[[SIZE:.+]] = stream.resource.size %[[CST]] : !stream.resource<constant>
// CHECK-NEXT:    util.global.store %[[CST]], @bias : !stream.resource<constant>
// CHECK-NEXT:    util.global.store %[[SIZE]], @bias__size : index
// CHECK-NEXT:    util.return
// CHECK-NEXT:  }
// CHECK-NEXT:  util.global private mutable @state : !stream.resource<variable>
// CHECK-NEXT:  util.global private mutable @state__size : index
// CHECK-LABEL: util.func public @globals(
// CHECK:         %[[IN:.+]] = stream.async.transfer %{{.+}} : !stream.resource<external>{%[[S:.+]]} from
// CHECK-NEXT:    %[[V:.+]] = stream.async.transfer %[[IN]] : !stream.resource<*>{%[[S]]} from(#hal.device.affinity<@__device_0>) -> to(#hal.device.affinity<@__device_0>) !stream.resource<variable>{%[[S]]}
// CHECK-NEXT:    util.global.store %[[V]], @state : !stream.resource<variable>
// CHECK-NEXT:    util.global.store %[[S]], @state__size : index
// CHECK-NEXT:    %[[L:.+]] = util.global.load @state : !stream.resource<variable>
// CHECK-NEXT:    %[[LS:.+]] = util.global.load @state__size : index
// CHECK-NEXT:    stream.async.transfer %[[L]] : !stream.resource<variable>{%[[LS]]} from(#hal.device.affinity<@__device_0>) -> to(#hal.device.affinity<@__device_0>) !stream.resource<*>{%[[LS]]}
// CHECK-NEXT:    %[[B:.+]] = util.global.load @bias : !stream.resource<constant>
// CHECK-NEXT:    %[[BS:.+]] = util.global.load @bias__size : index
// CHECK-NEXT:    stream.async.transfer %[[B]] : !stream.resource<constant>{%[[BS]]}

// -----

// A host tensor.dim is answered by the producer's own dims (resources have no shape).

#encoding = #iree_encoding.testing<>
module attributes {stream.affinity.default = #hal.device.affinity<@__device_0>} {
  util.global private @__device_0 = #hal.device.target<"local", [#hal.executable.target<"llvm-cpu", "embedded-elf-x86_64", {}>]> : !hal.device
  util.func public @tensor_dim_resolved(%arg0: !hal.buffer_view) -> !hal.buffer_view {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %0 = hal.buffer_view.dim<%arg0 : !hal.buffer_view>[0] : index
    %1 = hal.tensor.import %arg0 "input0" : !hal.buffer_view -> tensor<?x3xf32>{%0}
    %2 = flow.tensor.encode %1 : tensor<?x3xf32>{%0} -> tensor<?x3xf32, #encoding>{%0}
    %dim = tensor.dim %2, %c0 : tensor<?x3xf32, #encoding>
    %dim_0 = tensor.dim %2, %c1 : tensor<?x3xf32, #encoding>
    %3 = flow.tensor.encode %2 : tensor<?x3xf32, #encoding>{%dim} -> tensor<?x3xf32>{%dim}
    %4 = hal.tensor.export %3 "output0" : tensor<?x3xf32>{%dim} -> !hal.buffer_view
    util.return %4 : !hal.buffer_view
  }
}
// CHECK-LABEL: util.func public @tensor_dim_resolved(
// CHECK:         %[[D0:.+]] = hal.buffer_view.dim
// CHECK-NOT:     tensor.dim
// CHECK:         stream.tensor.encode on(#hal.device.affinity<@__device_0>) %{{.+}} : tensor<?x3xf32, #encoding>{%[[D0]]} in !stream.resource<*>{%{{.+}}} -> tensor<?x3xf32>{%[[D0]]}

// -----

// A function's stream.affinity places its ops; the attribute is dropped once
// every op names its device.

module attributes {stream.affinity.default = #hal.device.affinity<@device_a>} {
  util.global private @device_a = #hal.device.target<"local", [#hal.executable.target<"llvm-cpu", "embedded-elf-x86_64", {}>]> : !hal.device
  util.global private @device_b = #hal.device.target<"local", [#hal.executable.target<"vmvx", "vmvx-bytecode-fb", {}>]> : !hal.device
  util.func public @function_affinity(%arg0: !hal.buffer_view) -> !hal.buffer_view attributes {stream.affinity = #hal.device.affinity<@device_b>} {
    %0 = hal.tensor.import %arg0 "input0" : !hal.buffer_view -> tensor<3xf32>
    %1 = hal.tensor.export %0 "output0" : tensor<3xf32> -> !hal.buffer_view
    util.return %1 : !hal.buffer_view
  }
}
// CHECK-LABEL: util.func public @function_affinity(
// CHECK-NOT:     stream.affinity =
// CHECK:         stream.tensor.sizeof on(#hal.device.affinity<@device_b>) tensor<3xf32> : index
// CHECK-NEXT:    stream.tensor.import on(#hal.device.affinity<@device_b>)
// CHECK-NEXT:    stream.async.transfer {{.+}} from(#hal.device.affinity<@device_b>) -> to(#hal.device.affinity<@device_b>) !stream.resource<*>
// CHECK-NEXT:    stream.async.transfer {{.+}} from(#hal.device.affinity<@device_b>) -> to(#hal.device.affinity<@device_b>) !stream.resource<external>
// CHECK-NEXT:    stream.tensor.export on(#hal.device.affinity<@device_b>)

// -----

// Functions exchanging tensors exchange (resource, size) pairs: signatures,
// calls and returns are expanded. An optimization barrier holds the resource.

#encoding = #iree_encoding.testing<>
module attributes {stream.affinity.default = #hal.device.affinity<@__device_0>} {
  util.global private @__device_0 = #hal.device.target<"local", [#hal.executable.target<"llvm-cpu", "embedded-elf-x86_64", {}>]> : !hal.device
  util.func private @round_trip(%arg0: tensor<4xf32>, %arg1: index) -> (tensor<4xf32>, index) {
    %0 = flow.tensor.encode %arg0 : tensor<4xf32> -> tensor<4xf32, #encoding>
    %1 = flow.tensor.encode %0 : tensor<4xf32, #encoding> -> tensor<4xf32>
    util.return %1, %arg1 : tensor<4xf32>, index
  }
  util.func public @calls(%arg0: !hal.buffer_view) -> !hal.buffer_view {
    %c1 = arith.constant 1 : index
    %0 = hal.tensor.import %arg0 "input0" : !hal.buffer_view -> tensor<4xf32>
    %1:2 = util.call @round_trip(%0, %c1) : (tensor<4xf32>, index) -> (tensor<4xf32>, index)
    %2 = util.optimization_barrier %1#0 : tensor<4xf32>
    %3 = hal.tensor.export %2 "output0" : tensor<4xf32> -> !hal.buffer_view
    util.return %3 : !hal.buffer_view
  }
}
// CHECK-LABEL: util.func private @round_trip(
// CHECK-SAME:      %[[R:[a-zA-Z0-9]+]]: !stream.resource<*>, %[[S:[a-zA-Z0-9]+]]: index, %[[N:[a-zA-Z0-9]+]]: index) -> (!stream.resource<*>, index, index) {
// CHECK-NEXT:    %[[S0:.+]] = stream.tensor.sizeof on(#hal.device.affinity<@__device_0>) tensor<4xf32, #encoding> : index
// CHECK-NEXT:    %[[E0:.+]] = stream.tensor.encode on(#hal.device.affinity<@__device_0>) %[[R]] : tensor<4xf32> in !stream.resource<*>{%[[S]]} -> tensor<4xf32, #encoding> in !stream.resource<*>{%[[S0]]}
// CHECK-NEXT:    %[[S1:.+]] = stream.tensor.sizeof
// CHECK-NEXT:    %[[E1:.+]] = stream.tensor.encode
// CHECK-NEXT:    util.return %[[E1]], %[[S1]], %[[N]] : !stream.resource<*>, index, index
// CHECK-LABEL: util.func public @calls(
// CHECK:         %[[T:.+]] = stream.async.transfer %{{.+}} -> to(#hal.device.affinity<@__device_0>) !stream.resource<*>{%[[TS:.+]]}
// CHECK-NEXT:    %[[CALL:.+]]:3 = util.call @round_trip(%[[T]], %[[TS]], %{{.+}}) : (!stream.resource<*>, index, index) -> (!stream.resource<*>, index, index)
// CHECK-NEXT:    %[[B:.+]] = util.optimization_barrier %[[CALL]]#0 : !stream.resource<*>
// CHECK-NEXT:    stream.async.transfer %[[B]] : !stream.resource<*>{%[[CALL]]#1}
