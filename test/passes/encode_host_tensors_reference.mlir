// REQUIRES: shared
// RUN: mini-iree-opt %shared/reference/seed-walkthrough/13-specialize-encodings.after.mlir -p iree-stream-encode-host-tensors --mlir-print-local-scope | filecheck %s --check-prefix=SEED
// RUN: mini-iree-opt %shared/reference/iree-3.13/dynamic-matmul/10_SpecializeEncodingsPass.mlir -p 'iree-stream-encode-host-tensors{era=3.13}' --mlir-print-local-scope | filecheck %s --check-prefix=DYN
// RUN: mini-iree-opt %shared/reference/iree-3.13/const-weight-matmul/10_SpecializeEncodingsPass.mlir -p 'iree-stream-encode-host-tensors{era=3.13}' --mlir-print-local-scope | filecheck %s --check-prefix=CONST
// RUN: mini-iree-opt %shared/reference/iree-3.13/elementwise-producer-consumer/10_SpecializeEncodingsPass.mlir -p 'iree-stream-encode-host-tensors{era=3.13}' | filecheck %s --check-prefix=EW

// The walkthrough: dump 13 (after specialize-encodings) -> dump 16, line for line. Dump 16 prints the
// function alone (layouts inline, its attributes left out); the executable is unchanged.

// SEED-LABEL: util.func public @matmul_f32f32f32(%arg0: !hal.buffer_view, %arg1: !hal.buffer_view) -> !hal.buffer_view
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
// SEED-NEXT: %18 = stream.tensor.encode on(#hal.device.affinity<@__device_0>) %5 : tensor<?x?xf32>{%0, %1} in !stream.resource<*>{%3} -> tensor<?x?xf32, #iree_encoding.layout<[#iree_gpu.gpu_encoding_resolver<configuration = {encoding_info = {innerDimsPos = [0, 1], innerTileSizes = [128, 16], outerDimsPerm = [0, 1], swizzle = {expandShape = {{\[\[\[}}"CrossThread", 4 : i16], ["CrossIntrinsic", 8 : i16], ["CrossThread", 4 : i16]], {{\[\[}}"CrossIntrinsic", 4 : i16], ["CrossThread", 4 : i16]]], permutation = [1, 4, 0, 2, 3]}}}>]>>{%0, %1} in !stream.resource<*>{%17}
// SEED-NEXT: %19 = arith.ceildivsi %7, %c128 : index
// SEED-NEXT: %20 = arith.muli %19, %c128 : index
// SEED-NEXT: %21 = arith.ceildivsi %6, %c16 : index
// SEED-NEXT: %22 = arith.muli %21, %c16 : index
// SEED-NEXT: %23 = arith.muli %22, %c4 : index
// SEED-NEXT: %24 = arith.muli %23, %20 : index
// SEED-NEXT: %25 = stream.tensor.encode on(#hal.device.affinity<@__device_0>) %11 : tensor<?x?xf32>{%6, %7} in !stream.resource<*>{%9} -> tensor<?x?xf32, #iree_encoding.layout<[#iree_gpu.gpu_encoding_resolver<configuration = {encoding_info = {innerDimsPos = [1, 0], innerTileSizes = [128, 16], outerDimsPerm = [1, 0], swizzle = {expandShape = {{\[\[\[}}"CrossThread", 4 : i16], ["CrossThread", 16 : i16], ["CrossIntrinsic", 2 : i16]], {{\[\[}}"CrossIntrinsic", 4 : i16], ["CrossThread", 4 : i16]]], permutation = [0, 2, 4, 1, 3]}}}>]>>{%6, %7} in !stream.resource<*>{%24}
// SEED-NEXT: %26 = arith.muli %0, %c4 : index
// SEED-NEXT: %27 = arith.muli %26, %7 : index
// SEED-NEXT: %28 = stream.async.dispatch on(#hal.device.affinity<@__device_0>) @matmul_f32f32f32_dispatch_0::@matmul_f32f32f32_dispatch_0_matmul_DxDxD_f32[%0, %1, %6, %7](%18[%c0 to %17 for %17], %25[%c0 to %24 for %24], %0, %1, %6, %7) : (!stream.resource<*>{%17}, !stream.resource<*>{%24}, index, index, index, index) -> !stream.resource<*>{%27}
// SEED-NEXT: %29 = stream.async.transfer %28 : !stream.resource<*>{%27} from(#hal.device.affinity<@__device_0>) -> to(#hal.device.affinity<@__device_0>) !stream.resource<external>{%27}
// SEED-NEXT: %30 = stream.tensor.export on(#hal.device.affinity<@__device_0>) %29 : tensor<?x?xf32>{%0, %7} in !stream.resource<external>{%27} -> !hal.buffer_view
// SEED-NEXT: util.return %30 : !hal.buffer_view
// SEED-NEXT: }

// IREE 3.13, dynamic matmul on x86 (dump 11): 8x1 tiles, 3.13's overflow<nsw> on the layout arithmetic.

// DYN-LABEL: util.func public @matmul_f32f32f32(
// DYN-NEXT:    %c0 = arith.constant 0 : index
// DYN-NEXT:    %c8 = arith.constant 8 : index
// DYN-NEXT:    %c4 = arith.constant 4 : index
// DYN:         %2 = arith.muli %0, %c4 : index
// DYN-NEXT:    %3 = arith.muli %2, %1 : index
// DYN:         %12 = arith.ceildivsi %0, %c8 : index
// DYN-NEXT:    %13 = arith.muli %12, %c8 overflow<nsw> : index
// DYN-NEXT:    %14 = arith.muli %13, %c4 overflow<nsw> : index
// DYN-NEXT:    %15 = arith.muli %14, %1 overflow<nsw> : index
// DYN-NEXT:    %16 = stream.tensor.encode on(#hal.device.affinity<@__device_0>) %5 : tensor<?x?xf32>{%0, %1} in !stream.resource<*>{%3} -> tensor<?x?xf32, #iree_encoding.layout<[#iree_cpu.cpu_encoding_resolver<configuration = {encoding_info = {innerDimsPos = [0, 1], innerTileSizes = [8, 1], outerDimsPerm = [0, 1]}}>]>>{%0, %1} in !stream.resource<*>{%15}
// DYN-NEXT:    %17 = arith.ceildivsi %7, %c8 : index
// DYN-NEXT:    %18 = arith.muli %17, %c8 overflow<nsw> : index
// DYN-NEXT:    %19 = arith.muli %6, %c4 overflow<nsw> : index
// DYN-NEXT:    %20 = arith.muli %19, %18 overflow<nsw> : index
// DYN:         %24 = stream.async.dispatch on(#hal.device.affinity<@__device_0>) @matmul_f32f32f32_dispatch_0::@matmul_f32f32f32_dispatch_0_matmul_DxDxD_f32[%0, %7, %1, %6](%16[%c0 to %15 for %15], %21[%c0 to %20 for %20], %0, %7, %1, %6) : (!stream.resource<*>{%15}, !stream.resource<*>{%20}, index, index, index, index) -> !stream.resource<*>{%23}

// IREE 3.13, constant weight (dumps 11 and 12): the initializer's constant takes its size (256x512 f32, its
// N = 512 already a multiple of the 8-wide tile: 524288 bytes) and stream.resource.size folds to it.

// CONST-LABEL: util.initializer {
// CONST-NEXT:    %c524288 = arith.constant 524288 : index
// CONST-NEXT:    %cst = stream.async.constant on(#hal.device.affinity<@__device_0>) : !stream.resource<constant>{%c524288} = dense_resource<__elided__> : tensor<256x512xf32>
// CONST-NEXT:    %0 = stream.async.clone on(#hal.device.affinity<@__device_0>) %cst : !stream.resource<constant>{%c524288} -> !stream.resource<*>{%c524288}
// CONST-NEXT:    %1 = stream.tensor.encode on(#hal.device.affinity<@__device_0>) %0 : tensor<256x512xf32> in !stream.resource<*>{%c524288} -> tensor<256x512xf32, #iree_encoding.layout<[#iree_cpu.cpu_encoding_resolver<configuration = {encoding_info = {innerDimsPos = [1, 0], innerTileSizes = [8, 1], outerDimsPerm = [1, 0]}}>]>> in !stream.resource<*>{%c524288}
// CONST:         util.global.store %c524288, @__hoisted_tensor_256x512xf32__encoded__size : index
// CONST-LABEL: util.func public @matmul_const(
// CONST-NEXT:    %c0 = arith.constant 0 : index
// CONST-NEXT:    %c2048 = arith.constant 2048 : index
// CONST-NEXT:    %c8 = arith.constant 8 : index
// CONST-NEXT:    %c1024 = arith.constant 1024 : index
// CONST-NEXT:    %c256 = arith.constant 256 : index
// CONST:         %2 = arith.muli %1, %c1024 : index
// CONST:         %5 = arith.ceildivsi %1, %c8 : index
// CONST-NEXT:    %6 = arith.muli %5, %c8 overflow<nsw> : index
// CONST-NEXT:    %7 = arith.muli %6, %c1024 overflow<nsw> : index
// CONST:         %9 = arith.muli %1, %c2048 : index
// CONST-NEXT:    %10 = stream.async.dispatch on(#hal.device.affinity<@__device_0>) @matmul_const_dispatch_0::@matmul_const_dispatch_0_matmul_Dx512x256_f32[%1](%8[%c0 to %7 for %7], %0[%c0 to %__hoisted_tensor_256x512xf32__encoded__size for %__hoisted_tensor_256x512xf32__encoded__size], %1) : (!stream.resource<*>{%7}, !stream.resource<*>{%__hoisted_tensor_256x512xf32__encoded__size}, index) -> !stream.resource<*>{%9}

// IREE 3.13, elementwise producer and consumer: the N-only bias layout pads its one dim.

// EW-LABEL: util.func public
// EW-NOT:     stream.tensor.sizeof
// EW:         %30 = arith.ceildivsi %16, %c8 : index
// EW-NEXT:    %31 = arith.muli %30, %c8 overflow<nsw> : index
// EW-NEXT:    %32 = arith.muli %31, %c4 overflow<nsw> : index
// EW-NEXT:    %33 = stream.tensor.encode on(#hal.device.affinity<@__device_0>) %19 : tensor<?xf32>{%16} in !stream.resource<*>{%17} -> tensor<?xf32, #encoding2>{%16} in !stream.resource<*>{%32}
// EW-NOT:     stream.tensor.dispatch
// EW:         util.return
