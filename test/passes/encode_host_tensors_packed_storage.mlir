// RUN: mini-iree-opt %s -p iree-stream-encode-host-tensors | filecheck %s
// RUN: mini-iree-opt %s -p 'iree-stream-encode-host-tensors{era=3.13}' | filecheck %s --check-prefix=NSW

// `#iree_encoding.packed_storage` stores sub-byte elements back to back, i1
// included: eight i1, four i2 or two i4 to a byte, the count rounded up to a
// whole byte (IREE 3.13 sizes tensor<12xi1, packed_storage> at 2 bytes). IREE 3.13
// sizes it as a serializable layout, whose dynamic products are nsw.

#packed = #iree_encoding.packed_storage
util.func public @sizeof_packed(%arg0: index) -> (index, index, index, index, index) {
  %0 = stream.tensor.sizeof tensor<12xi1, #packed> : index
  %1 = stream.tensor.sizeof tensor<?x3xi1, #packed>{%arg0} : index
  %2 = stream.tensor.sizeof tensor<5x?xi4, #packed>{%arg0} : index
  %3 = stream.tensor.sizeof tensor<7xi2, #packed> : index
  %4 = stream.tensor.sizeof tensor<12xi1> : index
  util.return %0, %1, %2, %3, %4 : index, index, index, index, index
}
// CHECK-LABEL: @sizeof_packed(
// CHECK-DAG:     %[[C2:.+]] = arith.constant 2 : index
// CHECK-DAG:     %[[C3:.+]] = arith.constant 3 : index
// CHECK-DAG:     %[[C5:.+]] = arith.constant 5 : index
// CHECK-DAG:     %[[C8:.+]] = arith.constant 8 : index
// CHECK-DAG:     %[[C12:.+]] = arith.constant 12 : index
// CHECK:         %[[M1:.+]] = arith.muli %arg0, %[[C3]] : index
// CHECK-NEXT:    %[[S1:.+]] = arith.ceildivui %[[M1]], %[[C8]] : index
// CHECK-NEXT:    %[[M2:.+]] = arith.muli %arg0, %[[C5]] : index
// CHECK-NEXT:    %[[S2:.+]] = arith.ceildivui %[[M2]], %[[C2]] : index
// Without packed_storage an i1 takes a byte.
// CHECK-NEXT:    util.return %[[C2]], %[[S1]], %[[S2]], %[[C2]], %[[C12]]
// NSW-LABEL: @sizeof_packed(
// NSW:         arith.muli %arg0, %{{.+}} overflow<nsw> : index
// NSW:         arith.muli %arg0, %{{.+}} overflow<nsw> : index
// NSW:         util.return
