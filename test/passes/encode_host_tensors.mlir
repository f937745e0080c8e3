// RUN: mini-iree-opt %s -p iree-stream-encode-host-tensors --split-input-file | filecheck %s
// RUN: mini-iree-opt %s -p 'iree-stream-encode-host-tensors{era=3.13}' --split-input-file | filecheck %s --check-prefix=NSW

// A plain tensor: element bytes times each dim, static dims folded into the constant.

util.func public @sizeof_plain_dynamic(%arg0: index, %arg1: index) -> (index, index) {
  %0 = stream.tensor.sizeof tensor<?x?xf32>{%arg0, %arg1} : index
  %1 = stream.tensor.sizeof tensor<?x5xf32>{%arg0} : index
  util.return %0, %1 : index, index
}
// Constants go to the top of the function, the last one placed first (as MLIR's folder places them).
// CHECK-LABEL: @sizeof_plain_dynamic(
// CHECK-NEXT:    %[[C20:.+]] = arith.constant 20 : index
// CHECK-NEXT:    %[[C4:.+]] = arith.constant 4 : index
// CHECK-NEXT:    %[[T0:.+]] = arith.muli %arg0, %[[C4]] : index
// CHECK-NEXT:    %[[S0:.+]] = arith.muli %[[T0]], %arg1 : index
// CHECK-NEXT:    %[[S1:.+]] = arith.muli %arg0, %[[C20]] : index
// CHECK-NEXT:    util.return %[[S0]], %[[S1]]
// NSW-LABEL: @sizeof_plain_dynamic(
// NSW-NOT:     overflow<nsw>
// NSW:         util.return

// -----

// Static shapes fold to IREE 3.13's numbers: 255x513 f32 is 523260 bytes plain,
// 525312 packed in 8x1 tiles (255 -> 256 rows); 513x1023 as an RHS (N tiled by 8) is 2101248.

#lhs = #iree_encoding.layout<[#iree_cpu.cpu_encoding_resolver<configuration = {encoding_info = {innerDimsPos = [0, 1], innerTileSizes = [8, 1], outerDimsPerm = [0, 1]}}>]>
#rhs = #iree_encoding.layout<[#iree_cpu.cpu_encoding_resolver<configuration = {encoding_info = {innerDimsPos = [1, 0], innerTileSizes = [8, 1], outerDimsPerm = [1, 0]}}>]>
util.func public @sizeof_static() -> (index, index, index) {
  %0 = stream.tensor.sizeof tensor<255x513xf32> : index
  %1 = stream.tensor.sizeof tensor<255x513xf32, #lhs> : index
  %2 = stream.tensor.sizeof tensor<513x1023xf32, #rhs> : index
  util.return %0, %1, %2 : index, index, index
}
// CHECK-LABEL: @sizeof_static(
// CHECK-DAG:     %[[PLAIN:.+]] = arith.constant 523260 : index
// CHECK-DAG:     %[[LHS:.+]] = arith.constant 525312 : index
// CHECK-DAG:     %[[RHS:.+]] = arith.constant 2101248 : index
// CHECK-NOT:     arith.muli
// CHECK:         util.return %[[PLAIN]], %[[LHS]], %[[RHS]]

// -----

// The walkthrough's gfx942 LHS (dump 16): each tiled dim rounded up to its tile,
// in innerDimsPos order, then dim0 * 4 * dim1. The swizzle does not change the size.

#lhs = #iree_encoding.layout<[#iree_gpu.gpu_encoding_resolver<configuration = {encoding_info = {innerDimsPos = [0, 1], innerTileSizes = [128, 16], outerDimsPerm = [0, 1], swizzle = {expandShape = [[["CrossThread", 4 : i16], ["CrossIntrinsic", 8 : i16], ["CrossThread", 4 : i16]], [["CrossIntrinsic", 4 : i16], ["CrossThread", 4 : i16]]], permutation = [1, 4, 0, 2, 3]}}}>]>
util.func public @sizeof_lhs_dynamic(%arg0: index, %arg1: index) -> index {
  %0 = stream.tensor.sizeof on(#hal.device.affinity<@__device_0>) tensor<?x?xf32, #lhs>{%arg0, %arg1} : index
  util.return %0 : index
}
// CHECK-LABEL: @sizeof_lhs_dynamic(
// CHECK-NEXT:    %[[C4:.+]] = arith.constant 4 : index
// CHECK-NEXT:    %[[C16:.+]] = arith.constant 16 : index
// CHECK-NEXT:    %[[C128:.+]] = arith.constant 128 : index
// CHECK-NEXT:    %[[D0:.+]] = arith.ceildivsi %arg0, %[[C128]] : index
// CHECK-NEXT:    %[[P0:.+]] = arith.muli %[[D0]], %[[C128]] : index
// CHECK-NEXT:    %[[D1:.+]] = arith.ceildivsi %arg1, %[[C16]] : index
// CHECK-NEXT:    %[[P1:.+]] = arith.muli %[[D1]], %[[C16]] : index
// CHECK-NEXT:    %[[T0:.+]] = arith.muli %[[P0]], %[[C4]] : index
// CHECK-NEXT:    %[[T1:.+]] = arith.muli %[[T0]], %[[P1]] : index
// CHECK-NEXT:    util.return %[[T1]]
// NSW-LABEL: @sizeof_lhs_dynamic(
// NSW:         arith.ceildivsi %arg0, %{{.+}} : index
// NSW-NEXT:    arith.muli %{{.+}}, %{{.+}} overflow<nsw> : index

// -----

// An RHS (innerDimsPos = [1, 0]) rounds dim1 first; a tile of 1 adds nothing,
// and a static tiled dim is rounded at compile time (10 -> 12 rows: 12 * 4 = 48).

#rhs = #iree_encoding.layout<[#iree_cpu.cpu_encoding_resolver<configuration = {encoding_info = {innerDimsPos = [1, 0], innerTileSizes = [8, 1], outerDimsPerm = [1, 0]}}>]>
#lhs = #iree_encoding.layout<[#iree_cpu.vmvx_encoding_resolver<configuration = {encoding_info = {innerDimsPos = [0, 1], innerTileSizes = [4, 16], outerDimsPerm = [0, 1]}}>]>
util.func public @sizeof_rhs_and_partially_static(%arg0: index, %arg1: index) -> (index, index) {
  %0 = stream.tensor.sizeof tensor<?x?xf32, #rhs>{%arg0, %arg1} : index
  %1 = stream.tensor.sizeof tensor<10x?xf32, #lhs>{%arg0} : index
  util.return %0, %1 : index, index
}
// CHECK-LABEL: @sizeof_rhs_and_partially_static(
// CHECK-DAG:     %[[C8:.+]] = arith.constant 8 : index
// CHECK-DAG:     %[[C4:.+]] = arith.constant 4 : index
// CHECK-DAG:     %[[C16:.+]] = arith.constant 16 : index
// CHECK-DAG:     %[[C48:.+]] = arith.constant 48 : index
// CHECK:         %[[D1:.+]] = arith.ceildivsi %arg1, %[[C8]] : index
// CHECK-NEXT:    %[[P1:.+]] = arith.muli %[[D1]], %[[C8]] : index
// CHECK-NEXT:    %[[T0:.+]] = arith.muli %arg0, %[[C4]] : index
// CHECK-NEXT:    %[[S0:.+]] = arith.muli %[[T0]], %[[P1]] : index
// CHECK-NEXT:    %[[E1:.+]] = arith.ceildivsi %arg0, %[[C16]] : index
// CHECK-NEXT:    %[[Q1:.+]] = arith.muli %[[E1]], %[[C16]] : index
// CHECK-NEXT:    %[[S1:.+]] = arith.muli %[[Q1]], %[[C48]] : index
// CHECK-NEXT:    util.return %[[S0]], %[[S1]]

// -----

// One tensor, several targets: the largest size (arith.maxui).

#layouts = #iree_encoding.layout<[#iree_cpu.cpu_encoding_resolver<configuration = {encoding_info = {innerDimsPos = [0, 1], innerTileSizes = [4, 8], outerDimsPerm = [0, 1]}}>, #iree_gpu.gpu_encoding_resolver<configuration = {encoding_info = {innerDimsPos = [0, 1], innerTileSizes = [128, 16], outerDimsPerm = [0, 1]}}>]>
util.func public @sizeof_multi_layouts(%arg0: index, %arg1: index) -> index {
  %0 = stream.tensor.sizeof tensor<?x?xf32, #layouts>{%arg0, %arg1} : index
  util.return %0 : index
}
// CHECK-LABEL: @sizeof_multi_layouts(
// CHECK-DAG:     %[[C4:.+]] = arith.constant 4 : index
// CHECK-DAG:     %[[C8:.+]] = arith.constant 8 : index
// CHECK-DAG:     %[[C16:.+]] = arith.constant 16 : index
// CHECK-DAG:     %[[C128:.+]] = arith.constant 128 : index
// CHECK:         %[[D0:.+]] = arith.ceildivsi %arg0, %[[C4]] : index
// CHECK-NEXT:    %[[P0:.+]] = arith.muli %[[D0]], %[[C4]] : index
// CHECK-NEXT:    %[[D1:.+]] = arith.ceildivsi %arg1, %[[C8]] : index
// CHECK-NEXT:    %[[P1:.+]] = arith.muli %[[D1]], %[[C8]] : index
// CHECK-NEXT:    %[[T0:.+]] = arith.muli %[[P0]], %[[C4]] : index
// CHECK-NEXT:    %[[A:.+]] = arith.muli %[[T0]], %[[P1]] : index
// CHECK-NEXT:    %[[E0:.+]] = arith.ceildivsi %arg0, %[[C128]] : index
// CHECK-NEXT:    %[[Q0:.+]] = arith.muli %[[E0]], %[[C128]] : index
// CHECK-NEXT:    %[[E1:.+]] = arith.ceildivsi %arg1, %[[C16]] : index
// CHECK-NEXT:    %[[Q1:.+]] = arith.muli %[[E1]], %[[C16]] : index
// CHECK-NEXT:    %[[T1:.+]] = arith.muli %[[Q0]], %[[C4]] : index
// CHECK-NEXT:    %[[B:.+]] = arith.muli %[[T1]], %[[Q1]] : index
// CHECK-NEXT:    %[[MAX:.+]] = arith.maxui %[[A]], %[[B]] : index
// CHECK-NEXT:    util.return %[[MAX]]

// -----

// Padding layouts add their pad to each dim: (2048 + 0) * (4096 + 64) * 2 bytes, and (%arg0 + 64) * %arg1 * 2.
// IREE's PaddingAttr marks this arithmetic nsw in the walkthrough's version already.

#pad_a = #iree_encoding.layout<[#iree_encoding.padding<[0, 64]>]>
#pad_b = #iree_encoding.layout<[#iree_encoding.padding<[64, 0]>]>
util.func public @sizeof_padding(%arg0: index, %arg1: index) -> (index, index) {
  %0 = stream.tensor.sizeof tensor<2048x4096xf16, #pad_a> : index
  %1 = stream.tensor.sizeof tensor<?x?xf16, #pad_b>{%arg0, %arg1} : index
  util.return %0, %1 : index, index
}
// CHECK-LABEL: @sizeof_padding(
// CHECK-DAG:     %[[C17039360:.+]] = arith.constant 17039360 : index
// CHECK-DAG:     %[[C64:.+]] = arith.constant 64 : index
// CHECK-DAG:     %[[C2:.+]] = arith.constant 2 : index
// CHECK:         %[[A:.+]] = arith.addi %arg0, %[[C64]] overflow<nsw> : index
// CHECK-NEXT:    %[[B:.+]] = arith.muli %[[A]], %arg1 overflow<nsw> : index
// CHECK-NEXT:    %[[C:.+]] = arith.muli %[[B]], %[[C2]] overflow<nsw> : index
// CHECK-NEXT:    util.return %[[C17039360]], %[[C]]

// -----

// IREE's encode_host_tensors_encoding.mlir padding cases: the storage is the padded shape of the pad-only
// layout, (2048 + pad[0]) * (4096 + pad[1]) * 2 bytes; a dynamic dim adds its pad (`addi`).

#no_pad_encoding = #iree_encoding.layout<[#iree_encoding.padding<[0, 0]>]>
#pad_encoding_a = #iree_encoding.layout<[#iree_encoding.padding<[0, 64]>]>
#pad_encoding_b = #iree_encoding.layout<[#iree_encoding.padding<[64, 0]>]>
util.func public @sizeof_lhs_pad_encoding_static() -> (index, index, index) {
  %0 = stream.tensor.sizeof tensor<2048x4096xf16, #no_pad_encoding> : index
  %1 = stream.tensor.sizeof tensor<2048x4096xf16, #pad_encoding_a> : index
  %2 = stream.tensor.sizeof tensor<2048x4096xf16, #pad_encoding_b> : index
  util.return %0, %1, %2 : index, index, index
}
// CHECK-LABEL: @sizeof_lhs_pad_encoding_static
// CHECK-DAG:     %[[CST_A:.+]] = arith.constant 16777216 : index
// CHECK-DAG:     %[[CST_B:.+]] = arith.constant 17039360 : index
// CHECK-DAG:     %[[CST_C:.+]] = arith.constant 17301504 : index
// CHECK:         util.return %[[CST_A]], %[[CST_B]], %[[CST_C]]
// NSW-LABEL:   @sizeof_lhs_pad_encoding_static
// NSW:           util.return %{{.+}}, %{{.+}}, %{{.+}}

// -----

#no_pad_encoding = #iree_encoding.layout<[#iree_encoding.padding<[0, 0]>]>
#pad_encoding_a = #iree_encoding.layout<[#iree_encoding.padding<[0, 64]>]>
#pad_encoding_b = #iree_encoding.layout<[#iree_encoding.padding<[64, 0]>]>
util.func public @sizeof_rhs_pad_encoding_dynamic(%arg0 : index, %arg1 : index) -> (index, index, index, index) {
  %0 = stream.tensor.sizeof tensor<2048x?xf16, #no_pad_encoding>{%arg0} : index
  %1 = stream.tensor.sizeof tensor<?x4096xf16, #pad_encoding_a>{%arg0} : index
  %2 = stream.tensor.sizeof tensor<?x4096xf16, #pad_encoding_b>{%arg0} : index
  %3 = stream.tensor.sizeof tensor<?x?xf16, #pad_encoding_b>{%arg0, %arg1} : index
  util.return %0, %1, %2, %3 : index, index, index, index
}
// CHECK-LABEL: @sizeof_rhs_pad_encoding_dynamic
// CHECK-DAG:     %[[CST_2:.+]] = arith.constant 2 : index
// CHECK-DAG:     %[[CST_64:.+]] = arith.constant 64 : index
// CHECK-DAG:     %[[CST_4096:.+]] = arith.constant 4096 : index
// CHECK-DAG:     %[[CST_8192:.+]] = arith.constant 8192 : index
// CHECK-DAG:     %[[CST_8320:.+]] = arith.constant 8320 : index
// CHECK:         %[[A:.+]] = arith.muli %arg0, %[[CST_4096]] overflow<nsw> : index
// CHECK:         %[[B:.+]] = arith.muli %arg0, %[[CST_8320]] overflow<nsw> : index
// CHECK:         %[[C_0:.+]] = arith.addi %arg0, %[[CST_64]] overflow<nsw> : index
// CHECK:         %[[C_1:.+]] = arith.muli %[[C_0]], %[[CST_8192]] overflow<nsw> : index
// CHECK:         %[[D_0:.+]] = arith.addi %arg0, %[[CST_64]] overflow<nsw> : index
// CHECK:         %[[D_1:.+]] = arith.muli %[[D_0]], %arg1 overflow<nsw> : index
// CHECK:         %[[D_2:.+]] = arith.muli %[[D_1]], %[[CST_2]] overflow<nsw> : index
// CHECK:         util.return %[[A]], %[[B]], %[[C_1]], %[[D_2]]
// Both eras: IREE's PaddingAttr marks the arithmetic nsw.
// NSW-LABEL:   @sizeof_rhs_pad_encoding_dynamic
// NSW:           %[[A:.+]] = arith.muli %arg0, %{{.+}} overflow<nsw> : index
// NSW:           %[[B:.+]] = arith.muli %arg0, %{{.+}} overflow<nsw> : index
// NSW:           %[[C_0:.+]] = arith.addi %arg0, %{{.+}} overflow<nsw> : index
// NSW:           %[[C_1:.+]] = arith.muli %[[C_0]], %{{.+}} overflow<nsw> : index
// NSW:           %[[D_0:.+]] = arith.addi %arg0, %{{.+}} overflow<nsw> : index
// NSW:           %[[D_1:.+]] = arith.muli %[[D_0]], %arg1 overflow<nsw> : index
// NSW:           %[[D_2:.+]] = arith.muli %[[D_1]], %{{.+}} overflow<nsw> : index
// NSW:           util.return %[[A]], %[[B]], %[[C_1]], %[[D_2]]

// -----

// i1 is stored one per byte (i8); i4 two per byte.

util.func public @sizeof_sub_byte(%arg0: index) -> (index, index, index) {
  %0 = stream.tensor.sizeof tensor<?x4xi1>{%arg0} : index
  %1 = stream.tensor.sizeof tensor<12xi4> : index
  %2 = stream.tensor.sizeof tensor<?xi4>{%arg0} : index
  util.return %0, %1, %2 : index, index, index
}
// CHECK-LABEL: @sizeof_sub_byte(
// CHECK-DAG:     %[[C4:.+]] = arith.constant 4 : index
// CHECK-DAG:     %[[C6:.+]] = arith.constant 6 : index
// CHECK-DAG:     %[[C2:.+]] = arith.constant 2 : index
// CHECK:         %[[A:.+]] = arith.muli %arg0, %[[C4]] : index
// CHECK-NEXT:    %[[B:.+]] = arith.ceildivui %arg0, %[[C2]] : index
// CHECK-NEXT:    util.return %[[A]], %[[C6]], %[[B]]

// -----

// A tensor dispatch becomes an async dispatch on whole resources; tied results stay tied.

#lhs = #iree_encoding.layout<[#iree_cpu.cpu_encoding_resolver<configuration = {encoding_info = {innerDimsPos = [0, 1], innerTileSizes = [8, 1], outerDimsPerm = [0, 1]}}>]>
util.func public @dispatch_to_async(%arg0: !stream.resource<*>, %arg1: index, %arg2: !stream.resource<*>, %arg3: index, %arg4: index) -> (!stream.resource<*>, !stream.resource<*>) {
  %0 = stream.tensor.dispatch on(#hal.device.affinity<@__device_0>) @ex::@entry[%arg4](%arg0, %arg4) : (tensor<?x4xf32, #lhs>{%arg4} in !stream.resource<*>{%arg1}, index) -> tensor<?x4xf32>{%arg4} in !stream.resource<*>{%arg3}
  %1 = stream.tensor.dispatch @ex::@entry2(%arg2) : (tensor<8xf32> in !stream.resource<*>{%arg3}) -> tensor<8xf32> in %arg2{%arg3}
  util.return %0, %1 : !stream.resource<*>, !stream.resource<*>
}
// CHECK-LABEL: @dispatch_to_async(
// CHECK-NEXT:    %[[C0:.+]] = arith.constant 0 : index
// CHECK-NEXT:    %[[R0:.+]] = stream.async.dispatch on(#hal.device.affinity<@__device_0>) @ex::@entry[%arg4](%arg0[%[[C0]] to %arg1 for %arg1], %arg4) : (!stream.resource<*>{%arg1}, index) -> !stream.resource<*>{%arg3}
// CHECK-NEXT:    %[[R1:.+]] = stream.async.dispatch @ex::@entry2(%arg2[%[[C0]] to %arg3 for %arg3]) : (!stream.resource<*>{%arg3}) -> %arg2{%arg3}
// CHECK-NEXT:    util.return %[[R0]], %[[R1]]

// -----

// A constant becomes an async constant of its storage size, and the size of it folds to that.

util.global private @weight : !stream.resource<*>
util.global private @weight__size : index
util.initializer {
  %cst = stream.tensor.constant on(#hal.device.affinity<@__device_0>) : tensor<2x3xf32> in !stream.resource<constant> = dense<1.000000e+00> : tensor<2x3xf32>
  %0 = stream.resource.size %cst : !stream.resource<constant>
  %1 = stream.async.clone on(#hal.device.affinity<@__device_0>) %cst : !stream.resource<constant>{%0} -> !stream.resource<*>{%0}
  util.global.store %1, @weight : !stream.resource<*>
  util.global.store %0, @weight__size : index
  util.return
}
// CHECK-LABEL: util.initializer {
// CHECK-NEXT:    %[[C24:.+]] = arith.constant 24 : index
// CHECK-NEXT:    %[[CST:.+]] = stream.async.constant on(#hal.device.affinity<@__device_0>) : !stream.resource<constant>{%[[C24]]} = dense<1.000000e+00> : tensor<2x3xf32>
// CHECK-NEXT:    %[[CLONE:.+]] = stream.async.clone on(#hal.device.affinity<@__device_0>) %[[CST]] : !stream.resource<constant>{%[[C24]]} -> !stream.resource<*>{%[[C24]]}
// CHECK-NEXT:    util.global.store %[[CLONE]], @weight : !stream.resource<*>
// CHECK-NEXT:    util.global.store %[[C24]], @weight__size : index

// -----

// i1 constants are stored as i8.

util.func public @constant_i1() -> !stream.resource<constant> {
  %0 = stream.tensor.constant : tensor<4xi1> in !stream.resource<constant> = dense<[true, true, false, true]> : tensor<4xi1>
  util.return %0 : !stream.resource<constant>
}
// CHECK-LABEL: @constant_i1(
// CHECK-NEXT:    %[[C4:.+]] = arith.constant 4 : index
// CHECK-NEXT:    %[[R:.+]] = stream.async.constant : !stream.resource<constant>{%[[C4]]} = dense<[1, 1, 0, 1]> : tensor<4xi8>

// -----

// Import, export and encode keep their tensor types (materialize-encodings handles the encode).

#lhs = #iree_encoding.layout<[#iree_cpu.cpu_encoding_resolver<configuration = {encoding_info = {innerDimsPos = [0, 1], innerTileSizes = [8, 1], outerDimsPerm = [0, 1]}}>]>
util.func public @import_encode_export_kept(%arg0: !hal.buffer_view, %arg1: index) -> !hal.buffer_view {
  %0 = stream.tensor.sizeof tensor<?x4xf32>{%arg1} : index
  %1 = stream.tensor.import %arg0 : !hal.buffer_view -> tensor<?x4xf32>{%arg1} in !stream.resource<external>{%0}
  %2 = stream.tensor.sizeof tensor<?x4xf32, #lhs>{%arg1} : index
  %3 = stream.tensor.encode %1 : tensor<?x4xf32>{%arg1} in !stream.resource<external>{%0} -> tensor<?x4xf32, #lhs>{%arg1} in !stream.resource<external>{%2}
  %4 = stream.tensor.export %3 : tensor<?x4xf32, #lhs>{%arg1} in !stream.resource<external>{%2} -> !hal.buffer_view
  util.return %4 : !hal.buffer_view
}
// CHECK-LABEL: @import_encode_export_kept(
// CHECK:         %[[S0:.+]] = arith.muli %arg1, %{{.+}} : index
// CHECK-NEXT:    %[[I:.+]] = stream.tensor.import %arg0 : !hal.buffer_view -> tensor<?x4xf32>{%arg1} in !stream.resource<external>{%[[S0]]}
// CHECK-NEXT:    %[[D:.+]] = arith.ceildivsi %arg1, %{{.+}} : index
// CHECK-NEXT:    %[[P:.+]] = arith.muli %[[D]], %{{.+}} : index
// CHECK-NEXT:    %[[S1:.+]] = arith.muli %[[P]], %{{.+}} : index
// CHECK-NEXT:    %[[E:.+]] = stream.tensor.encode %[[I]] : tensor<?x4xf32>{%arg1} in !stream.resource<external>{%[[S0]]} -> tensor<?x4xf32, #encoding>{%arg1} in !stream.resource<external>{%[[S1]]}
// CHECK-NEXT:    stream.tensor.export %[[E]] : tensor<?x4xf32, #encoding>{%arg1} in !stream.resource<external>{%[[S1]]} -> !hal.buffer_view

// -----

// An empty tensor is an allocation of its byte size, as iree-opt 3.13 gives it.
util.func public @empty(%n: index) -> !stream.resource<*> {
  %size = stream.tensor.sizeof tensor<?x4xf32>{%n} : index
  %empty = stream.tensor.empty : tensor<?x4xf32>{%n} in !stream.resource<*>{%size}
  util.return %empty : !stream.resource<*>
}
// CHECK-LABEL: @empty(
// CHECK:         %[[S:.+]] = arith.muli %{{.+}}, %{{.+}} : index
// CHECK-NEXT:    %[[A:.+]] = stream.async.alloca : !stream.resource<*>{%[[S]]}
// CHECK-NEXT:    util.return %[[A]] : !stream.resource<*>

// -----

// Executables are device code: their ops are not touched.

stream.executable private @ex {
  stream.executable.export public @entry
  builtin.module {
    func.func @entry(%arg0: index) {
      %0 = arith.muli %arg0, %arg0 : index
      %c4 = arith.constant 4 : index
      return
    }
  }
}
// CHECK-LABEL: stream.executable private @ex
// CHECK:         %0 = arith.muli %arg0, %arg0 : index
// CHECK-NEXT:    %c4 = arith.constant 4 : index

// -----

// A stream.tensor.clone with one use folds to its source, as IREE's greedy
// driver folds it; one with more becomes stream.async.clone of the source's
// bytes into the result's size.

util.func public @clone(%r: !stream.resource<*>, %n: index, %s0: index, %s1: index) -> (!stream.resource<*>, !stream.resource<*>, !stream.resource<*>) {
  %0 = stream.tensor.clone %r : tensor<?x4xf32>{%n} in !stream.resource<*>{%s0} -> tensor<?xf32>{%n} in !stream.resource<*>{%s1}
  %1 = stream.tensor.clone %r : tensor<?x4xf32>{%n} in !stream.resource<*>{%s0} -> tensor<4x?xf32>{%n} in !stream.resource<*>{%s1}
  util.return %0, %0, %1 : !stream.resource<*>, !stream.resource<*>, !stream.resource<*>
}
// CHECK-LABEL: @clone(
// CHECK-SAME:    %[[R:[a-zA-Z0-9]+]]: !stream.resource<*>, %{{.+}}: index, %[[S0:[a-zA-Z0-9]+]]: index, %[[S1:[a-zA-Z0-9]+]]: index
// CHECK-NEXT:    %[[C:.+]] = stream.async.clone %[[R]] : !stream.resource<*>{%[[S0]]} -> !stream.resource<*>{%[[S1]]}
// CHECK-NEXT:    util.return %[[C]], %[[C]], %[[R]]
