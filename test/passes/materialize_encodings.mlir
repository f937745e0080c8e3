// RUN: mini-iree-opt %s -p iree-stream-materialize-encodings --split-input-file | filecheck %s

// A dynamic encode: an executable right before the function, named after the shapes; its function
// takes the source binding, the source dims, the result dims and the result binding. The dispatch's
// workload is the source dims followed by the result dims.

#lhs = #iree_encoding.layout<[#iree_cpu.cpu_encoding_resolver<configuration = {encoding_info = {innerDimsPos = [0, 1], innerTileSizes = [8, 1], outerDimsPerm = [0, 1]}}>]>
util.func public @encode_dynamic(%arg0: !stream.resource<*>, %arg1: index, %arg2: index, %arg3: index, %arg4: index) -> !stream.resource<*> {
  %0 = stream.tensor.encode on(#hal.device.affinity<@__device_0>) %arg0 : tensor<?x?xf32>{%arg1, %arg2} in !stream.resource<*>{%arg3} -> tensor<?x?xf32, #lhs>{%arg1, %arg2} in !stream.resource<*>{%arg4}
  util.return %0 : !stream.resource<*>
}
// CHECK:       #[[$LHS:.+]] = #iree_encoding.layout<[#iree_cpu.cpu_encoding_resolver<configuration = {encoding_info = {innerDimsPos = [0, 1], innerTileSizes = [8, 1], outerDimsPerm = [0, 1]}}>]>
// CHECK-LABEL: stream.executable private @_encoding_0 {
// CHECK-NEXT:    stream.executable.export public @_encoding_0_encode_DxDxf32_to_DxDxf32 workgroups(%arg0: index, %arg1: index, %arg2: index, %arg3: index) -> (index, index, index) {
// CHECK-NEXT:      %x, %y, %z = iree_tensor_ext.dispatch.workgroup_count_from_slice(%arg0, %arg1, %arg2, %arg3)
// CHECK-NEXT:      stream.return %x, %y, %z : index, index, index
// CHECK-NEXT:    }
// CHECK-NEXT:    builtin.module {
// CHECK-NEXT:      func.func @_encoding_0_encode_DxDxf32_to_DxDxf32(%arg0: !stream.binding, %arg1: index, %arg2: index, %arg3: index, %arg4: index, %arg5: !stream.binding) {
// CHECK-NEXT:        %0 = iree_tensor_ext.dispatch.workload.ordinal %arg1, 0 : index
// CHECK-NEXT:        %1 = iree_tensor_ext.dispatch.workload.ordinal %arg2, 1 : index
// CHECK-NEXT:        %2 = iree_tensor_ext.dispatch.workload.ordinal %arg3, 2 : index
// CHECK-NEXT:        %3 = iree_tensor_ext.dispatch.workload.ordinal %arg4, 3 : index
// CHECK-NEXT:        %c0 = arith.constant 0 : index
// CHECK-NEXT:        %4 = stream.binding.subspan %arg0[%c0] : !stream.binding -> !iree_tensor_ext.dispatch.tensor<readonly:tensor<?x?xf32>>{%0, %1}
// CHECK-NEXT:        %5 = stream.binding.subspan %arg5[%c0] : !stream.binding -> !iree_tensor_ext.dispatch.tensor<writeonly:tensor<?x?xf32, #[[$LHS]]>>{%2, %3}
// CHECK-NEXT:        %6 = iree_tensor_ext.dispatch.tensor.load %4, offsets = [0, 0], sizes = [%0, %1], strides = [1, 1] : !iree_tensor_ext.dispatch.tensor<readonly:tensor<?x?xf32>>{%0, %1} -> tensor<?x?xf32>
// CHECK-NEXT:        %7 = iree_encoding.set_encoding %6 : tensor<?x?xf32> -> tensor<?x?xf32, #[[$LHS]]>
// CHECK-NEXT:        iree_tensor_ext.dispatch.tensor.store %7, %5, offsets = [0, 0], sizes = [%2, %3], strides = [1, 1] : tensor<?x?xf32, #[[$LHS]]> -> !iree_tensor_ext.dispatch.tensor<writeonly:tensor<?x?xf32, #[[$LHS]]>>{%2, %3}
// CHECK-NEXT:        return
// CHECK:       util.func public @encode_dynamic(
// CHECK-NEXT:    %[[C0:.+]] = arith.constant 0 : index
// CHECK-NEXT:    %[[R:.+]] = stream.async.dispatch on(#hal.device.affinity<@__device_0>) @_encoding_0::@_encoding_0_encode_DxDxf32_to_DxDxf32[%arg1, %arg2, %arg1, %arg2](%arg0[%[[C0]] to %arg3 for %arg3], %arg1, %arg2, %arg1, %arg2) : (!stream.resource<*>{%arg3}, index, index, index, index) -> !stream.resource<*>{%arg4}
// CHECK-NEXT:    util.return %[[R]]

// -----

// Static shapes: no workload, shapes in the name (IREE 3.13's const-weight dump 14).

#rhs = #iree_encoding.layout<[#iree_cpu.cpu_encoding_resolver<configuration = {encoding_info = {innerDimsPos = [1, 0], innerTileSizes = [8, 1], outerDimsPerm = [1, 0]}}>]>
util.func public @encode_static(%arg0: !stream.resource<*>) -> !stream.resource<*> {
  %c524288 = arith.constant 524288 : index
  %0 = stream.tensor.encode %arg0 : tensor<256x512xf32> in !stream.resource<*>{%c524288} -> tensor<256x512xf32, #rhs> in !stream.resource<*>{%c524288}
  util.return %0 : !stream.resource<*>
}
// CHECK-LABEL: stream.executable private @_encoding_0 {
// CHECK-NEXT:    stream.executable.export public @_encoding_0_encode_256x512xf32_to_256x512xf32 workgroups() -> (index, index, index) {
// CHECK-NEXT:      %x, %y, %z = iree_tensor_ext.dispatch.workgroup_count_from_slice()
// CHECK:           func.func @_encoding_0_encode_256x512xf32_to_256x512xf32(%arg0: !stream.binding, %arg1: !stream.binding) {
// CHECK-NEXT:        %c0 = arith.constant 0 : index
// CHECK:             iree_tensor_ext.dispatch.tensor.load %{{.+}}, offsets = [0, 0], sizes = [256, 512], strides = [1, 1]
// CHECK:       util.func public @encode_static(
// CHECK:         stream.async.dispatch @_encoding_0::@_encoding_0_encode_256x512xf32_to_256x512xf32(%arg0[%{{.+}} to %c524288 for %c524288]) : (!stream.resource<*>{%c524288}) -> !stream.resource<*>{%c524288}

// -----

// Identical encodes share one executable; a different shape or layout gets its own. Each function's
// executables go right before it, numbered in program order.

#lhs = #iree_encoding.layout<[#iree_cpu.cpu_encoding_resolver<configuration = {encoding_info = {innerDimsPos = [0, 1], innerTileSizes = [8, 1], outerDimsPerm = [0, 1]}}>]>
#bias = #iree_encoding.layout<[#iree_cpu.cpu_encoding_resolver<configuration = {encoding_info = {innerDimsPos = [0], innerTileSizes = [8], outerDimsPerm = [0]}}>]>
util.func public @first(%arg0: !stream.resource<*>, %arg1: index, %arg2: index) -> (!stream.resource<*>, !stream.resource<*>) {
  %0 = stream.tensor.encode %arg0 : tensor<?x4xf32>{%arg1} in !stream.resource<*>{%arg2} -> tensor<?x4xf32, #lhs>{%arg1} in !stream.resource<*>{%arg2}
  %1 = stream.tensor.encode %arg0 : tensor<?x4xf32>{%arg1} in !stream.resource<*>{%arg2} -> tensor<?x4xf32, #lhs>{%arg1} in !stream.resource<*>{%arg2}
  util.return %0, %1 : !stream.resource<*>, !stream.resource<*>
}
util.func public @second(%arg0: !stream.resource<*>, %arg1: index, %arg2: index) -> (!stream.resource<*>, !stream.resource<*>) {
  %0 = stream.tensor.encode %arg0 : tensor<?xf32>{%arg1} in !stream.resource<*>{%arg2} -> tensor<?xf32, #bias>{%arg1} in !stream.resource<*>{%arg2}
  %1 = stream.tensor.encode %arg0 : tensor<?x4xf32>{%arg1} in !stream.resource<*>{%arg2} -> tensor<?x4xf32, #lhs>{%arg1} in !stream.resource<*>{%arg2}
  util.return %0, %1 : !stream.resource<*>, !stream.resource<*>
}
// CHECK-LABEL: stream.executable private @_encoding_0 {
// CHECK:       util.func public @first(
// CHECK:         stream.async.dispatch @_encoding_0::@_encoding_0_encode_Dx4xf32_to_Dx4xf32[%arg1, %arg1]
// CHECK:         stream.async.dispatch @_encoding_0::@_encoding_0_encode_Dx4xf32_to_Dx4xf32[%arg1, %arg1]
// CHECK:       stream.executable private @_encoding_1 {
// CHECK-NEXT:    stream.executable.export public @_encoding_1_encode_Dxf32_to_Dxf32
// CHECK-NOT:   stream.executable
// CHECK:       util.func public @second(
// CHECK:         stream.async.dispatch @_encoding_1::@_encoding_1_encode_Dxf32_to_Dxf32[%arg1, %arg1]
// CHECK:         stream.async.dispatch @_encoding_0::@_encoding_0_encode_Dx4xf32_to_Dx4xf32[%arg1, %arg1]

// -----

// Decoding (an encoded source) unsets the encoding; re-encoding unsets and sets. A smaller result
// (unset_encoding slicing) keeps its own dims.

#lhs = #iree_encoding.layout<[#iree_cpu.cpu_encoding_resolver<configuration = {encoding_info = {innerDimsPos = [0, 1], innerTileSizes = [8, 1], outerDimsPerm = [0, 1]}}>]>
#other = #iree_encoding.layout<[#iree_cpu.cpu_encoding_resolver<configuration = {encoding_info = {innerDimsPos = [0, 1], innerTileSizes = [4, 4], outerDimsPerm = [0, 1]}}>]>
util.func public @decode(%arg0: !stream.resource<*>, %arg1: index, %arg2: index, %arg3: index) -> (!stream.resource<*>, !stream.resource<*>) {
  %0 = stream.tensor.encode %arg0 : tensor<?x4xf32, #lhs>{%arg1} in !stream.resource<*>{%arg2} -> tensor<?x4xf32>{%arg3} in !stream.resource<*>{%arg2}
  %1 = stream.tensor.encode %arg0 : tensor<?x4xf32, #lhs>{%arg1} in !stream.resource<*>{%arg2} -> tensor<?x4xf32, #other>{%arg1} in !stream.resource<*>{%arg2}
  util.return %0, %1 : !stream.resource<*>, !stream.resource<*>
}
// CHECK-LABEL: stream.executable private @_encoding_0 {
// CHECK:         func.func @_encoding_0_encode_Dx4xf32_to_Dx4xf32(%arg0: !stream.binding, %arg1: index, %arg2: index, %arg3: !stream.binding) {
// CHECK:           %[[L:.+]] = iree_tensor_ext.dispatch.tensor.load
// CHECK-NEXT:      %[[U:.+]] = iree_encoding.unset_encoding %[[L]] : tensor<?x4xf32, #encoding> -> tensor<?x4xf32>{%0}
// CHECK-NEXT:      iree_tensor_ext.dispatch.tensor.store %[[U]], %{{.+}}, offsets = [0, 0], sizes = [%1, 4], strides = [1, 1] : tensor<?x4xf32> -> !iree_tensor_ext.dispatch.tensor<writeonly:tensor<?x4xf32>>{%1}
// CHECK-LABEL: stream.executable private @_encoding_1 {
// CHECK:           %[[L:.+]] = iree_tensor_ext.dispatch.tensor.load
// CHECK-NEXT:      %[[U:.+]] = iree_encoding.unset_encoding %[[L]] : tensor<?x4xf32, #encoding> -> tensor<?x4xf32>{%0}
// CHECK-NEXT:      %[[S:.+]] = iree_encoding.set_encoding %[[U]] : tensor<?x4xf32> -> tensor<?x4xf32, #encoding1>
// CHECK-NEXT:      iree_tensor_ext.dispatch.tensor.store %[[S]]
// CHECK:       util.func public @decode(
// CHECK:         stream.async.dispatch @_encoding_0::@_encoding_0_encode_Dx4xf32_to_Dx4xf32[%arg1, %arg3](%arg0[%{{.+}} to %arg2 for %arg2], %arg1, %arg3)
// CHECK:         stream.async.dispatch @_encoding_1::@_encoding_1_encode_Dx4xf32_to_Dx4xf32[%arg1, %arg1](%arg0[%{{.+}} to %arg2 for %arg2], %arg1, %arg1)

// -----

// Encodes that change nothing fold away first: the same type on both sides, or identity layouts.

#identity = #iree_encoding.layout<[#iree_encoding.identity]>
util.func public @no_op_encodes_fold(%arg0: !stream.resource<*>, %arg1: index) -> (!stream.resource<*>, !stream.resource<*>) {
  %0 = stream.tensor.encode %arg0 : tensor<?x4xf32>{%arg1} in !stream.resource<*>{%arg1} -> tensor<?x4xf32>{%arg1} in !stream.resource<*>{%arg1}
  %1 = stream.tensor.encode %arg0 : tensor<?x4xf32>{%arg1} in !stream.resource<*>{%arg1} -> tensor<?x4xf32, #identity>{%arg1} in !stream.resource<*>{%arg1}
  util.return %0, %1 : !stream.resource<*>, !stream.resource<*>
}
// CHECK-NOT:   stream.executable
// CHECK-LABEL: util.func public @no_op_encodes_fold(
// CHECK-NEXT:    util.return %arg0, %arg0

// -----

// Encodes in an initializer get their executable before the initializer.

#rhs = #iree_encoding.layout<[#iree_cpu.cpu_encoding_resolver<configuration = {encoding_info = {innerDimsPos = [1, 0], innerTileSizes = [8, 1], outerDimsPerm = [1, 0]}}>]>
util.global private @weight : !stream.resource<*>
util.initializer {
  %c32 = arith.constant 32 : index
  %cst = stream.async.constant : !stream.resource<*>{%c32} = dense<1.0> : tensor<2x4xf32>
  %0 = stream.tensor.encode %cst : tensor<2x4xf32> in !stream.resource<*>{%c32} -> tensor<2x4xf32, #rhs> in !stream.resource<*>{%c32}
  util.global.store %0, @weight : !stream.resource<*>
  util.return
}
// CHECK:       util.global private @weight
// CHECK-NEXT:  stream.executable private @_encoding_0 {
// CHECK:       util.initializer {
// CHECK:         %c0 = arith.constant 0 : index
// CHECK-NEXT:    %[[E:.+]] = stream.async.dispatch @_encoding_0::@_encoding_0_encode_2x4xf32_to_2x4xf32(%cst[%c0 to %c32 for %c32]) : (!stream.resource<*>{%c32}) -> !stream.resource<*>{%c32}
// CHECK-NEXT:    util.global.store %[[E]], @weight

// -----

// Without encodes the module is left as it is.

util.func public @no_encode_left_alone(%arg0: index) -> index {
  util.return %arg0 : index
}
// CHECK-NOT:   stream.executable
// CHECK-LABEL: util.func public @no_encode_left_alone(
