// REQUIRES: shared
// RUN: mini-iree-opt %shared/reference/seed-walkthrough/13-specialize-encodings.after.mlir -p iree-stream-encode-host-tensors,iree-stream-encode-device-tensors,iree-stream-materialize-encodings | filecheck %s --check-prefix=SEED
// RUN: mini-iree-opt %shared/reference/iree-3.13/const-weight-matmul/10_SpecializeEncodingsPass.mlir -p 'iree-stream-encode-host-tensors{era=3.13},iree-stream-encode-device-tensors,iree-stream-materialize-encodings' | filecheck %s --check-prefix=CONST
// RUN: mini-iree-opt %shared/reference/iree-3.13/elementwise-producer-consumer/10_SpecializeEncodingsPass.mlir -p 'iree-stream-encode-host-tensors{era=3.13},iree-stream-encode-device-tensors,iree-stream-materialize-encodings' | filecheck %s --check-prefix=EW

// The walkthrough: dump 13 -> encode-host-tensors (dump 16) -> encode-device-tensors (no change on f32)
// -> materialize-encodings: dump 17, line for line.

// SEED-LABEL: module attributes {stream.affinity.default = #hal.device.affinity<@__device_0>} {
// SEED-NEXT: util.global private @__device_0 = #device_target_hip
// SEED-NEXT: stream.executable private @matmul_f32f32f32_dispatch_0 {
// SEED-NEXT: stream.executable.export public @matmul_f32f32f32_dispatch_0_matmul_DxDxD_f32 workgroups(%arg0: index, %arg1: index, %arg2: index, %arg3: index) -> (index, index, index) {
// SEED-NEXT: %x, %y, %z = iree_tensor_ext.dispatch.workgroup_count_from_slice(%arg0, %arg1, %arg2, %arg3)
// SEED-NEXT: stream.return %x, %y, %z : index, index, index
// SEED-NEXT: }
// SEED-NEXT: builtin.module {
// SEED-NEXT: func.func @matmul_f32f32f32_dispatch_0_matmul_DxDxD_f32(%arg0: !stream.binding, %arg1: !stream.binding, %arg2: index, %arg3: index, %arg4: index, %arg5: index, %arg6: !stream.binding) {
// SEED-NEXT: %c0 = arith.constant 0 : index
// SEED-NEXT: %cst = arith.constant 0.000000e+00 : f32
// SEED-NEXT: %0 = iree_tensor_ext.dispatch.workload.ordinal %arg2, 0 : index
// SEED-NEXT: %1 = iree_tensor_ext.dispatch.workload.ordinal %arg3, 1 : index
// SEED-NEXT: %2 = iree_tensor_ext.dispatch.workload.ordinal %arg4, 2 : index
// SEED-NEXT: %3 = iree_tensor_ext.dispatch.workload.ordinal %arg5, 3 : index
// SEED-NEXT: %4 = stream.binding.subspan %arg0[%c0] : !stream.binding -> !iree_tensor_ext.dispatch.tensor<readonly:tensor<?x?xf32, #encoding>>{%0, %1}
// SEED-NEXT: %5 = stream.binding.subspan %arg1[%c0] : !stream.binding -> !iree_tensor_ext.dispatch.tensor<readonly:tensor<?x?xf32, #encoding1>>{%2, %3}
// SEED-NEXT: %6 = stream.binding.subspan %arg6[%c0] : !stream.binding -> !iree_tensor_ext.dispatch.tensor<writeonly:tensor<?x?xf32>>{%0, %3}
// SEED-NEXT: %7 = iree_tensor_ext.dispatch.tensor.load %4, offsets = [0, 0], sizes = [%0, %1], strides = [1, 1] : !iree_tensor_ext.dispatch.tensor<readonly:tensor<?x?xf32, #encoding>>{%0, %1} -> tensor<?x?xf32, #encoding2>
// SEED-NEXT: %8 = iree_tensor_ext.dispatch.tensor.load %5, offsets = [0, 0], sizes = [%2, %3], strides = [1, 1] : !iree_tensor_ext.dispatch.tensor<readonly:tensor<?x?xf32, #encoding1>>{%2, %3} -> tensor<?x?xf32, #encoding3>
// SEED-NEXT: %9 = tensor.empty(%0, %3) : tensor<?x?xf32, #encoding4>
// SEED-NEXT: %10 = linalg.fill ins(%cst : f32) outs(%9 : tensor<?x?xf32, #encoding4>) -> tensor<?x?xf32, #encoding4>
// SEED-NEXT: %11 = linalg.matmul ins(%7, %8 : tensor<?x?xf32, #encoding2>, tensor<?x?xf32, #encoding3>) outs(%10 : tensor<?x?xf32, #encoding4>) -> tensor<?x?xf32, #encoding4>
// SEED-NEXT: %12 = iree_encoding.unset_encoding %11 : tensor<?x?xf32, #encoding4> -> tensor<?x?xf32>{%0, %3}
// SEED-NEXT: iree_tensor_ext.dispatch.tensor.store %12, %6, offsets = [0, 0], sizes = [%0, %3], strides = [1, 1] : tensor<?x?xf32> -> !iree_tensor_ext.dispatch.tensor<writeonly:tensor<?x?xf32>>{%0, %3}
// SEED-NEXT: return
// SEED-NEXT: }
// SEED-NEXT: }
// SEED-NEXT: }
// SEED-NEXT: stream.executable private @_encoding_0 {
// SEED-NEXT: stream.executable.export public @_encoding_0_encode_DxDxf32_to_DxDxf32 workgroups(%arg0: index, %arg1: index, %arg2: index, %arg3: index) -> (index, index, index) {
// SEED-NEXT: %x, %y, %z = iree_tensor_ext.dispatch.workgroup_count_from_slice(%arg0, %arg1, %arg2, %arg3)
// SEED-NEXT: stream.return %x, %y, %z : index, index, index
// SEED-NEXT: }
// SEED-NEXT: builtin.module {
// SEED-NEXT: func.func @_encoding_0_encode_DxDxf32_to_DxDxf32(%arg0: !stream.binding, %arg1: index, %arg2: index, %arg3: index, %arg4: index, %arg5: !stream.binding) {
// SEED-NEXT: %0 = iree_tensor_ext.dispatch.workload.ordinal %arg1, 0 : index
// SEED-NEXT: %1 = iree_tensor_ext.dispatch.workload.ordinal %arg2, 1 : index
// SEED-NEXT: %2 = iree_tensor_ext.dispatch.workload.ordinal %arg3, 2 : index
// SEED-NEXT: %3 = iree_tensor_ext.dispatch.workload.ordinal %arg4, 3 : index
// SEED-NEXT: %c0 = arith.constant 0 : index
// SEED-NEXT: %4 = stream.binding.subspan %arg0[%c0] : !stream.binding -> !iree_tensor_ext.dispatch.tensor<readonly:tensor<?x?xf32>>{%0, %1}
// SEED-NEXT: %5 = stream.binding.subspan %arg5[%c0] : !stream.binding -> !iree_tensor_ext.dispatch.tensor<writeonly:tensor<?x?xf32, #encoding>>{%2, %3}
// SEED-NEXT: %6 = iree_tensor_ext.dispatch.tensor.load %4, offsets = [0, 0], sizes = [%0, %1], strides = [1, 1] : !iree_tensor_ext.dispatch.tensor<readonly:tensor<?x?xf32>>{%0, %1} -> tensor<?x?xf32>
// SEED-NEXT: %7 = iree_encoding.set_encoding %6 : tensor<?x?xf32> -> tensor<?x?xf32, #encoding>
// SEED-NEXT: iree_tensor_ext.dispatch.tensor.store %7, %5, offsets = [0, 0], sizes = [%2, %3], strides = [1, 1] : tensor<?x?xf32, #encoding> -> !iree_tensor_ext.dispatch.tensor<writeonly:tensor<?x?xf32, #encoding>>{%2, %3}
// SEED-NEXT: return
// SEED-NEXT: }
// SEED-NEXT: }
// SEED-NEXT: }
// SEED-NEXT: stream.executable private @_encoding_1 {
// SEED-NEXT: stream.executable.export public @_encoding_1_encode_DxDxf32_to_DxDxf32 workgroups(%arg0: index, %arg1: index, %arg2: index, %arg3: index) -> (index, index, index) {
// SEED-NEXT: %x, %y, %z = iree_tensor_ext.dispatch.workgroup_count_from_slice(%arg0, %arg1, %arg2, %arg3)
// SEED-NEXT: stream.return %x, %y, %z : index, index, index
// SEED-NEXT: }
// SEED-NEXT: builtin.module {
// SEED-NEXT: func.func @_encoding_1_encode_DxDxf32_to_DxDxf32(%arg0: !stream.binding, %arg1: index, %arg2: index, %arg3: index, %arg4: index, %arg5: !stream.binding) {
// SEED-NEXT: %0 = iree_tensor_ext.dispatch.workload.ordinal %arg1, 0 : index
// SEED-NEXT: %1 = iree_tensor_ext.dispatch.workload.ordinal %arg2, 1 : index
// SEED-NEXT: %2 = iree_tensor_ext.dispatch.workload.ordinal %arg3, 2 : index
// SEED-NEXT: %3 = iree_tensor_ext.dispatch.workload.ordinal %arg4, 3 : index
// SEED-NEXT: %c0 = arith.constant 0 : index
// SEED-NEXT: %4 = stream.binding.subspan %arg0[%c0] : !stream.binding -> !iree_tensor_ext.dispatch.tensor<readonly:tensor<?x?xf32>>{%0, %1}
// SEED-NEXT: %5 = stream.binding.subspan %arg5[%c0] : !stream.binding -> !iree_tensor_ext.dispatch.tensor<writeonly:tensor<?x?xf32, #encoding1>>{%2, %3}
// SEED-NEXT: %6 = iree_tensor_ext.dispatch.tensor.load %4, offsets = [0, 0], sizes = [%0, %1], strides = [1, 1] : !iree_tensor_ext.dispatch.tensor<readonly:tensor<?x?xf32>>{%0, %1} -> tensor<?x?xf32>
// SEED-NEXT: %7 = iree_encoding.set_encoding %6 : tensor<?x?xf32> -> tensor<?x?xf32, #encoding1>
// SEED-NEXT: iree_tensor_ext.dispatch.tensor.store %7, %5, offsets = [0, 0], sizes = [%2, %3], strides = [1, 1] : tensor<?x?xf32, #encoding1> -> !iree_tensor_ext.dispatch.tensor<writeonly:tensor<?x?xf32, #encoding1>>{%2, %3}
// SEED-NEXT: return
// SEED-NEXT: }
// SEED-NEXT: }
// SEED-NEXT: }
// SEED-NEXT: util.func public @matmul_f32f32f32(%arg0: !hal.buffer_view, %arg1: !hal.buffer_view) -> !hal.buffer_view attributes {iree.abi.stub, iree.reflection = {iree.abi.declaration = "sync func @matmul_f32f32f32(%input0: tensor<?x?xf32>, %input1: tensor<?x?xf32>) -> (%output0: tensor<?x?xf32>)"}} {
// SEED-NEXT: %c0 = arith.constant 0 : index
// SEED-NEXT: %c16 = arith.constant 16 : index
// SEED-NEXT: %c128 = arith.constant 128 : index
// SEED-NEXT: %c4 = arith.constant 4 : index
// SEED-NEXT: %0 = hal.buffer_view.dim<%arg0 : !hal.buffer_view>[0] : index
// SEED-NEXT: %1 = hal.buffer_view.dim<%arg0 : !hal.buffer_view>[1] : index
// SEED-NEXT: %element_type_f32 = hal.element_type<f32> : i32
// SEED-NEXT: %dense_row_major = hal.encoding_type<dense_row_major> : i32
// SEED-NEXT: hal.buffer_view.assert<%arg0 : !hal.buffer_view> message("input0") shape([%0, %1]) type(%element_type_f32) encoding(%dense_row_major)
// SEED-NEXT: %2 = arith.muli %0, %c4 : index
// SEED-NEXT: %3 = arith.muli %2, %1 : index
// SEED-NEXT: %4 = stream.tensor.import on(#hal.device.affinity<@__device_0>) %arg0 : !hal.buffer_view -> tensor<?x?xf32>{%0, %1} in !stream.resource<external>{%3}
// SEED-NEXT: %5 = stream.async.transfer %4 : !stream.resource<external>{%3} from(#hal.device.affinity<@__device_0>) -> to(#hal.device.affinity<@__device_0>) !stream.resource<*>{%3}
// SEED-NEXT: %6 = hal.buffer_view.dim<%arg1 : !hal.buffer_view>[0] : index
// SEED-NEXT: %7 = hal.buffer_view.dim<%arg1 : !hal.buffer_view>[1] : index
// SEED-NEXT: hal.buffer_view.assert<%arg1 : !hal.buffer_view> message("input1") shape([%6, %7]) type(%element_type_f32) encoding(%dense_row_major)
// SEED-NEXT: %8 = arith.muli %6, %c4 : index
// SEED-NEXT: %9 = arith.muli %8, %7 : index
// SEED-NEXT: %10 = stream.tensor.import on(#hal.device.affinity<@__device_0>) %arg1 : !hal.buffer_view -> tensor<?x?xf32>{%6, %7} in !stream.resource<external>{%9}
// SEED-NEXT: %11 = stream.async.transfer %10 : !stream.resource<external>{%9} from(#hal.device.affinity<@__device_0>) -> to(#hal.device.affinity<@__device_0>) !stream.resource<*>{%9}
// SEED-NEXT: %12 = arith.ceildivsi %0, %c128 : index
// SEED-NEXT: %13 = arith.muli %12, %c128 : index
// SEED-NEXT: %14 = arith.ceildivsi %1, %c16 : index
// SEED-NEXT: %15 = arith.muli %14, %c16 : index
// SEED-NEXT: %16 = arith.muli %13, %c4 : index
// SEED-NEXT: %17 = arith.muli %16, %15 : index
// SEED-NEXT: %c0_0 = arith.constant 0 : index
// SEED-NEXT: %18 = stream.async.dispatch on(#hal.device.affinity<@__device_0>) @_encoding_0::@_encoding_0_encode_DxDxf32_to_DxDxf32[%0, %1, %0, %1](%5[%c0_0 to %3 for %3], %0, %1, %0, %1) : (!stream.resource<*>{%3}, index, index, index, index) -> !stream.resource<*>{%17}
// SEED-NEXT: %19 = arith.ceildivsi %7, %c128 : index
// SEED-NEXT: %20 = arith.muli %19, %c128 : index
// SEED-NEXT: %21 = arith.ceildivsi %6, %c16 : index
// SEED-NEXT: %22 = arith.muli %21, %c16 : index
// SEED-NEXT: %23 = arith.muli %22, %c4 : index
// SEED-NEXT: %24 = arith.muli %23, %20 : index
// SEED-NEXT: %c0_1 = arith.constant 0 : index
// SEED-NEXT: %25 = stream.async.dispatch on(#hal.device.affinity<@__device_0>) @_encoding_1::@_encoding_1_encode_DxDxf32_to_DxDxf32[%6, %7, %6, %7](%11[%c0_1 to %9 for %9], %6, %7, %6, %7) : (!stream.resource<*>{%9}, index, index, index, index) -> !stream.resource<*>{%24}
// SEED-NEXT: %26 = arith.muli %0, %c4 : index
// SEED-NEXT: %27 = arith.muli %26, %7 : index
// SEED-NEXT: %28 = stream.async.dispatch on(#hal.device.affinity<@__device_0>) @matmul_f32f32f32_dispatch_0::@matmul_f32f32f32_dispatch_0_matmul_DxDxD_f32[%0, %1, %6, %7](%18[%c0 to %17 for %17], %25[%c0 to %24 for %24], %0, %1, %6, %7) : (!stream.resource<*>{%17}, !stream.resource<*>{%24}, index, index, index, index) -> !stream.resource<*>{%27}
// SEED-NEXT: %29 = stream.async.transfer %28 : !stream.resource<*>{%27} from(#hal.device.affinity<@__device_0>) -> to(#hal.device.affinity<@__device_0>) !stream.resource<external>{%27}
// SEED-NEXT: %30 = stream.tensor.export on(#hal.device.affinity<@__device_0>) %29 : tensor<?x?xf32>{%0, %7} in !stream.resource<external>{%27} -> !hal.buffer_view
// SEED-NEXT: util.return %30 : !hal.buffer_view
// SEED-NEXT: }
// SEED-NEXT: }

// IREE 3.13, constant weight (dump 14): the initializer's encode gets @_encoding_0 (placed before the
// initializer), the function's encode @_encoding_1.

// CONST:       stream.executable private @_encoding_0 {
// CONST-NEXT:    stream.executable.export public @_encoding_0_encode_256x512xf32_to_256x512xf32 workgroups() -> (index, index, index) {
// CONST:       util.initializer {
// CONST:         %1 = stream.async.dispatch on(#hal.device.affinity<@__device_0>) @_encoding_0::@_encoding_0_encode_256x512xf32_to_256x512xf32(%0[%c0 to %c524288 for %c524288]) : (!stream.resource<*>{%c524288}) -> !stream.resource<*>{%c524288}
// CONST:       stream.executable private @matmul_const_dispatch_0 {
// CONST:       stream.executable private @_encoding_1 {
// CONST-NEXT:    stream.executable.export public @_encoding_1_encode_Dx256xf32_to_Dx256xf32 workgroups(%arg0: index, %arg1: index) -> (index, index, index) {
// CONST:       util.func public @matmul_const(
// CONST:         %8 = stream.async.dispatch on(#hal.device.affinity<@__device_0>) @_encoding_1::@_encoding_1_encode_Dx256xf32_to_Dx256xf32[%1, %1](%4[%c0_0 to %2 for %2], %1, %1) : (!stream.resource<*>{%2}, index, index) -> !stream.resource<*>{%7}

// IREE 3.13, elementwise producer and consumer (dump 14): the LHS encode was fused into the producer
// dispatch, so only the RHS and the 1-D bias get executables.

// EW:          stream.executable private @_encoding_0 {
// EW-NEXT:       stream.executable.export public @_encoding_0_encode_DxDxf32_to_DxDxf32 workgroups(%arg0: index, %arg1: index, %arg2: index, %arg3: index)
// EW:          stream.executable private @_encoding_1 {
// EW-NEXT:       stream.executable.export public @_encoding_1_encode_Dxf32_to_Dxf32 workgroups(%arg0: index, %arg1: index)
// EW-NOT:      stream.executable private @_encoding_2
// EW-NOT:      stream.tensor.encode
