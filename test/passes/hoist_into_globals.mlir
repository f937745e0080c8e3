// RUN: mini-iree-opt %s -p iree-util-hoist-into-globals --split-input-file | filecheck %s
// RUN: mini-iree-opt %s -p 'iree-util-hoist-into-globals{max-size-increase-threshold=64}' --split-input-file | filecheck %s --check-prefix=SMALL

// The walkthrough (dumps 07 -> 08): the encode of the constant RHS moves into
// an initializer; the function loads the global where the encode was, and the
// constant is gone. Nothing inside the dispatch region moves.

// IREE 3.13, constant weight (dumps 08 -> 09): the same, with a dynamic LHS.

// IREE 3.13, dynamic matmul: both operands are inputs, nothing is constant.

// -----

// Placement attributes of the module and function travel with the hoisted
// value, the innermost one winning.

#encoding = #iree_encoding.testing<>
module attributes {stream.affinity.default = #hal.device.affinity<@__device_0>} {
  util.global private @__device_0 : !hal.device
  util.global private @__device_1 : !hal.device
  util.func public @affinity_carried(%arg0: tensor<4x8xf32, #encoding>) -> tensor<4x8xf32, #encoding> {
    %cst = arith.constant dense<2.0> : tensor<4x8xf32>
    %0 = flow.tensor.encode %cst : tensor<4x8xf32> -> tensor<4x8xf32, #encoding>
    %1 = flow.dispatch.region -> (tensor<4x8xf32, #encoding>) {
      %2 = linalg.add ins(%0, %arg0 : tensor<4x8xf32, #encoding>, tensor<4x8xf32, #encoding>) outs(%arg0 : tensor<4x8xf32, #encoding>) -> tensor<4x8xf32, #encoding>
      flow.return %2 : tensor<4x8xf32, #encoding>
    }
    util.return %1 : tensor<4x8xf32, #encoding>
  }
  util.func public @function_affinity_wins(%arg0: tensor<2xf32>) -> tensor<2xf32, #encoding> attributes {stream.affinity = #hal.device.affinity<@__device_1>} {
    %cst = arith.constant dense<[1.0, 2.0]> : tensor<2xf32>
    %0 = flow.tensor.encode %cst : tensor<2xf32> -> tensor<2xf32, #encoding>
    util.return %0 : tensor<2xf32, #encoding>
  }
}

// CHECK:      module attributes {stream.affinity.default = #hal.device.affinity<@__device_0>} {
// CHECK:        util.global private @__hoisted_tensor_4x8xf32__encoded {stream.affinity.default = #hal.device.affinity<@__device_0>} : tensor<4x8xf32, #encoding>
// CHECK-NEXT:   util.initializer attributes {stream.affinity.default = #hal.device.affinity<@__device_0>} {
// CHECK:        util.func public @affinity_carried(
// CHECK:        util.global private @__hoisted_tensor_2xf32__encoded {stream.affinity = #hal.device.affinity<@__device_1>, stream.affinity.default = #hal.device.affinity<@__device_0>} : tensor<2xf32, #encoding>
// CHECK-NEXT:   util.initializer attributes {stream.affinity = #hal.device.affinity<@__device_1>, stream.affinity.default = #hal.device.affinity<@__device_0>} {
// CHECK:        util.func public @function_affinity_wins(

// -----

// A chain of two const-expr ops: the whole chain is computed in one
// initializer and only its escape becomes a global.

#map = affine_map<(d0, d1) -> (d0, d1)>
#encoding = #iree_encoding.testing<>
util.func public @const_expr_chain(%arg0: tensor<4x8xf32, #encoding>) -> tensor<4x8xf32, #encoding> {
  %cst = arith.constant dense<3.0> : tensor<4x8xf32>
  %empty = tensor.empty() : tensor<4x8xf32>
  %0 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel"]} ins(%cst : tensor<4x8xf32>) outs(%empty : tensor<4x8xf32>) {
  ^bb0(%in: f32, %out: f32):
    %sq = arith.mulf %in, %in : f32
    linalg.yield %sq : f32
  } -> tensor<4x8xf32>
  %1 = flow.tensor.encode %0 : tensor<4x8xf32> -> tensor<4x8xf32, #encoding>
  %2 = flow.dispatch.region -> (tensor<4x8xf32, #encoding>) {
    %3 = linalg.add ins(%1, %arg0 : tensor<4x8xf32, #encoding>, tensor<4x8xf32, #encoding>) outs(%arg0 : tensor<4x8xf32, #encoding>) -> tensor<4x8xf32, #encoding>
    flow.return %3 : tensor<4x8xf32, #encoding>
  }
  util.return %2 : tensor<4x8xf32, #encoding>
}

// CHECK:      util.global private @__hoisted_tensor_4x8xf32__encoded : tensor<4x8xf32, #encoding>
// CHECK-NEXT: util.initializer {
// CHECK-NEXT:   %cst = arith.constant dense<3.000000e+00> : tensor<4x8xf32>
// CHECK-NEXT:   %0 = tensor.empty() : tensor<4x8xf32>
// CHECK-NEXT:   %1 = linalg.generic
// CHECK:        %2 = flow.tensor.encode %1
// CHECK-NEXT:   util.global.store %2, @__hoisted_tensor_4x8xf32__encoded
// CHECK-NEXT:   util.return
// CHECK-NEXT: }
// CHECK-NOT:  util.global private
// CHECK-LABEL: util.func public @const_expr_chain(
// CHECK-NEXT:   %__hoisted_tensor_4x8xf32__encoded = util.global.load immutable @__hoisted_tensor_4x8xf32__encoded
// CHECK-NEXT:   flow.dispatch.region

// -----

// Two escapes of the same type: the second global is renamed, as MLIR's
// symbol table does on a collision. Initializers follow program order.

#encoding = #iree_encoding.testing<>
util.func public @two_escapes_same_type() -> (tensor<2xf32, #encoding>, tensor<2xf32, #encoding>) {
  %cst = arith.constant dense<[1.0, 2.0]> : tensor<2xf32>
  %0 = flow.tensor.encode %cst : tensor<2xf32> -> tensor<2xf32, #encoding>
  %cst_0 = arith.constant dense<[3.0, 4.0]> : tensor<2xf32>
  %1 = flow.tensor.encode %cst_0 : tensor<2xf32> -> tensor<2xf32, #encoding>
  util.return %0, %1 : tensor<2xf32, #encoding>, tensor<2xf32, #encoding>
}

// CHECK:      util.global private @__hoisted_tensor_2xf32__encoded : tensor<2xf32, #encoding>
// CHECK-NEXT: util.initializer {
// CHECK-NEXT:   %cst = arith.constant dense<[1.000000e+00, 2.000000e+00]> : tensor<2xf32>
// CHECK:        util.global.store %0, @__hoisted_tensor_2xf32__encoded :
// CHECK:      util.global private @__hoisted_tensor_2xf32__encoded_0 : tensor<2xf32, #encoding>
// CHECK-NEXT: util.initializer {
// CHECK-NEXT:   %cst = arith.constant dense<[3.000000e+00, 4.000000e+00]> : tensor<2xf32>
// CHECK:        util.global.store %0, @__hoisted_tensor_2xf32__encoded_0 :
// CHECK-LABEL: util.func public @two_escapes_same_type(
// CHECK-NEXT:   %__hoisted_tensor_2xf32__encoded = util.global.load immutable @__hoisted_tensor_2xf32__encoded :
// CHECK-NEXT:   %__hoisted_tensor_2xf32__encoded_0 = util.global.load immutable @__hoisted_tensor_2xf32__encoded_0 :
// CHECK-NEXT:   util.return %__hoisted_tensor_2xf32__encoded, %__hoisted_tensor_2xf32__encoded_0

// -----

// Scalars and indices are hoisted like tensors. A sub-byte value (the i1 of
// the comparison) never gets a global of its own, but the i32 selected with it
// does, and its tree reads the global the first i32 was stored to.

util.func public @scalars_hoisted() -> (i32, index, i32) {
  %c2 = arith.constant 2 : i32
  %0 = arith.addi %c2, %c2 : i32
  %c3 = arith.constant 3 : index
  %1 = arith.muli %c3, %c3 : index
  %2 = arith.cmpi slt, %0, %c2 : i32
  %3 = arith.select %2, %0, %c2 : i32
  util.return %0, %1, %3 : i32, index, i32
}

// CHECK:      util.global private @__hoisted_i32 : i32
// CHECK-NEXT: util.initializer {
// CHECK-NEXT:   %c2_i32 = arith.constant 2 : i32
// CHECK-NEXT:   %0 = arith.addi %c2_i32, %c2_i32 : i32
// CHECK-NEXT:   util.global.store %0, @__hoisted_i32 : i32
// CHECK:      util.global private @__hoisted_index : index
// CHECK-NEXT: util.initializer {
// CHECK-NEXT:   %c3 = arith.constant 3 : index
// CHECK-NEXT:   %0 = arith.muli %c3, %c3 : index
// CHECK-NEXT:   util.global.store %0, @__hoisted_index : index
// CHECK-NOT:  util.global private @{{.*}} : i1
// CHECK:      util.global private @__hoisted_i32_0 : i32
// CHECK-NEXT: util.initializer {
// CHECK-NEXT:   %c2_i32 = arith.constant 2 : i32
// CHECK-NEXT:   %__hoisted_i32 = util.global.load @__hoisted_i32 : i32
// CHECK-NEXT:   %0 = arith.cmpi slt, %__hoisted_i32, %c2_i32 : i32
// CHECK-NEXT:   %1 = arith.select %0, %__hoisted_i32, %c2_i32 : i32
// CHECK-NEXT:   util.global.store %1, @__hoisted_i32_0 : i32
// CHECK-LABEL: util.func public @scalars_hoisted(
// CHECK-NEXT:   %__hoisted_i32 = util.global.load immutable @__hoisted_i32 : i32
// CHECK-NEXT:   %__hoisted_index = util.global.load immutable @__hoisted_index : index
// CHECK-NEXT:   %__hoisted_i32_0 = util.global.load immutable @__hoisted_i32_0 : i32
// CHECK-NEXT:   util.return %__hoisted_i32, %__hoisted_index, %__hoisted_i32_0

// -----

// A leaf constant alone is not hoisted (it already is a constant), nor is
// tensor.empty, a fill or a broadcast: they are cheaper to fuse than to load.

#bcast = affine_map<(d0, d1) -> (d1)>
#id = affine_map<(d0, d1) -> (d0, d1)>
util.func public @non_leaves_not_hoisted() -> (tensor<4xf32>, tensor<3x4xf32>, tensor<3x4xf32>) {
  %cst = arith.constant dense<[1.0, 2.0, 3.0, 4.0]> : tensor<4xf32>
  %zero = arith.constant 0.0 : f32
  %empty = tensor.empty() : tensor<3x4xf32>
  %fill = linalg.fill ins(%zero : f32) outs(%empty : tensor<3x4xf32>) -> tensor<3x4xf32>
  %bcast = linalg.generic {indexing_maps = [#bcast, #id], iterator_types = ["parallel", "parallel"]} ins(%cst : tensor<4xf32>) outs(%empty : tensor<3x4xf32>) {
  ^bb0(%in: f32, %out: f32):
    linalg.yield %in : f32
  } -> tensor<3x4xf32>
  util.return %cst, %fill, %bcast : tensor<4xf32>, tensor<3x4xf32>, tensor<3x4xf32>
}

// CHECK-NOT:  util.global
// CHECK-NOT:  util.initializer
// CHECK-LABEL: util.func public @non_leaves_not_hoisted(
// CHECK:        linalg.fill
// CHECK:        linalg.generic

// -----

// set_encoding is not a constant expression in IREE's oracle: only its
// flow-level form, flow.tensor.encode, is precomputed.

#encoding = #iree_encoding.testing<>
util.func public @set_encoding_not_hoisted() -> tensor<2xf32, #encoding> {
  %cst = arith.constant dense<[1.0, 2.0]> : tensor<2xf32>
  %0 = iree_encoding.set_encoding %cst : tensor<2xf32> -> tensor<2xf32, #encoding>
  util.return %0 : tensor<2xf32, #encoding>
}

// CHECK-NOT:  util.global
// CHECK-LABEL: util.func public @set_encoding_not_hoisted(
// CHECK:        iree_encoding.set_encoding %cst

// -----

// A const-expr inside a dispatch region stays there: the region becomes an
// executable that cannot see globals.

#encoding = #iree_encoding.testing<>
util.func public @value_in_dispatch_not_hoisted(%arg0: tensor<2xf32, #encoding>) -> tensor<2xf32, #encoding> {
  %0 = flow.dispatch.region -> (tensor<2xf32, #encoding>) {
    %cst = arith.constant dense<[1.0, 2.0]> : tensor<2xf32>
    %1 = flow.tensor.encode %cst : tensor<2xf32> -> tensor<2xf32, #encoding>
    %2 = linalg.add ins(%1, %arg0 : tensor<2xf32, #encoding>, tensor<2xf32, #encoding>) outs(%arg0 : tensor<2xf32, #encoding>) -> tensor<2xf32, #encoding>
    flow.return %2 : tensor<2xf32, #encoding>
  }
  util.return %0 : tensor<2xf32, #encoding>
}

// CHECK-NOT:  util.global
// CHECK-NOT:  util.initializer
// CHECK-LABEL: util.func public @value_in_dispatch_not_hoisted(
// CHECK-NEXT:   flow.dispatch.region
// CHECK-NEXT:     %cst = arith.constant
// CHECK-NEXT:     flow.tensor.encode %cst
// CHECK-NOT:    util.global.load

// -----

// A dispatch region that only captures constants is itself a constant
// expression: it is hoisted whole, as IREE does.

util.func public @whole_dispatch_of_constants() -> tensor<2xf32> {
  %cst = arith.constant dense<[1.0, 2.0]> : tensor<2xf32>
  %0 = flow.dispatch.region -> (tensor<2xf32>) {
    %1 = linalg.add ins(%cst, %cst : tensor<2xf32>, tensor<2xf32>) outs(%cst : tensor<2xf32>) -> tensor<2xf32>
    flow.return %1 : tensor<2xf32>
  }
  util.return %0 : tensor<2xf32>
}

// CHECK:      util.global private @__hoisted_tensor_2xf32 : tensor<2xf32>
// CHECK-NEXT: util.initializer {
// CHECK-NEXT:   %cst = arith.constant
// CHECK-NEXT:   %0 = flow.dispatch.region
// CHECK:        util.global.store %0, @__hoisted_tensor_2xf32 : tensor<2xf32>
// CHECK-LABEL: util.func public @whole_dispatch_of_constants(
// CHECK-NEXT:   %__hoisted_tensor_2xf32 = util.global.load immutable @__hoisted_tensor_2xf32 : tensor<2xf32>
// CHECK-NEXT:   util.return %__hoisted_tensor_2xf32

// -----

// Loads of immutable globals are constants too; mutable ones are not.

#encoding = #iree_encoding.testing<>
util.global private @weight = dense<[1.0, 2.0]> : tensor<2xf32>
util.global private mutable @state = dense<[3.0, 4.0]> : tensor<2xf32>
util.func public @immutable_global_root() -> (tensor<2xf32, #encoding>, tensor<2xf32, #encoding>) {
  %w = util.global.load immutable @weight : tensor<2xf32>
  %0 = flow.tensor.encode %w : tensor<2xf32> -> tensor<2xf32, #encoding>
  %s = util.global.load @state : tensor<2xf32>
  %1 = flow.tensor.encode %s : tensor<2xf32> -> tensor<2xf32, #encoding>
  util.return %0, %1 : tensor<2xf32, #encoding>, tensor<2xf32, #encoding>
}

// CHECK:      util.global private @__hoisted_tensor_2xf32__encoded : tensor<2xf32, #encoding>
// CHECK-NEXT: util.initializer {
// CHECK-NEXT:   %weight = util.global.load immutable @weight : tensor<2xf32>
// CHECK-NEXT:   %0 = flow.tensor.encode %weight
// CHECK-NOT:  util.global private @__hoisted
// CHECK-LABEL: util.func public @immutable_global_root(
// CHECK-NEXT:   %__hoisted_tensor_2xf32__encoded = util.global.load immutable @__hoisted_tensor_2xf32__encoded
// CHECK-NEXT:   %state = util.global.load @state
// CHECK-NEXT:   %0 = flow.tensor.encode %state

// -----

// Size threshold: broadcasting two 4xf32 constants (32 bytes) into a 64x4xf32
// sum (1 KiB) is hoisted under the default 1 MiB threshold but refused when
// the threshold is 64 bytes.

#bcast = affine_map<(d0, d1) -> (d1)>
#id = affine_map<(d0, d1) -> (d0, d1)>
util.func public @size_increase_threshold() -> tensor<64x4xf32> {
  %a = arith.constant dense<[1.0, 2.0, 3.0, 4.0]> : tensor<4xf32>
  %b = arith.constant dense<[5.0, 6.0, 7.0, 8.0]> : tensor<4xf32>
  %empty = tensor.empty() : tensor<64x4xf32>
  %0 = linalg.generic {indexing_maps = [#bcast, #bcast, #id], iterator_types = ["parallel", "parallel"]} ins(%a, %b : tensor<4xf32>, tensor<4xf32>) outs(%empty : tensor<64x4xf32>) {
  ^bb0(%x: f32, %y: f32, %out: f32):
    %s = arith.addf %x, %y : f32
    linalg.yield %s : f32
  } -> tensor<64x4xf32>
  util.return %0 : tensor<64x4xf32>
}

// CHECK:       util.global private @__hoisted_tensor_64x4xf32 : tensor<64x4xf32>
// CHECK-LABEL: util.func public @size_increase_threshold(
// CHECK-NEXT:    %__hoisted_tensor_64x4xf32 = util.global.load immutable @__hoisted_tensor_64x4xf32
// CHECK-NEXT:    util.return %__hoisted_tensor_64x4xf32

// SMALL-NOT:   util.global private @__hoisted_tensor_64x4xf32
// SMALL-LABEL: util.func public @size_increase_threshold(
// SMALL-NEXT:    %cst = arith.constant dense<[1.000000e+00, 2.000000e+00, 3.000000e+00, 4.000000e+00]>
// SMALL:         linalg.generic
// SMALL-NOT:   util.global.load
