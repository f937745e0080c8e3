// RUN: mini-iree-opt %s -p iree-stream-encode-host-tensors --iree-experimental-packed-i1-storage | filecheck %s
// RUN: mini-iree-opt %s -p iree-stream-encode-host-tensors | filecheck %s --check-prefix=BYTE

// IREE's flag of September 2025: every i1 tensor is stored as if it had
// #iree_encoding.packed_storage, eight to a byte (12 i1: 2 bytes), and element
// offsets into it are divided by 8. Without it an i1 takes a byte.
util.func public @packed_i1(%r: !stream.resource<*>, %size: index, %i: index, %n: index, %rsize: index) -> (index, !stream.resource<*>) {
  %0 = stream.tensor.sizeof tensor<12xi1> : index
  %1 = stream.tensor.slice %r[%i for %n] : tensor<16xi1> in !stream.resource<*>{%size} -> tensor<?xi1>{%n} in !stream.resource<*>{%rsize}
  util.return %0, %1 : index, !stream.resource<*>
}
// CHECK-LABEL: @packed_i1(
// CHECK-DAG:     %[[C2:.+]] = arith.constant 2 : index
// CHECK-DAG:     %[[C8:.+]] = arith.constant 8 : index
// CHECK:         %[[OFF:.+]] = arith.divui %arg2, %[[C8]] : index
// CHECK:         util.return %[[C2]],
// BYTE-LABEL: @packed_i1(
// BYTE:         %[[C12:.+]] = arith.constant 12 : index
// BYTE-NOT:     arith.divui
// BYTE:         %[[END:.+]] = arith.addi %arg2, %arg4 : index
// BYTE:         util.return %[[C12]],
