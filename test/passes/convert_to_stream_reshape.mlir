// RUN: mini-iree-opt %s -p 'iree-stream-conversion{async-cast=true}' --split-input-file | filecheck %s --check-prefix=CONV
// RUN: mini-iree-opt %s -p 'iree-stream-conversion{async-cast=true},canonicalize' --split-input-file | filecheck %s --check-prefix=CANON
// RUN: mini-iree-opt %s -p 'iree-stream-conversion{async-cast=true},canonicalize,iree-stream-encode-host-tensors{era=3.13}' --split-input-file | filecheck %s --check-prefix=ENCODE

// flow.tensor.reshape/bitcast outside dispatches (collapse-dimensions hoists
// reshapes out of dispatch regions) become stream.tensor.clone of the source
// resource with the result's stream.tensor.sizeof (IREE's
// ConvertTensorCastLikeOp). Canonicalization drops a clone that keeps the
// resource type (TensorCloneOp::fold, ElideUnneededTensorClones): the dispatch
// reads the import's resource with the clone's result size. The IR is IREE
// 3.13's (iree-opt --iree-stream-conversion --canonicalize) as printed.

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
  util.func public @reshapes(%arg0: !hal.buffer_view) -> !hal.buffer_view {
    %0 = hal.buffer_view.dim<%arg0 : !hal.buffer_view>[0] : index
    %1 = hal.tensor.import %arg0 "input0" : !hal.buffer_view -> tensor<?x2x2xf32>{%0}
    %2 = flow.tensor.reshape %1 : tensor<?x2x2xf32>{%0} -> tensor<?x4xf32>{%0}
    %3 = flow.dispatch @ex::@double[%0](%2, %0) : (tensor<?x4xf32>{%0}, index) -> tensor<?x4xf32>{%0}
    %4 = flow.tensor.reshape %3 : tensor<?x4xf32>{%0} -> tensor<?x2x2xf32>{%0}
    %5 = hal.tensor.export %4 "output0" : tensor<?x2x2xf32>{%0} -> !hal.buffer_view
    util.return %5 : !hal.buffer_view
  }
}

// CONV-LABEL: util.func public @reshapes(
// CONV:         %[[IMP:.+]] = stream.tensor.import
// CONV-NEXT:    %[[SRC:.+]] = stream.async.cast on(#hal.device.affinity<@__device_0>) %[[IMP]] : !stream.resource<external>{%[[SS:.+]]} -> !stream.resource<*>{%[[SS]]}
// CONV-NEXT:    %[[RS:.+]] = stream.tensor.sizeof on(#hal.device.affinity<@__device_0>) tensor<?x4xf32>{%[[D:.+]]} : index
// CONV-NEXT:    %[[CL:.+]] = stream.tensor.clone on(#hal.device.affinity<@__device_0>) %[[SRC]] : tensor<?x2x2xf32>{%[[D]]} in !stream.resource<*>{%[[SS]]} -> tensor<?x4xf32>{%[[D]]} in !stream.resource<*>{%[[RS]]}
// CONV-NEXT:    %[[OS:.+]] = stream.tensor.sizeof on(#hal.device.affinity<@__device_0>) tensor<?x4xf32>{%[[D]]} : index
// CONV-NEXT:    %[[DI:.+]] = stream.tensor.dispatch on(#hal.device.affinity<@__device_0>) @ex::@double[%[[D]]](%[[CL]], %[[D]]) : (tensor<?x4xf32>{%[[D]]} in !stream.resource<*>{%[[RS]]}, index) -> tensor<?x4xf32>{%[[D]]} in !stream.resource<*>{%[[OS]]}
// CONV-NEXT:    %[[RS2:.+]] = stream.tensor.sizeof on(#hal.device.affinity<@__device_0>) tensor<?x2x2xf32>{%[[D]]} : index
// CONV-NEXT:    %[[CL2:.+]] = stream.tensor.clone on(#hal.device.affinity<@__device_0>) %[[DI]] : tensor<?x4xf32>{%[[D]]} in !stream.resource<*>{%[[OS]]} -> tensor<?x2x2xf32>{%[[D]]} in !stream.resource<*>{%[[RS2]]}
// CONV-NEXT:    stream.async.cast on(#hal.device.affinity<@__device_0>) %[[CL2]] : !stream.resource<*>{%[[RS2]]} -> !stream.resource<external>{%[[RS2]]}

// CANON-LABEL: util.func public @reshapes(
// CANON:         %[[IMP:.+]] = stream.tensor.import
// CANON-NEXT:    %[[SRC:.+]] = stream.async.cast on(#hal.device.affinity<@__device_0>) %[[IMP]]
// CANON-NEXT:    %[[RS:.+]] = stream.tensor.sizeof on(#hal.device.affinity<@__device_0>) tensor<?x4xf32>{%[[D:.+]]} : index
// CANON-NEXT:    %[[OS:.+]] = stream.tensor.sizeof on(#hal.device.affinity<@__device_0>) tensor<?x4xf32>{%[[D]]} : index
// CANON-NEXT:    %[[DI:.+]] = stream.tensor.dispatch on(#hal.device.affinity<@__device_0>) @ex::@double[%[[D]]](%[[SRC]], %[[D]]) : (tensor<?x4xf32>{%[[D]]} in !stream.resource<*>{%[[RS]]}, index) -> tensor<?x4xf32>{%[[D]]} in !stream.resource<*>{%[[OS]]}
// CANON-NEXT:    %[[RS2:.+]] = stream.tensor.sizeof on(#hal.device.affinity<@__device_0>) tensor<?x2x2xf32>{%[[D]]} : index
// CANON-NEXT:    stream.async.cast on(#hal.device.affinity<@__device_0>) %[[DI]] : !stream.resource<*>{%[[RS2]]} -> !stream.resource<external>{%[[RS2]]}
// CANON-NOT:     stream.tensor.clone

// ENCODE-LABEL: util.func public @reshapes(
// ENCODE-NOT:    clone
// ENCODE:        util.return

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
  util.func public @tied_reshape_kept(%arg0: !hal.buffer_view, %arg1: !hal.buffer_view, %arg2: !hal.buffer_view) -> (!hal.buffer_view, !hal.buffer_view) {
    %0 = hal.tensor.import %arg0 "lhs" : !hal.buffer_view -> tensor<4x8xf32>
    %1 = hal.tensor.import %arg1 "rhs" : !hal.buffer_view -> tensor<8x4xf32>
    %a = hal.tensor.import %arg2 "acc" : !hal.buffer_view -> tensor<16xf32>
    %2 = flow.tensor.reshape %a : tensor<16xf32> -> tensor<4x4xf32>
    %3 = flow.dispatch @acc_dispatch_0::@acc_dispatch_0_matmul_4x4x8_f32(%0, %1, %2) : (tensor<4x8xf32>, tensor<8x4xf32>, tensor<4x4xf32>) -> %2
    %4 = hal.tensor.export %3 "output0" : tensor<4x4xf32> -> !hal.buffer_view
    %r = hal.tensor.export %2 "output1" : tensor<4x4xf32> -> !hal.buffer_view
    util.return %4, %r : !hal.buffer_view, !hal.buffer_view
  }
}

// A clone whose result a dispatch ties and that has another use stays (neither
// the fold nor ElideUnneededTensorClones applies); encode-host-tensors makes
// it a stream.async.clone of its bytes.

// CONV-LABEL: util.func public @tied_reshape_kept(
// CANON-LABEL: util.func public @tied_reshape_kept(
// CANON:         stream.tensor.import on(#hal.device.affinity<@__device_0>) %arg2
// CANON-NEXT:    %[[ACC:.+]] = stream.async.cast on(#hal.device.affinity<@__device_0>) %{{.+}} : !stream.resource<external>{%[[S16:.+]]} -> !stream.resource<*>{%[[S16]]}
// CANON-NEXT:    %[[S44:.+]] = stream.tensor.sizeof on(#hal.device.affinity<@__device_0>) tensor<4x4xf32> : index
// CANON-NEXT:    %[[CL:.+]] = stream.tensor.clone on(#hal.device.affinity<@__device_0>) %[[ACC]] : tensor<16xf32> in !stream.resource<*>{%[[S16]]} -> tensor<4x4xf32> in !stream.resource<*>{%[[S44]]}
// CANON-NEXT:    stream.tensor.dispatch on(#hal.device.affinity<@__device_0>) @acc_dispatch_0::@acc_dispatch_0_matmul_4x4x8_f32(%{{.+}}, %{{.+}}, %[[CL]]) : {{.+}} -> tensor<4x4xf32> in %[[CL]]{%[[S44]]}
// CANON:         stream.async.cast on(#hal.device.affinity<@__device_0>) %[[CL]]

// ENCODE-LABEL: util.func public @tied_reshape_kept(
// ENCODE:         %[[C64:.+]] = arith.constant 64 : index
// ENCODE:         stream.tensor.import on(#hal.device.affinity<@__device_0>) %arg2
// ENCODE-NEXT:    %[[ACC:.+]] = stream.async.cast on(#hal.device.affinity<@__device_0>) %{{.+}} : !stream.resource<external>{%[[C64]]} -> !stream.resource<*>{%[[C64]]}
// ENCODE-NEXT:    %[[CL:.+]] = stream.async.clone on(#hal.device.affinity<@__device_0>) %[[ACC]] : !stream.resource<*>{%[[C64]]} -> !stream.resource<*>{%[[C64]]}
// ENCODE-NEXT:    stream.async.dispatch on(#hal.device.affinity<@__device_0>) @acc_dispatch_0::@acc_dispatch_0_matmul_4x4x8_f32({{.+}}, %[[CL]][%{{.+}} to %[[C64]] for %[[C64]]]) : {{.+}} -> %[[CL]]{%[[C64]]}
// ENCODE-NOT:     stream.tensor.clone

// -----

module attributes {stream.affinity.default = #hal.device.affinity<@__device_0>} {
  util.global private @__device_0 = #hal.device.target<"local", [#hal.executable.target<"llvm-cpu", "embedded-elf-x86_64", {}>]> : !hal.device
  util.func public @bitcast(%arg0: !hal.buffer_view) -> !hal.buffer_view {
    %0 = hal.tensor.import %arg0 "input0" : !hal.buffer_view -> tensor<2x4xi32>
    %1 = flow.tensor.bitcast %0 : tensor<2x4xi32> -> tensor<8xf32>
    %2 = hal.tensor.export %1 "output0" : tensor<8xf32> -> !hal.buffer_view
    util.return %2 : !hal.buffer_view
  }
}

// CONV-LABEL: util.func public @bitcast(
// CONV:         %[[SRC:.+]] = stream.async.cast on(#hal.device.affinity<@__device_0>) %{{.+}} : !stream.resource<external>{%[[S:.+]]} -> !stream.resource<*>{%[[S]]}
// CONV-NEXT:    %[[RS:.+]] = stream.tensor.sizeof on(#hal.device.affinity<@__device_0>) tensor<8xf32> : index
// CONV-NEXT:    %[[CL:.+]] = stream.tensor.clone on(#hal.device.affinity<@__device_0>) %[[SRC]] : tensor<2x4xi32> in !stream.resource<*>{%[[S]]} -> tensor<8xf32> in !stream.resource<*>{%[[RS]]}
// CONV-NEXT:    stream.async.cast on(#hal.device.affinity<@__device_0>) %[[CL]] : !stream.resource<*>{%[[RS]]} -> !stream.resource<external>{%[[RS]]}

// CANON-LABEL: util.func public @bitcast(
// CANON:         %[[IMP:.+]] = stream.tensor.import
// CANON-NEXT:    %[[SRC:.+]] = stream.async.cast on(#hal.device.affinity<@__device_0>) %[[IMP]]
// CANON-NEXT:    %[[RS:.+]] = stream.tensor.sizeof on(#hal.device.affinity<@__device_0>) tensor<8xf32> : index
// CANON-NEXT:    stream.async.cast on(#hal.device.affinity<@__device_0>) %[[SRC]] : !stream.resource<*>{%[[RS]]} -> !stream.resource<external>{%[[RS]]}
// ENCODE-LABEL: util.func public @bitcast(
