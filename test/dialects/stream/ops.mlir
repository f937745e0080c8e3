// RUN: mini-iree-opt %s --split-input-file | mini-iree-opt --split-input-file | filecheck %s
// RUN: mini-iree-opt %s --split-input-file --mlir-print-op-generic | mini-iree-opt --split-input-file | filecheck %s

func.func @types(%arg0: !stream.resource<*>, %arg1: !stream.resource<external>, %arg2: !stream.resource<transient>,
                 %arg3: !stream.resource<constant>, %arg4: !stream.resource<variable>, %arg5: !stream.resource<staging>,
                 %arg6: !stream.binding, %arg7: !stream.timepoint) {
  return
}
// CHECK-LABEL: func.func @types(
// CHECK-SAME:    %arg0: !stream.resource<*>, %arg1: !stream.resource<external>, %arg2: !stream.resource<transient>,
// CHECK-SAME:    %arg3: !stream.resource<constant>, %arg4: !stream.resource<variable>, %arg5: !stream.resource<staging>,
// CHECK-SAME:    %arg6: !stream.binding, %arg7: !stream.timepoint)

// -----

// The walkthrough's executable after conversion to stream: the dispatch
// function takes bindings and views them as dispatch tensors.

stream.executable private @matmul_dispatch_0 {
  stream.executable.export public @matmul_dispatch_0_entry workgroups(%arg0: index, %arg1: index) -> (index, index, index) {
    %x, %y, %z = iree_tensor_ext.dispatch.workgroup_count_from_slice(%arg0, %arg1)
    stream.return %x, %y, %z : index, index, index
  }
  builtin.module {
    func.func @matmul_dispatch_0_entry(%arg0: !stream.binding, %arg1: index, %arg2: index, %arg3: !stream.binding) {
      %c0 = arith.constant 0 : index
      %0 = iree_tensor_ext.dispatch.workload.ordinal %arg1, 0 : index
      %1 = iree_tensor_ext.dispatch.workload.ordinal %arg2, 1 : index
      %2 = stream.binding.subspan %arg0[%c0] : !stream.binding -> !iree_tensor_ext.dispatch.tensor<readonly:tensor<?x?xf32>>{%0, %1}
      %3 = stream.binding.subspan %arg3[%c0] : !stream.binding -> !iree_tensor_ext.dispatch.tensor<writeonly:tensor<?x?xf32>>{%0, %1}
      %4 = iree_tensor_ext.dispatch.tensor.load %2, offsets = [0, 0], sizes = [%0, %1], strides = [1, 1] : !iree_tensor_ext.dispatch.tensor<readonly:tensor<?x?xf32>>{%0, %1} -> tensor<?x?xf32>
      iree_tensor_ext.dispatch.tensor.store %4, %3, offsets = [0, 0], sizes = [%0, %1], strides = [1, 1] : tensor<?x?xf32> -> !iree_tensor_ext.dispatch.tensor<writeonly:tensor<?x?xf32>>{%0, %1}
      return
    }
  }
}
// CHECK-LABEL: stream.executable private @matmul_dispatch_0 {
// CHECK-NEXT:    stream.executable.export public @matmul_dispatch_0_entry workgroups(%arg0: index, %arg1: index) -> (index, index, index) {
// CHECK-NEXT:      %x, %y, %z = iree_tensor_ext.dispatch.workgroup_count_from_slice(%arg0, %arg1)
// CHECK-NEXT:      stream.return %x, %y, %z : index, index, index
// CHECK-NEXT:    }
// CHECK-NEXT:    builtin.module {
// CHECK-NEXT:      func.func @matmul_dispatch_0_entry(%arg0: !stream.binding, %arg1: index, %arg2: index, %arg3: !stream.binding) {
// CHECK:             %[[D0:.+]] = iree_tensor_ext.dispatch.workload.ordinal %arg1, 0 : index
// CHECK:             %[[D1:.+]] = iree_tensor_ext.dispatch.workload.ordinal %arg2, 1 : index
// CHECK:             stream.binding.subspan %arg0[%c0] : !stream.binding -> !iree_tensor_ext.dispatch.tensor<readonly:tensor<?x?xf32>>{%[[D0]], %[[D1]]}
// CHECK:             stream.binding.subspan %arg3[%c0] : !stream.binding -> !iree_tensor_ext.dispatch.tensor<writeonly:tensor<?x?xf32>>{%[[D0]], %[[D1]]}

// -----

// An export without a workgroup count region, binding a seed-era dispatch tensor.

stream.executable private @ex {
  stream.executable.export public @set_encoding
  builtin.module {
    func.func @set_encoding(%arg0: !stream.binding, %arg1: index) {
      %c0 = arith.constant 0 : index
      %0 = stream.binding.subspan %arg0[%c0] : !stream.binding -> !flow.dispatch.tensor<readonly:tensor<?xf32>>{%arg1}
      return
    }
  }
}
// CHECK-LABEL: stream.executable private @ex {
// CHECK-NEXT:    stream.executable.export public @set_encoding
// CHECK-NEXT:    builtin.module {
// CHECK:           stream.binding.subspan %arg0[%c0] : !stream.binding -> !flow.dispatch.tensor<readonly:tensor<?xf32>>{%arg1}

// -----

#map = affine_map<(d0, d1, d2) -> (d0, d2)>
#map1 = affine_map<(d0, d1, d2) -> (d2, d1)>
#map2 = affine_map<(d0, d1, d2) -> (d0, d1)>
#encoding = #iree_encoding.encoding<operand_index = 0 : index, op_type = matmul, element_types = [f32, f32, f32], user_indexing_maps = [#map, #map1, #map2], iteration_sizes = [?, ?, ?]>
func.func @tensor_sizeof(%arg0: index, %arg1: index) -> (index, index, index) {
  %0 = stream.tensor.sizeof on(#hal.device.affinity<@__device_0>) tensor<?x?xf32>{%arg0, %arg1} : index
  %1 = stream.tensor.sizeof on(#hal.device.affinity<@__device_0>) tensor<?x?xf32, #encoding>{%arg0, %arg1} : index
  %2 = stream.tensor.sizeof tensor<4x8xi8> : index
  return %0, %1, %2 : index, index, index
}
// CHECK-LABEL: func.func @tensor_sizeof(
// CHECK:         stream.tensor.sizeof on(#hal.device.affinity<@__device_0>) tensor<?x?xf32>{%arg0, %arg1} : index
// CHECK:         stream.tensor.sizeof on(#hal.device.affinity<@__device_0>) tensor<?x?xf32, #encoding>{%arg0, %arg1} : index
// CHECK:         stream.tensor.sizeof tensor<4x8xi8> : index

// -----

func.func @tensor_import_export(%arg0: !hal.buffer_view, %arg1: index, %arg2: index, %arg3: index) -> !hal.buffer_view {
  %0 = stream.tensor.import on(#hal.device.affinity<@__device_0>) %arg0 : !hal.buffer_view -> tensor<?x?xf32>{%arg1, %arg2} in !stream.resource<external>{%arg3}
  %1 = stream.tensor.import consume %arg0 : !hal.buffer_view -> tensor<4xf32> in !stream.resource<external>{%arg3}
  %2 = stream.tensor.export on(#hal.device.affinity<@__device_0>) %0 : tensor<?x?xf32>{%arg1, %arg2} in !stream.resource<external>{%arg3} -> !hal.buffer_view
  return %2 : !hal.buffer_view
}
// CHECK-LABEL: func.func @tensor_import_export(
// CHECK:         %[[R:.+]] = stream.tensor.import on(#hal.device.affinity<@__device_0>) %arg0 : !hal.buffer_view -> tensor<?x?xf32>{%arg1, %arg2} in !stream.resource<external>{%arg3}
// CHECK:         stream.tensor.import consume %arg0 : !hal.buffer_view -> tensor<4xf32> in !stream.resource<external>{%arg3}
// CHECK:         stream.tensor.export on(#hal.device.affinity<@__device_0>) %[[R]] : tensor<?x?xf32>{%arg1, %arg2} in !stream.resource<external>{%arg3} -> !hal.buffer_view

// -----

#map = affine_map<(d0, d1, d2) -> (d0, d2)>
#map1 = affine_map<(d0, d1, d2) -> (d2, d1)>
#map2 = affine_map<(d0, d1, d2) -> (d0, d1)>
#encoding = #iree_encoding.encoding<operand_index = 0 : index, op_type = matmul, element_types = [f32, f32, f32], user_indexing_maps = [#map, #map1, #map2], iteration_sizes = [?, ?, ?]>
func.func @tensor_encode(%arg0: !stream.resource<*>, %arg1: index, %arg2: index, %arg3: index, %arg4: index) -> !stream.resource<*> {
  %0 = stream.tensor.encode on(#hal.device.affinity<@__device_0>) %arg0 : tensor<?x?xf32>{%arg1, %arg2} in !stream.resource<*>{%arg3} -> tensor<?x?xf32, #encoding>{%arg1, %arg2} in !stream.resource<*>{%arg4}
  return %0 : !stream.resource<*>
}
// CHECK-LABEL: func.func @tensor_encode(
// CHECK:         stream.tensor.encode on(#hal.device.affinity<@__device_0>) %arg0 : tensor<?x?xf32>{%arg1, %arg2} in !stream.resource<*>{%arg3} -> tensor<?x?xf32, #encoding>{%arg1, %arg2} in !stream.resource<*>{%arg4}

// -----

// The walkthrough's dispatch in tensor form: encoded tensors in resources,
// then plain index arguments.

func.func @tensor_dispatch(%arg0: !stream.resource<*>, %arg1: !stream.resource<*>, %arg2: index, %arg3: index, %arg4: index, %arg5: index, %arg6: index) -> !stream.resource<*> {
  %0 = stream.tensor.dispatch on(#hal.device.affinity<@__device_0>) @ex::@entry[%arg2, %arg3](%arg0, %arg1, %arg2, %arg3) : (tensor<?x?xf32, "lhs">{%arg2, %arg3} in !stream.resource<*>{%arg4}, tensor<?x4xf32, "rhs">{%arg3} in !stream.resource<*>{%arg5}, index, index) -> tensor<?x4xf32>{%arg2} in !stream.resource<*>{%arg6}
  return %0 : !stream.resource<*>
}
// CHECK-LABEL: func.func @tensor_dispatch(
// CHECK:         stream.tensor.dispatch on(#hal.device.affinity<@__device_0>) @ex::@entry[%arg2, %arg3](%arg0, %arg1, %arg2, %arg3) : (tensor<?x?xf32, "lhs">{%arg2, %arg3} in !stream.resource<*>{%arg4}, tensor<?x4xf32, "rhs">{%arg3} in !stream.resource<*>{%arg5}, index, index) -> tensor<?x4xf32>{%arg2} in !stream.resource<*>{%arg6}

// -----

// A single result may be written in parentheses; results may reuse an
// operand's resource; a result need not be a tensor.

func.func @tensor_dispatch_forms(%arg0: !stream.resource<*>, %arg1: index, %arg2: index) -> (!stream.resource<*>, !stream.resource<*>, !stream.resource<transient>) {
  %0 = stream.tensor.dispatch @ex::@entry(%arg0, %arg1) : (tensor<?xf32>{%arg1} in !stream.resource<*>{%arg2}, index) -> (tensor<?xf32, "enc">{%arg1} in !stream.resource<*>{%arg2})
  %1:2 = stream.tensor.dispatch @ex::@entry(%arg0) : (tensor<?xf32>{%arg1} in !stream.resource<*>{%arg2}) -> (tensor<?xf32>{%arg1} in %arg0{%arg2}, !stream.resource<transient>{%arg2})
  return %0, %1#0, %1#1 : !stream.resource<*>, !stream.resource<*>, !stream.resource<transient>
}
// CHECK-LABEL: func.func @tensor_dispatch_forms(
// CHECK:         stream.tensor.dispatch @ex::@entry(%arg0, %arg1) : (tensor<?xf32>{%arg1} in !stream.resource<*>{%arg2}, index) -> tensor<?xf32, "enc">{%arg1} in !stream.resource<*>{%arg2}
// CHECK:         stream.tensor.dispatch @ex::@entry(%arg0) : (tensor<?xf32>{%arg1} in !stream.resource<*>{%arg2}) -> (tensor<?xf32>{%arg1} in %arg0{%arg2}, !stream.resource<transient>{%arg2})

// -----

func.func @async_dispatch(%arg0: !stream.resource<*>, %arg1: !stream.resource<*>, %arg2: index, %arg3: index, %arg4: index, %arg5: index, %arg6: index, %arg7: index) -> !stream.resource<*> {
  %0 = stream.async.dispatch on(#hal.device.affinity<@__device_0>) @ex::@entry[%arg2, %arg3](%arg0[%arg4 to %arg5 for %arg5], %arg1[%arg4 to %arg6 for %arg6], %arg2, %arg3) : (!stream.resource<*>{%arg5}, !stream.resource<*>{%arg6}, index, index) -> !stream.resource<*>{%arg7}
  %1 = stream.async.dispatch @ex::@entry(%0[%arg4 to %arg7 for %arg7]) : (!stream.resource<*>{%arg7}) -> %0{%arg7}
  return %1 : !stream.resource<*>
}
// CHECK-LABEL: func.func @async_dispatch(
// CHECK:         %[[R:.+]] = stream.async.dispatch on(#hal.device.affinity<@__device_0>) @ex::@entry[%arg2, %arg3](%arg0[%arg4 to %arg5 for %arg5], %arg1[%arg4 to %arg6 for %arg6], %arg2, %arg3) : (!stream.resource<*>{%arg5}, !stream.resource<*>{%arg6}, index, index) -> !stream.resource<*>{%arg7}
// CHECK:         stream.async.dispatch @ex::@entry(%[[R]][%arg4 to %arg7 for %arg7]) : (!stream.resource<*>{%arg7}) -> %[[R]]{%arg7}

// -----

func.func @async_transfer(%arg0: !stream.resource<external>, %arg1: index) -> (!stream.resource<*>, !stream.resource<staging>) {
  %0 = stream.async.transfer %arg0 : !stream.resource<external>{%arg1} from(#hal.device.affinity<@__device_0>) -> to(#hal.device.affinity<@__device_0>) !stream.resource<*>{%arg1}
  %1 = stream.async.transfer on(#hal.device.affinity<@__device_0>) %0 : !stream.resource<*>{%arg1} -> !stream.resource<staging>{%arg1}
  return %0, %1 : !stream.resource<*>, !stream.resource<staging>
}
// CHECK-LABEL: func.func @async_transfer(
// CHECK:         %[[T:.+]] = stream.async.transfer %arg0 : !stream.resource<external>{%arg1} from(#hal.device.affinity<@__device_0>) -> to(#hal.device.affinity<@__device_0>) !stream.resource<*>{%arg1}
// CHECK:         stream.async.transfer on(#hal.device.affinity<@__device_0>) %[[T]] : !stream.resource<*>{%arg1} -> !stream.resource<staging>{%arg1}

// -----

// The constant-weight example of IREE 3.13.

func.func @constants(%arg0: index) -> (!stream.resource<external>, index) {
  %cst = stream.tensor.constant on(#hal.device.affinity<@__device_0>) : tensor<256x512xf32> in !stream.resource<constant> = dense_resource<__elided__> : tensor<256x512xf32>
  %0 = stream.resource.size %cst : !stream.resource<constant>
  %1 = stream.async.constant on(#hal.device.affinity<@__device_0>) : !stream.resource<constant>{%arg0} = dense<1.000000e+00> : tensor<4xf32>
  %2 = stream.async.clone on(#hal.device.affinity<@__device_0>) %1 : !stream.resource<constant>{%arg0} -> !stream.resource<*>{%arg0}
  %3 = stream.async.cast on(#hal.device.affinity<@__device_0>) %2 : !stream.resource<*>{%arg0} -> !stream.resource<external>{%arg0}
  return %3, %0 : !stream.resource<external>, index
}
// CHECK-LABEL: func.func @constants(
// CHECK:         %[[CST:.+]] = stream.tensor.constant on(#hal.device.affinity<@__device_0>) : tensor<256x512xf32> in !stream.resource<constant> = dense_resource<__elided__> : tensor<256x512xf32>
// CHECK:         stream.resource.size %[[CST]] : !stream.resource<constant>
// CHECK:         %[[C:.+]] = stream.async.constant on(#hal.device.affinity<@__device_0>) : !stream.resource<constant>{%arg0} = dense<1.000000e+00> : tensor<4xf32>
// CHECK:         %[[CL:.+]] = stream.async.clone on(#hal.device.affinity<@__device_0>) %[[C]] : !stream.resource<constant>{%arg0} -> !stream.resource<*>{%arg0}
// CHECK:         stream.async.cast on(#hal.device.affinity<@__device_0>) %[[CL]] : !stream.resource<*>{%arg0} -> !stream.resource<external>{%arg0}

// -----

// stream.affinity.default is a plain attribute name holding a hal affinity.

module attributes {stream.affinity.default = #hal.device.affinity<@__device_0>} {
  func.func @affinity_attribute() attributes {stream.affinity = #hal.device.affinity<@__device_0>} {
    return
  }
}
// CHECK: module attributes {stream.affinity.default = #hal.device.affinity<@__device_0>} {
// CHECK-LABEL: func.func @affinity_attribute() attributes {stream.affinity = #hal.device.affinity<@__device_0>} {
