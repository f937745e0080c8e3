// RUN: mini-iree-opt %s -p iree-stream-encode-host-tensors --split-input-file | filecheck %s

// Splats, fills, slices and updates of tensors in resources become byte-range
// stream.async ops. A packed i1 (eight to a byte) splat repeats the bit across
// the byte: v, v<<1|v, ... seven times; an element offset into packed i1 is
// divided by 8.

#packed = #iree_encoding.packed_storage
util.func public @splat_packed_bit(%v: i1, %size: index) -> !stream.resource<*> {
  %0 = stream.tensor.splat %v : i1 -> tensor<2x8xi1, #packed> in !stream.resource<*>{%size}
  util.return %0 : !stream.resource<*>
}
// CHECK-LABEL: @splat_packed_bit(
// CHECK:         %[[ONE:.+]] = arith.constant 1 : i8
// CHECK:         %[[B:.+]] = arith.extui %arg0 : i1 to i8
// CHECK:         %[[S0:.+]] = arith.shli %[[B]], %[[ONE]] : i8
// CHECK:         %[[O0:.+]] = arith.ori %[[S0]], %[[B]] : i8
// CHECK-COUNT-5: arith.ori
// CHECK:         %[[S6:.+]] = arith.shli %{{.+}}, %[[ONE]] : i8
// CHECK:         %[[BYTE:.+]] = arith.ori %[[S6]], %[[B]] : i8
// CHECK-NEXT:    %[[R:.+]] = stream.async.splat %[[BYTE]] : i8 -> !stream.resource<*>{%arg1}
// CHECK-NEXT:    util.return %[[R]]

// -----

// Without packed_storage an i1 is a byte of its own; a float is its bits.
util.func public @splat_unpacked(%b: i1, %f: f16, %size: index) -> (!stream.resource<*>, !stream.resource<*>) {
  %0 = stream.tensor.splat %b : i1 -> tensor<?xi1>{%size} in !stream.resource<*>{%size}
  %1 = stream.tensor.splat %f : f16 -> tensor<4xf16> in !stream.resource<*>{%size}
  util.return %0, %1 : !stream.resource<*>, !stream.resource<*>
}
// CHECK-LABEL: @splat_unpacked(
// CHECK:         %[[B:.+]] = arith.extui %arg0 : i1 to i8
// CHECK-NEXT:    %[[S0:.+]] = stream.async.splat %[[B]] : i8 -> !stream.resource<*>{%arg2}
// CHECK-NEXT:    %[[F:.+]] = arith.bitcast %arg1 : f16 to i16
// CHECK-NEXT:    %[[S1:.+]] = stream.async.splat %[[F]] : i16 -> !stream.resource<*>{%arg2}

// -----

// A constant pattern folds: a packed i2 3 is 0b11111111 (-1 : i8).
util.func public @splat_constant_i2(%size: index) -> !stream.resource<*> {
  %c3 = arith.constant 3 : i2
  %0 = stream.tensor.splat %c3 : i2 -> tensor<8xi2> in !stream.resource<*>{%size}
  util.return %0 : !stream.resource<*>
}
// CHECK-LABEL: @splat_constant_i2(
// CHECK:         %[[P:.+]] = arith.constant -1 : i8
// CHECK-NEXT:    stream.async.splat %[[P]] : i8 -> !stream.resource<*>{%arg0}

// -----

// Fill offsets are row-major element offsets, in bytes: (i0 * 8 + i1) * 4 for f32. The length
// is linearized as an index too, as IREE does (1 * 8 + n: the constant product folds).
util.func public @fill_f32(%r: !stream.resource<*>, %v: f32, %d: index, %size: index, %i: index, %j: index, %n: index) -> !stream.resource<*> {
  %c1 = arith.constant 1 : index
  %0 = stream.tensor.fill %v, %r[%i, %j for %c1, %n] : f32 -> tensor<?x8xf32>{%d} in %r as !stream.resource<*>{%size}
  util.return %0 : !stream.resource<*>
}
// CHECK-LABEL: @fill_f32(
// CHECK-DAG:     %[[C4:.+]] = arith.constant 4 : index
// CHECK-DAG:     %[[C8:.+]] = arith.constant 8 : index
// CHECK:         %[[P:.+]] = arith.bitcast %arg1 : f32 to i32
// CHECK-NEXT:    %[[M:.+]] = arith.muli %arg4, %[[C8]] : index
// CHECK-NEXT:    %[[A:.+]] = arith.addi %[[M]], %arg5 : index
// CHECK-NEXT:    %[[OFF:.+]] = arith.muli %[[A]], %[[C4]] : index
// CHECK-NEXT:    %[[L:.+]] = arith.addi %arg6, %[[C8]] : index
// CHECK-NEXT:    %[[LEN:.+]] = arith.muli %[[L]], %[[C4]] : index
// CHECK-NEXT:    %[[END:.+]] = arith.addi %[[OFF]], %[[LEN]] : index
// CHECK-NEXT:    stream.async.fill %[[P]], %arg0[%[[OFF]] to %[[END]] for %[[LEN]]] : i32 -> %arg0 as !stream.resource<*>{%arg3}

// -----

// Slices and updates of packed i1: the start divided by 8; the end is the start plus the byte size.
#packed = #iree_encoding.packed_storage
util.func public @slice_update_packed(%r: !stream.resource<*>, %u: !stream.resource<*>, %d: index, %size: index, %i: index, %n: index, %rsize: index) -> (!stream.resource<*>, !stream.resource<*>) {
  %c0 = arith.constant 0 : index
  %c16 = arith.constant 16 : index
  %0 = stream.tensor.slice %r[%i, %c0 for %n, %c16] : tensor<?x16xi1, #packed>{%d} in !stream.resource<*>{%size} -> tensor<?x16xi1, #packed>{%n} in !stream.resource<*>{%rsize}
  %1 = stream.tensor.update %u, %r[%i, %c0] : tensor<?x16xi1, #packed>{%n} in !stream.resource<*>{%rsize} -> tensor<?x16xi1, #packed>{%d} in %r as !stream.resource<*>{%size}
  util.return %0, %1 : !stream.resource<*>, !stream.resource<*>
}
// CHECK-LABEL: @slice_update_packed(
// CHECK-DAG:     %[[C8:.+]] = arith.constant 8 : index
// CHECK-DAG:     %[[C16:.+]] = arith.constant 16 : index
// CHECK:         %[[M:.+]] = arith.muli %arg4, %[[C16]] : index
// CHECK-NEXT:    %[[OFF:.+]] = arith.divui %[[M]], %[[C8]] : index
// CHECK-NEXT:    %[[END:.+]] = arith.addi %[[OFF]], %arg6 : index
// CHECK-NEXT:    %[[S:.+]] = stream.async.slice %arg0[%[[OFF]] to %[[END]]] : !stream.resource<*>{%arg3} -> !stream.resource<*>{%arg6}
// CHECK-NEXT:    %[[M2:.+]] = arith.muli %arg4, %[[C16]] : index
// CHECK-NEXT:    %[[OFF2:.+]] = arith.divui %[[M2]], %[[C8]] : index
// CHECK-NEXT:    %[[END2:.+]] = arith.addi %[[OFF2]], %arg6 : index
// CHECK-NEXT:    %[[U:.+]] = stream.async.update %arg1, %arg0[%[[OFF2]] to %[[END2]]] : !stream.resource<*>{%arg6} -> %arg0 as !stream.resource<*>{%arg3}
// CHECK-NEXT:    util.return %[[S]], %[[U]]

// -----

// A slice of the whole source (same size) is the source, as IREE's folder makes it.
util.func public @whole_slice(%r: !stream.resource<*>, %size: index) -> !stream.resource<*> {
  %c0 = arith.constant 0 : index
  %c4 = arith.constant 4 : index
  %0 = stream.tensor.slice %r[%c0 for %c4] : tensor<4xf32> in !stream.resource<*>{%size} -> tensor<4xf32> in !stream.resource<*>{%size}
  util.return %0 : !stream.resource<*>
}
// CHECK-LABEL: @whole_slice(
// CHECK-NOT:     stream.async.slice
// CHECK:         util.return %arg0

// -----

// Loads and stores of one element become byte-offset loads and stores; an i1 is a
// byte of its own. Packed sub-byte elements share a byte: those are left alone.
util.func public @load_store(%r: !stream.resource<staging>, %d: index, %size: index, %i: index, %j: index, %b: i1, %q: i4) -> (f16, !stream.resource<staging>, !stream.resource<staging>) {
  %0 = stream.tensor.load %r[%i, %j] : tensor<?x5xf16>{%d} in !stream.resource<staging>{%size} -> f16
  %1 = stream.tensor.store %b, %r[%i] : i1 -> tensor<?xi1>{%d} in %r as !stream.resource<staging>{%size}
  %2 = stream.tensor.store %q, %r[%i] : i4 -> tensor<?xi4>{%d} in %r as !stream.resource<staging>{%size}
  util.return %0, %1, %2 : f16, !stream.resource<staging>, !stream.resource<staging>
}
// CHECK-LABEL: @load_store(
// CHECK-DAG:     %[[C2:.+]] = arith.constant 2 : index
// CHECK-DAG:     %[[C5:.+]] = arith.constant 5 : index
// CHECK:         %[[M:.+]] = arith.muli %arg3, %[[C5]] : index
// CHECK-NEXT:    %[[A:.+]] = arith.addi %[[M]], %arg4 : index
// CHECK-NEXT:    %[[OFF:.+]] = arith.muli %[[A]], %[[C2]] : index
// CHECK-NEXT:    %[[L:.+]] = stream.async.load %arg0[%[[OFF]]] : !stream.resource<staging>{%arg2} -> f16
// CHECK-NEXT:    %[[S:.+]] = stream.async.store %arg5, %arg0[%arg3] : i1 -> %arg0 as !stream.resource<staging>{%arg2}
// CHECK-NEXT:    %[[Q:.+]] = stream.tensor.store %arg6, %arg0[%arg3] : i4 -> tensor<?xi4>{%arg1} in %arg0 as !stream.resource<staging>{%arg2}
// CHECK-NEXT:    util.return %[[L]], %[[S]], %[[Q]]
