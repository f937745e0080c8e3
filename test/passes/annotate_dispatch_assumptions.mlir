// RUN: mini-iree-opt %s --split-input-file -p iree-stream-annotate-dispatch-assumptions | filecheck %s

// Dimensions read from buffer views are at most 2^53 - 1: every use of the
// argument goes through one `util.assume.int` at the top of the function.

// CHECK-LABEL: module @dynamic_dims
// CHECK:      func.func @fn(%arg0: !stream.binding, %arg1: index, %arg2: index, %arg3: !stream.binding) {
// CHECK-NEXT:   %[[A:.+]]:2 = util.assume.int
// CHECK-NEXT:       %arg1<umin = 0, umax = 9007199254740991>,
// CHECK-NEXT:       %arg2<umin = 0, umax = 9007199254740991>
// CHECK-NEXT:     : index, index
// CHECK-NEXT:   iree_tensor_ext.dispatch.workload.ordinal %[[A]]#0, 0 : index
// CHECK-NEXT:   iree_tensor_ext.dispatch.workload.ordinal %[[A]]#1, 1 : index
module @dynamic_dims {
  stream.executable private @ex {
    stream.executable.export public @fn workgroups(%arg0: index, %arg1: index) -> (index, index, index) {
      stream.return %arg0, %arg1, %arg0 : index, index, index
    }
    builtin.module {
      func.func @fn(%arg0: !stream.binding, %arg1: index, %arg2: index, %arg3: !stream.binding) {
        %0 = iree_tensor_ext.dispatch.workload.ordinal %arg1, 0 : index
        %1 = iree_tensor_ext.dispatch.workload.ordinal %arg2, 1 : index
        return
      }
    }
  }
  util.func public @main(%arg0: !hal.buffer_view, %arg1: !stream.resource<*>, %arg2: index) -> !stream.resource<*> {
    %c0 = arith.constant 0 : index
    %0 = hal.buffer_view.dim<%arg0 : !hal.buffer_view>[0] : index
    %1 = hal.buffer_view.dim<%arg0 : !hal.buffer_view>[1] : index
    %2 = stream.async.dispatch @ex::@fn[%0, %1](%arg1[%c0 to %arg2 for %arg2], %0, %1) : (!stream.resource<*>{%arg2}, index, index) -> !stream.resource<*>{%arg2}
    util.return %2 : !stream.resource<*>
  }
}

// -----

// Sizes computed from dimensions carry a range and a divisor; a constant is
// known exactly.

// CHECK-LABEL: module @sizes_and_constants
// CHECK:      util.assume.int
// CHECK-NEXT:     %arg1<umin = 0, umax = 576460752303423424, udiv = 64>,
// CHECK-NEXT:     %arg2<umin = 0, umax = 9007199254740992, udiv = 8>,
// CHECK-NEXT:     %arg3<umin = 7, umax = 7, udiv = 7>
// CHECK-NEXT:   : index, index, i32
module @sizes_and_constants {
  stream.executable private @ex {
    stream.executable.export public @fn workgroups() -> (index, index, index) {
      %c1 = arith.constant 1 : index
      stream.return %c1, %c1, %c1 : index, index, index
    }
    builtin.module {
      func.func @fn(%arg0: !stream.binding, %arg1: index, %arg2: index, %arg3: i32) {
        return
      }
    }
  }
  util.func public @main(%arg0: !hal.buffer_view, %arg1: !stream.resource<*>, %arg2: index) -> !stream.resource<*> {
    %c0 = arith.constant 0 : index
    %c8 = arith.constant 8 : index
    %c64 = arith.constant 64 : index
    %c7_i32 = arith.constant 7 : i32
    %0 = hal.buffer_view.dim<%arg0 : !hal.buffer_view>[0] : index
    %1 = arith.muli %0, %c64 : index
    %2 = arith.ceildivsi %0, %c8 : index
    %3 = arith.muli %2, %c8 : index
    %4 = stream.async.dispatch @ex::@fn(%arg1[%c0 to %arg2 for %arg2], %1, %3, %c7_i32) : (!stream.resource<*>{%arg2}, index, index, i32) -> !stream.resource<*>{%arg2}
    util.return %4 : !stream.resource<*>
  }
}

// -----

// One assumption per dispatch site; a site that knows nothing gets `<>`.

// CHECK-LABEL: module @two_dispatch_sites
// CHECK:      %[[A:.+]] = util.assume.int %arg1[<umin = 0, umax = 9007199254740991>, <umin = 16, umax = 16, udiv = 16>, <>] : index
module @two_dispatch_sites {
  stream.executable private @ex {
    stream.executable.export public @fn workgroups() -> (index, index, index) {
      %c1 = arith.constant 1 : index
      stream.return %c1, %c1, %c1 : index, index, index
    }
    builtin.module {
      func.func @fn(%arg0: !stream.binding, %arg1: index) {
        return
      }
    }
  }
  util.func public @main(%arg0: !hal.buffer_view, %arg1: !stream.resource<*>, %arg2: index) -> !stream.resource<*> {
    %c0 = arith.constant 0 : index
    %c16 = arith.constant 16 : index
    %0 = hal.buffer_view.dim<%arg0 : !hal.buffer_view>[0] : index
    %1 = stream.async.dispatch @ex::@fn(%arg1[%c0 to %arg2 for %arg2], %0) : (!stream.resource<*>{%arg2}, index) -> %arg1{%arg2}
    %2 = stream.async.dispatch @ex::@fn(%1[%c0 to %arg2 for %arg2], %c16) : (!stream.resource<*>{%arg2}, index) -> %1{%arg2}
    %3 = stream.async.dispatch @ex::@fn(%2[%c0 to %arg2 for %arg2], %arg2) : (!stream.resource<*>{%arg2}, index) -> %2{%arg2}
    util.return %3 : !stream.resource<*>
  }
}

// -----

// Nothing is known about a function argument of the host: no assumption.
// Bindings and float operands are never annotated.

// CHECK-LABEL: module @unknown_operand_left_alone
// CHECK-NOT:  util.assume.int
module @unknown_operand_left_alone {
  stream.executable private @ex {
    stream.executable.export public @fn workgroups() -> (index, index, index) {
      %c1 = arith.constant 1 : index
      stream.return %c1, %c1, %c1 : index, index, index
    }
    builtin.module {
      func.func @fn(%arg0: !stream.binding, %arg1: index, %arg2: f32) {
        return
      }
    }
  }
  util.func public @main(%arg0: !stream.resource<*>, %arg1: index, %arg2: f32) -> !stream.resource<*> {
    %c0 = arith.constant 0 : index
    %0 = stream.async.dispatch @ex::@fn(%arg0[%c0 to %arg1 for %arg1], %arg1, %arg2) : (!stream.resource<*>{%arg1}, index, f32) -> !stream.resource<*>{%arg1}
    util.return %0 : !stream.resource<*>
  }
}
