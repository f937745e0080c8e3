// RUN: mini-iree-opt %s --split-input-file -p iree-stream-annotate-dispatch-arguments | filecheck %s

// What every site passes: constants become `stream.values` (sorted), with
// their common alignment on index operands (0 says nothing about alignment);
// a value nothing is known about gets nothing. Bindings get the alignment of
// their offsets at all sites, 64 when the offsets say nothing (or are 0).

// CHECK-LABEL: module @values_and_alignments
// CHECK:      func.func @fn(%arg0: !stream.binding {stream.alignment = 64 : index}, %arg1: !stream.binding {stream.alignment = 128 : index},
// CHECK-SAME:   %arg2: index {stream.alignment = 128 : index, stream.values = [128 : index, 256 : index]},
// CHECK-SAME:   %arg3: index {stream.values = [0 : index]},
// CHECK-SAME:   %arg4: index,
// CHECK-SAME:   %arg5: i32 {stream.values = [3 : i32, 7 : i32]}) {
module @values_and_alignments {
  stream.executable private @ex {
    stream.executable.export public @fn workgroups() -> (index, index, index) {
      %c1 = arith.constant 1 : index
      stream.return %c1, %c1, %c1 : index, index, index
    }
    builtin.module {
      func.func @fn(%arg0: !stream.binding, %arg1: !stream.binding, %arg2: index, %arg3: index, %arg4: index, %arg5: i32) {
        return
      }
    }
  }
  util.func public @main(%arg0: !stream.resource<transient>, %arg1: index, %arg2: i1) {
    %c0 = arith.constant 0 : index
    %c128 = arith.constant 128 : index
    %c256 = arith.constant 256 : index
    %c3_i32 = arith.constant 3 : i32
    %c7_i32 = arith.constant 7 : i32
    %0 = arith.select %arg2, %c3_i32, %c7_i32 : i32
    %1 = stream.cmd.execute with(%arg0 as %arg3: !stream.resource<transient>{%arg1}) {
      stream.cmd.dispatch @ex::@fn(%c128, %c0, %arg1, %c3_i32 : index, index, index, i32) {
        ro %arg3[%c0 for %c128] : !stream.resource<transient>{%arg1},
        wo %arg3[%c256 for %c128] : !stream.resource<transient>{%arg1}
      }
      stream.cmd.dispatch @ex::@fn(%c256, %c0, %c128, %0 : index, index, index, i32) {
        ro %arg3[%arg1 for %c128] : !stream.resource<transient>{%arg1},
        wo %arg3[%c128 for %c128] : !stream.resource<transient>{%arg1}
      }
    } => !stream.timepoint
    util.return
  }
}

// -----

// The walkthrough's matmul after iree-stream-fuse-dispatch-bindings, as IREE
// 3.13 annotates it: the zero offsets of the LHS and the result get
// `stream.values = [0 : index]`, the RHS offset (a size) nothing.

// CHECK-LABEL: module @walkthrough_matmul
// CHECK:      func.func @matmul(%arg0: !stream.binding {stream.alignment = 64 : index}, %arg1: !stream.binding {stream.alignment = 64 : index},
// CHECK-SAME:   %arg2: index {stream.values = [0 : index]}, %arg3: index, %arg4: index {stream.values = [0 : index]}, %arg5: index) {
module @walkthrough_matmul {
  stream.executable private @ex {
    stream.executable.export public @matmul workgroups(%arg0: index) -> (index, index, index) {
      stream.return %arg0, %arg0, %arg0 : index, index, index
    }
    builtin.module {
      func.func @matmul(%arg0: !stream.binding, %arg1: !stream.binding, %arg2: index, %arg3: index, %arg4: index, %arg5: index) {
        return
      }
    }
  }
  util.func public @main(%arg0: !stream.resource<transient>, %arg1: !stream.resource<external>, %arg2: index, %arg3: index, %arg4: index) {
    %c0 = arith.constant 0 : index
    %c0_0 = arith.constant 0 : index
    %0 = stream.cmd.execute with(%arg0 as %arg5: !stream.resource<transient>{%arg3}, %arg1 as %arg6: !stream.resource<external>{%arg4}) {
      stream.cmd.dispatch @ex::@matmul[%arg2](%c0, %arg2, %c0, %arg2 : index, index, index, index) {
        ro %arg5[%c0_0 for %arg3] : !stream.resource<transient>{%arg3},
        wo %arg6[%c0_0 for %arg4] : !stream.resource<external>{%arg4}
      }
    } => !stream.timepoint
    util.return
  }
}
