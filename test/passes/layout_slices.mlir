// RUN: mini-iree-opt %s --split-input-file -p iree-stream-layout-slices | filecheck %s

// Constant sizes are laid out first, at constant offsets: 100 bytes at 0
// (128 aligned), 64 bytes at 128 (its lifetime overlaps the first), 40 bytes
// back at 0 (it overlaps only the second, and fits the gap before it). The
// dynamic slices follow at the high-water mark, 192, each size value in its
// own bin. A size known to be a multiple of 64 (the walkthrough's packed
// tiles) needs no alignment; one that is not is rounded up to 64.

// CHECK-LABEL: util.func public @static_then_dynamic
// CHECK-SAME:    (%[[M:.+]]: index, %[[N:.+]]: index)
// CHECK:         %[[TILES:.+]] = arith.muli %[[M]], %c8192 : index
// CHECK-NEXT:    %[[C0:.+]] = arith.constant 0 : index
// CHECK-NEXT:    %[[C128:.+]] = arith.constant 128 : index
// CHECK-NEXT:    %[[C192:.+]] = arith.constant 192 : index
// CHECK-NEXT:    %[[OFF4:.+]] = arith.addi %[[C192]], %[[TILES]] : index
// CHECK-NEXT:    %[[C63:.+]] = arith.constant 63 : index
// CHECK-NEXT:    %[[BUMP:.+]] = arith.addi %[[N]], %[[C63]] : index
// CHECK-NEXT:    %[[C64:.+]] = arith.constant 64 : index
// CHECK-NEXT:    %[[DIV:.+]] = arith.divui %[[BUMP]], %[[C64]] : index
// CHECK-NEXT:    %[[ALIGNED:.+]] = arith.muli %[[DIV]], %[[C64]] : index
// CHECK-NEXT:    %[[TOTAL:.+]] = arith.addi %[[OFF4]], %[[ALIGNED]] : index
// CHECK-NEXT:    util.optimization_barrier %[[TOTAL]], %[[C0]], %[[C192]], %[[C128]], %[[C0]], %[[OFF4]]
util.func public @static_then_dynamic(%arg0: index, %arg1: index) -> index {
  %c8192 = arith.constant 8192 : index
  %c100 = arith.constant 100 : index
  %c64 = arith.constant 64 : index
  %c40 = arith.constant 40 : index
  %0 = arith.muli %arg0, %c8192 : index
  %1:6 = stream.resource.pack slices({
    [0, 1] = %c100,
    [0, 3] = %0,
    [1, 2] = %c64,
    [2, 3] = %c40,
    [2, 3] = %arg1
  }) : index
  %2:6 = util.optimization_barrier %1#0, %1#1, %1#2, %1#3, %1#4, %1#5 : index, index, index, index, index, index
  util.return %2#0 : index
}

// -----

// Two slices of one size value whose lifetimes do not overlap share a bin;
// the pack starts at its base offset, whose alignment is not known: the total
// is aligned.

// CHECK-LABEL: util.func public @shared_bin
// CHECK-SAME:    (%[[BASE:.+]]: index, %[[M:.+]]: index)
// CHECK:         %[[SIZE:.+]] = arith.muli %[[M]], %c64 : index
// CHECK-NEXT:    %[[END:.+]] = arith.addi %[[BASE]], %[[SIZE]] : index
// CHECK-NEXT:    %[[C63:.+]] = arith.constant 63 : index
// CHECK-NEXT:    %[[BUMP:.+]] = arith.addi %[[END]], %[[C63]] : index
// CHECK:         %[[TOTAL:.+]] = arith.muli
// CHECK-NEXT:    util.optimization_barrier %[[TOTAL]], %[[BASE]], %[[BASE]] : index, index, index
util.func public @shared_bin(%arg0: index, %arg1: index) -> index {
  %c64 = arith.constant 64 : index
  %0 = arith.muli %arg1, %c64 : index
  %1:3 = stream.resource.pack offset(%arg0) slices({
    [0, 1] = %0,
    [2, 3] = %0
  }) : index
  %2:3 = util.optimization_barrier %1#0, %1#1, %1#2 : index, index, index
  util.return %2#0 : index
}
