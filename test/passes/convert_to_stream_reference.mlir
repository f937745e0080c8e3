// REQUIRES: shared
// RUN: mini-iree-opt %shared/reference/seed-walkthrough/09-convert-to-stream.before.mlir -p iree-stream-conversion | filecheck %s

// The walkthrough's ConvertToStream step: dump 09 (flow executables, hal
// import/export, flow.tensor.encode, flow.dispatch) becomes dump 10 line for
// line, up to SSA value names.

// CHECK: module attributes {stream.affinity.default = #hal.device.affinity<@__device_0>} {
// CHECK-NEXT: util.global private @__device_0 = #device_target_hip
// CHECK-NEXT: stream.executable private @matmul_f32f32f32_dispatch_0 {
// CHECK-NEXT: stream.executable.export public @matmul_f32f32f32_dispatch_0_matmul_DxDxD_f32 workgroups(%[[VARG0:[a-zA-Z0-9_]+]]: index, %[[VARG1:[a-zA-Z0-9_]+]]: index, %[[VARG2:[a-zA-Z0-9_]+]]: index, %[[VARG3:[a-zA-Z0-9_]+]]: index) -> (index, index, index) {
// CHECK-NEXT: %[[VX:[a-zA-Z0-9_]+]], %[[VY:[a-zA-Z0-9_]+]], %[[VZ:[a-zA-Z0-9_]+]] = iree_tensor_ext.dispatch.workgroup_count_from_slice(%[[VARG0]], %[[VARG1]], %[[VARG2]], %[[VARG3]])
// CHECK-NEXT: stream.return %[[VX]], %[[VY]], %[[VZ]] : index, index, index
// CHECK-NEXT: }
// CHECK-NEXT: builtin.module {
// CHECK-NEXT: func.func @matmul_f32f32f32_dispatch_0_matmul_DxDxD_f32(%[[VARG0:[a-zA-Z0-9_]+]]: !stream.binding, %[[VARG1:[a-zA-Z0-9_]+]]: !stream.binding, %[[VARG2:[a-zA-Z0-9_]+]]: index, %[[VARG3:[a-zA-Z0-9_]+]]: index, %[[VARG4:[a-zA-Z0-9_]+]]: index, %[[VARG5:[a-zA-Z0-9_]+]]: index, %[[VARG6:[a-zA-Z0-9_]+]]: !stream.binding) {
// CHECK-NEXT: %[[VC0:[a-zA-Z0-9_]+]] = arith.constant 0 : index
// CHECK-NEXT: %[[VCST:[a-zA-Z0-9_]+]] = arith.constant 0.000000e+00 : f32
// CHECK-NEXT: %[[V0:[a-zA-Z0-9_]+]] = iree_tensor_ext.dispatch.workload.ordinal %[[VARG2]], 0 : index
// CHECK-NEXT: %[[V1:[a-zA-Z0-9_]+]] = iree_tensor_ext.dispatch.workload.ordinal %[[VARG3]], 1 : index
// CHECK-NEXT: %[[V2:[a-zA-Z0-9_]+]] = iree_tensor_ext.dispatch.workload.ordinal %[[VARG4]], 2 : index
// CHECK-NEXT: %[[V3:[a-zA-Z0-9_]+]] = iree_tensor_ext.dispatch.workload.ordinal %[[VARG5]], 3 : index
// CHECK-NEXT: %[[V4:[a-zA-Z0-9_]+]] = stream.binding.subspan %[[VARG0]][%[[VC0]]] : !stream.binding -> !iree_tensor_ext.dispatch.tensor<readonly:tensor<?x?xf32, #encoding>>{%[[V0]], %[[V1]]}
// CHECK-NEXT: %[[V5:[a-zA-Z0-9_]+]] = stream.binding.subspan %[[VARG1]][%[[VC0]]] : !stream.binding -> !iree_tensor_ext.dispatch.tensor<readonly:tensor<?x?xf32, #encoding1>>{%[[V2]], %[[V3]]}
// CHECK-NEXT: %[[V6:[a-zA-Z0-9_]+]] = stream.binding.subspan %[[VARG6]][%[[VC0]]] : !stream.binding -> !iree_tensor_ext.dispatch.tensor<writeonly:tensor<?x?xf32>>{%[[V0]], %[[V3]]}
// CHECK-NEXT: %[[V7:[a-zA-Z0-9_]+]] = iree_tensor_ext.dispatch.tensor.load %[[V4]], offsets = [0, 0], sizes = [%[[V0]], %[[V1]]], strides = [1, 1] : !iree_tensor_ext.dispatch.tensor<readonly:tensor<?x?xf32, #encoding>>{%[[V0]], %[[V1]]} -> tensor<?x?xf32, #encoding>
// CHECK-NEXT: %[[V8:[a-zA-Z0-9_]+]] = iree_tensor_ext.dispatch.tensor.load %[[V5]], offsets = [0, 0], sizes = [%[[V2]], %[[V3]]], strides = [1, 1] : !iree_tensor_ext.dispatch.tensor<readonly:tensor<?x?xf32, #encoding1>>{%[[V2]], %[[V3]]} -> tensor<?x?xf32, #encoding1>
// CHECK-NEXT: %[[V9:[a-zA-Z0-9_]+]] = tensor.empty(%[[V0]], %[[V3]]) : tensor<?x?xf32, #encoding2>
// CHECK-NEXT: %[[V10:[a-zA-Z0-9_]+]] = linalg.fill ins(%[[VCST]] : f32) outs(%[[V9]] : tensor<?x?xf32, #encoding2>) -> tensor<?x?xf32, #encoding2>
// CHECK-NEXT: %[[V11:[a-zA-Z0-9_]+]] = linalg.matmul ins(%[[V7]], %[[V8]] : tensor<?x?xf32, #encoding>, tensor<?x?xf32, #encoding1>) outs(%[[V10]] : tensor<?x?xf32, #encoding2>) -> tensor<?x?xf32, #encoding2>
// CHECK-NEXT: %[[V12:[a-zA-Z0-9_]+]] = iree_encoding.unset_encoding %[[V11]] : tensor<?x?xf32, #encoding2> -> tensor<?x?xf32>{%[[V0]], %[[V3]]}
// CHECK-NEXT: iree_tensor_ext.dispatch.tensor.store %[[V12]], %[[V6]], offsets = [0, 0], sizes = [%[[V0]], %[[V3]]], strides = [1, 1] : tensor<?x?xf32> -> !iree_tensor_ext.dispatch.tensor<writeonly:tensor<?x?xf32>>{%[[V0]], %[[V3]]}
// CHECK-NEXT: return
// CHECK-NEXT: }
// CHECK-NEXT: }
// CHECK-NEXT: }
// CHECK-NEXT: util.func public @matmul_f32f32f32(%[[VARG0:[a-zA-Z0-9_]+]]: !hal.buffer_view, %[[VARG1:[a-zA-Z0-9_]+]]: !hal.buffer_view) -> !hal.buffer_view attributes {iree.abi.stub, iree.reflection = {iree.abi.declaration = "sync func @matmul_f32f32f32(%input0: tensor<?x?xf32>, %input1: tensor<?x?xf32>) -> (%output0: tensor<?x?xf32>)"}} {
// CHECK-NEXT: %[[V0:[a-zA-Z0-9_]+]] = hal.buffer_view.dim<%[[VARG0]] : !hal.buffer_view>[0] : index
// CHECK-NEXT: %[[V1:[a-zA-Z0-9_]+]] = hal.buffer_view.dim<%[[VARG0]] : !hal.buffer_view>[1] : index
// CHECK-NEXT: %[[VELEMENT_TYPE_F32:[a-zA-Z0-9_]+]] = hal.element_type<f32> : i32
// CHECK-NEXT: %[[VDENSE_ROW_MAJOR:[a-zA-Z0-9_]+]] = hal.encoding_type<dense_row_major> : i32
// CHECK-NEXT: hal.buffer_view.assert<%[[VARG0]] : !hal.buffer_view> message("input0") shape([%[[V0]], %[[V1]]]) type(%[[VELEMENT_TYPE_F32]]) encoding(%[[VDENSE_ROW_MAJOR]])
// CHECK-NEXT: %[[V2:[a-zA-Z0-9_]+]] = stream.tensor.sizeof on(#hal.device.affinity<@__device_0>) tensor<?x?xf32>{%[[V0]], %[[V1]]} : index
// CHECK-NEXT: %[[V3:[a-zA-Z0-9_]+]] = stream.tensor.import on(#hal.device.affinity<@__device_0>) %[[VARG0]] : !hal.buffer_view -> tensor<?x?xf32>{%[[V0]], %[[V1]]} in !stream.resource<external>{%[[V2]]}
// CHECK-NEXT: %[[V4:[a-zA-Z0-9_]+]] = stream.async.transfer %[[V3]] : !stream.resource<external>{%[[V2]]} from(#hal.device.affinity<@__device_0>) -> to(#hal.device.affinity<@__device_0>) !stream.resource<*>{%[[V2]]}
// CHECK-NEXT: %[[V5:[a-zA-Z0-9_]+]] = hal.buffer_view.dim<%[[VARG1]] : !hal.buffer_view>[0] : index
// CHECK-NEXT: %[[V6:[a-zA-Z0-9_]+]] = hal.buffer_view.dim<%[[VARG1]] : !hal.buffer_view>[1] : index
// CHECK-NEXT: %[[VELEMENT_TYPE_F32_0:[a-zA-Z0-9_]+]] = hal.element_type<f32> : i32
// CHECK-NEXT: %[[VDENSE_ROW_MAJOR_1:[a-zA-Z0-9_]+]] = hal.encoding_type<dense_row_major> : i32
// CHECK-NEXT: hal.buffer_view.assert<%[[VARG1]] : !hal.buffer_view> message("input1") shape([%[[V5]], %[[V6]]]) type(%[[VELEMENT_TYPE_F32_0]]) encoding(%[[VDENSE_ROW_MAJOR_1]])
// CHECK-NEXT: %[[V7:[a-zA-Z0-9_]+]] = stream.tensor.sizeof on(#hal.device.affinity<@__device_0>) tensor<?x?xf32>{%[[V5]], %[[V6]]} : index
// CHECK-NEXT: %[[V8:[a-zA-Z0-9_]+]] = stream.tensor.import on(#hal.device.affinity<@__device_0>) %[[VARG1]] : !hal.buffer_view -> tensor<?x?xf32>{%[[V5]], %[[V6]]} in !stream.resource<external>{%[[V7]]}
// CHECK-NEXT: %[[V9:[a-zA-Z0-9_]+]] = stream.async.transfer %[[V8]] : !stream.resource<external>{%[[V7]]} from(#hal.device.affinity<@__device_0>) -> to(#hal.device.affinity<@__device_0>) !stream.resource<*>{%[[V7]]}
// CHECK-NEXT: %[[V10:[a-zA-Z0-9_]+]] = stream.tensor.sizeof on(#hal.device.affinity<@__device_0>) tensor<?x?xf32, #encoding>{%[[V0]], %[[V1]]} : index
// CHECK-NEXT: %[[V11:[a-zA-Z0-9_]+]] = stream.tensor.encode on(#hal.device.affinity<@__device_0>) %[[V4]] : tensor<?x?xf32>{%[[V0]], %[[V1]]} in !stream.resource<*>{%[[V2]]} -> tensor<?x?xf32, #encoding>{%[[V0]], %[[V1]]} in !stream.resource<*>{%[[V10]]}
// CHECK-NEXT: %[[V12:[a-zA-Z0-9_]+]] = stream.tensor.sizeof on(#hal.device.affinity<@__device_0>) tensor<?x?xf32, #encoding1>{%[[V5]], %[[V6]]} : index
// CHECK-NEXT: %[[V13:[a-zA-Z0-9_]+]] = stream.tensor.encode on(#hal.device.affinity<@__device_0>) %[[V9]] : tensor<?x?xf32>{%[[V5]], %[[V6]]} in !stream.resource<*>{%[[V7]]} -> tensor<?x?xf32, #encoding1>{%[[V5]], %[[V6]]} in !stream.resource<*>{%[[V12]]}
// CHECK-NEXT: %[[V14:[a-zA-Z0-9_]+]] = stream.tensor.sizeof on(#hal.device.affinity<@__device_0>) tensor<?x?xf32>{%[[V0]], %[[V6]]} : index
// CHECK-NEXT: %[[V15:[a-zA-Z0-9_]+]] = stream.tensor.dispatch on(#hal.device.affinity<@__device_0>) @matmul_f32f32f32_dispatch_0::@matmul_f32f32f32_dispatch_0_matmul_DxDxD_f32[%[[V0]], %[[V1]], %[[V5]], %[[V6]]](%[[V11]], %[[V13]], %[[V0]], %[[V1]], %[[V5]], %[[V6]]) : (tensor<?x?xf32, #encoding>{%[[V0]], %[[V1]]} in !stream.resource<*>{%[[V10]]}, tensor<?x?xf32, #encoding1>{%[[V5]], %[[V6]]} in !stream.resource<*>{%[[V12]]}, index, index, index, index) -> tensor<?x?xf32>{%[[V0]], %[[V6]]} in !stream.resource<*>{%[[V14]]}
// CHECK-NEXT: %[[V16:[a-zA-Z0-9_]+]] = stream.async.transfer %[[V15]] : !stream.resource<*>{%[[V14]]} from(#hal.device.affinity<@__device_0>) -> to(#hal.device.affinity<@__device_0>) !stream.resource<external>{%[[V14]]}
// CHECK-NEXT: %[[V17:[a-zA-Z0-9_]+]] = stream.tensor.export on(#hal.device.affinity<@__device_0>) %[[V16]] : tensor<?x?xf32>{%[[V0]], %[[V6]]} in !stream.resource<external>{%[[V14]]} -> !hal.buffer_view
// CHECK-NEXT: util.return %[[V17]] : !hal.buffer_view
// CHECK-NEXT: }
// CHECK-NEXT: }
