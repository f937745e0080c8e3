// RUN: mini-iree-opt %s --split-input-file -p iree-stream-pack-dispatch-operands | filecheck %s

// An index operand travels as two i32 words, low first; the function rebuilds
// it as walkthrough dump 18 prints it. Uses of the argument (here a
// `util.assume.int`) now use the rebuilt value.

// CHECK-LABEL: module @index_operand
// CHECK:      func.func @fn(%arg0: !stream.binding, %arg1: i32, %arg2: i32, %arg3: !stream.binding) {
// CHECK-NEXT:   %c32_i64 = arith.constant 32 : i64
// CHECK-NEXT:   %[[LO:.+]] = arith.extui %arg1 : i32 to i64
// CHECK-NEXT:   %[[HI:.+]] = arith.extui %arg2 : i32 to i64
// CHECK-NEXT:   %[[SHL:.+]] = arith.shli %[[HI]], %c32_i64 : i64
// CHECK-NEXT:   %[[OR:.+]] = arith.ori %[[LO]], %[[SHL]] : i64
// CHECK-NEXT:   %[[N:.+]] = arith.index_castui %[[OR]] : i64 to index
// CHECK-NEXT:   util.assume.int %[[N]]<umin = 0, umax = 9007199254740991> : index
// CHECK:      util.func public @main
// CHECK:        %[[D:.+]] = hal.buffer_view.dim
// CHECK:        %[[D64:.+]] = arith.index_castui %[[D]] : index to i64
// CHECK-NEXT:   %[[DLO:.+]] = arith.trunci %[[D64]] : i64 to i32
// CHECK-NEXT:   %[[C32:.+]] = arith.constant 32 : i64
// CHECK-NEXT:   %[[DSHR:.+]] = arith.shrui %[[D64]], %[[C32]] : i64
// CHECK-NEXT:   %[[DHI:.+]] = arith.trunci %[[DSHR]] : i64 to i32
// CHECK-NEXT:   stream.async.dispatch @ex::@fn[%[[D]]](%arg1[%c0 to %arg2 for %arg2], %[[DLO]], %[[DHI]]) : (!stream.resource<*>{%arg2}, i32, i32) -> !stream.resource<*>{%arg2}
module @index_operand {
  stream.executable private @ex {
    stream.executable.export public @fn workgroups(%arg0: index) -> (index, index, index) {
      stream.return %arg0, %arg0, %arg0 : index, index, index
    }
    builtin.module {
      func.func @fn(%arg0: !stream.binding, %arg1: index, %arg2: !stream.binding) {
        %0 = util.assume.int %arg1<umin = 0, umax = 9007199254740991> : index
        %1 = iree_tensor_ext.dispatch.workload.ordinal %0, 0 : index
        return
      }
    }
  }
  util.func public @main(%arg0: !hal.buffer_view, %arg1: !stream.resource<*>, %arg2: index) -> !stream.resource<*> {
    %c0 = arith.constant 0 : index
    %0 = hal.buffer_view.dim<%arg0 : !hal.buffer_view>[0] : index
    %1 = stream.async.dispatch @ex::@fn[%0](%arg1[%c0 to %arg2 for %arg2], %0) : (!stream.resource<*>{%arg2}, index) -> !stream.resource<*>{%arg2}
    util.return %1 : !stream.resource<*>
  }
}

// -----

// A constant operand is split at compile time: 5000000000 = 1 * 2^32 + 705032704.

// CHECK-LABEL: module @constant_operand
// CHECK:      %[[LO:.+]] = arith.constant 705032704 : i32
// CHECK-NEXT: %[[HI:.+]] = arith.constant 1 : i32
// CHECK-NEXT: stream.async.dispatch @ex::@fn(%arg0[%c0 to %arg1 for %arg1], %[[LO]], %[[HI]]) : (!stream.resource<*>{%arg1}, i32, i32)
module @constant_operand {
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
  util.func public @main(%arg0: !stream.resource<*>, %arg1: index) -> !stream.resource<*> {
    %c0 = arith.constant 0 : index
    %c5000000000 = arith.constant 5000000000 : index
    %0 = stream.async.dispatch @ex::@fn(%arg0[%c0 to %arg1 for %arg1], %c5000000000) : (!stream.resource<*>{%arg1}, index) -> !stream.resource<*>{%arg1}
    util.return %0 : !stream.resource<*>
  }
}

// -----

// i32 passes as it is; i8 is zero-extended; floats are bitcast to integers of
// their width (f64 then split like an i64).

// CHECK-LABEL: module @other_scalar_types
// CHECK:      func.func @fn(%arg0: i32, %arg1: i32, %arg2: i32, %arg3: i32, %arg4: i32, %arg5: !stream.binding) {
// CHECK-NEXT:   %c32_i64 = arith.constant 32 : i64
// CHECK-NEXT:   %[[I8:.+]] = arith.trunci %arg1 : i32 to i8
// CHECK-NEXT:   %[[F32:.+]] = arith.bitcast %arg2 : i32 to f32
// CHECK-NEXT:   %[[LO:.+]] = arith.extui %arg3 : i32 to i64
// CHECK-NEXT:   %[[HI:.+]] = arith.extui %arg4 : i32 to i64
// CHECK-NEXT:   %[[SHL:.+]] = arith.shli %[[HI]], %c32_i64 : i64
// CHECK-NEXT:   %[[OR:.+]] = arith.ori %[[LO]], %[[SHL]] : i64
// CHECK-NEXT:   %[[F64:.+]] = arith.bitcast %[[OR]] : i64 to f64
// CHECK-NEXT:   util.optimization_barrier %arg0, %[[I8]], %[[F32]], %[[F64]] : i32, i8, f32, f64
// CHECK:      util.func public @main(%arg0: i32, %arg1: i8, %arg2: f32, %arg3: f64
// CHECK-NEXT:   %c0 = arith.constant 0 : index
// CHECK-NEXT:   %[[E:.+]] = arith.extui %arg1 : i8 to i32
// CHECK-NEXT:   %[[B:.+]] = arith.bitcast %arg2 : f32 to i32
// CHECK-NEXT:   %[[B64:.+]] = arith.bitcast %arg3 : f64 to i64
// CHECK-NEXT:   %[[L:.+]] = arith.trunci %[[B64]] : i64 to i32
// CHECK-NEXT:   %[[C32:.+]] = arith.constant 32 : i64
// CHECK-NEXT:   %[[S:.+]] = arith.shrui %[[B64]], %[[C32]] : i64
// CHECK-NEXT:   %[[H:.+]] = arith.trunci %[[S]] : i64 to i32
// CHECK-NEXT:   stream.async.dispatch @ex::@fn(%arg0, %[[E]], %[[B]], %[[L]], %[[H]]) : (i32, i32, i32, i32, i32) -> !stream.resource<*>{%arg4}
module @other_scalar_types {
  stream.executable private @ex {
    stream.executable.export public @fn workgroups() -> (index, index, index) {
      %c1 = arith.constant 1 : index
      stream.return %c1, %c1, %c1 : index, index, index
    }
    builtin.module {
      func.func @fn(%arg0: i32, %arg1: i8, %arg2: f32, %arg3: f64, %arg4: !stream.binding) {
        %0:4 = util.optimization_barrier %arg0, %arg1, %arg2, %arg3 : i32, i8, f32, f64
        return
      }
    }
  }
  util.func public @main(%arg0: i32, %arg1: i8, %arg2: f32, %arg3: f64, %arg4: index) -> !stream.resource<*> {
    %c0 = arith.constant 0 : index
    %0 = stream.async.dispatch @ex::@fn(%arg0, %arg1, %arg2, %arg3) : (i32, i8, f32, f64) -> !stream.resource<*>{%arg4}
    util.return %0 : !stream.resource<*>
  }
}

// -----

// A result tied to an operand after a split scalar stays tied to that operand;
// argument attributes move to the op that rebuilds the value.

// CHECK-LABEL: module @tied_result_and_arg_attrs
// CHECK:      arith.index_castui %{{.+}} {stream.alignment = 16 : index} : i64 to index
// CHECK:      stream.async.dispatch @ex::@fn(%{{.+}}, %{{.+}}, %arg0[%c0 to %arg1 for %arg1]) : (i32, i32, !stream.resource<*>{%arg1}) -> %arg0{%arg1}
module @tied_result_and_arg_attrs {
  stream.executable private @ex {
    stream.executable.export public @fn workgroups() -> (index, index, index) {
      %c1 = arith.constant 1 : index
      stream.return %c1, %c1, %c1 : index, index, index
    }
    builtin.module {
      func.func @fn(%arg0: index {stream.alignment = 16 : index}, %arg1: !stream.binding) {
        return
      }
    }
  }
  util.func public @main(%arg0: !stream.resource<*>, %arg1: index) -> !stream.resource<*> {
    %c0 = arith.constant 0 : index
    %0 = stream.async.dispatch @ex::@fn(%arg1, %arg0[%c0 to %arg1 for %arg1]) : (index, !stream.resource<*>{%arg1}) -> %arg0{%arg1}
    util.return %0 : !stream.resource<*>
  }
}

// -----

// Private helpers of the executable keep their signatures.

// CHECK-LABEL: module @private_function_left_alone
// CHECK:      func.func private @helper(%arg0: index) -> index
module @private_function_left_alone {
  stream.executable private @ex {
    stream.executable.export public @fn workgroups() -> (index, index, index) {
      %c1 = arith.constant 1 : index
      stream.return %c1, %c1, %c1 : index, index, index
    }
    builtin.module {
      func.func private @helper(%arg0: index) -> index {
        return %arg0 : index
      }
      func.func @fn(%arg0: !stream.binding) {
        return
      }
    }
  }
}

// -----

// stream.cmd.dispatch sites: the uniform operands become words in place, the
// constant offsets at compile time.

// CHECK-LABEL: module @cmd_dispatch
// CHECK:      func.func @add(%arg0: !stream.binding {stream.alignment = 64 : index}, %arg1: !stream.binding {stream.alignment = 64 : index}, %arg2: i32, %arg3: i32, %arg4: i32, %arg5: i32, %arg6: i32, %arg7: i32, %arg8: i32, %arg9: i32) {
// CHECK:        stream.cmd.dispatch @ex::@add[%0](%c0_i32, %c0_i32_{{[0-9]+}}, %c0_i32_{{[0-9]+}}, %c0_i32_{{[0-9]+}}, %{{.+}}, %{{.+}}, %{{.+}}, %{{.+}} : i32, i32, i32, i32, i32, i32, i32, i32) {
// CHECK-NEXT:     ro %{{.+}}[%{{.+}} for %1] : !stream.resource<external>{%1},
// CHECK-NEXT:     wo %{{.+}}[%{{.+}} for %6] : !stream.resource<transient>{%6}
#executable_target_embedded_elf_x86_64 = #hal.executable.target<"llvm-cpu", "embedded-elf-x86_64">
#device_target_local = #hal.device.target<"local", [#executable_target_embedded_elf_x86_64]> : !hal.device
module @cmd_dispatch attributes {stream.affinity.default = #hal.device.affinity<@__device_0>} {
  util.global private @__device_0 = #device_target_local
  stream.executable private @ex {
    stream.executable.export public @add workgroups(%arg0: index) -> (index, index, index) {
      %x, %y, %z = iree_tensor_ext.dispatch.workgroup_count_from_slice(%arg0)
      stream.return %x, %y, %z : index, index, index
    }
    builtin.module {
      func.func @add(%arg0: !stream.binding {stream.alignment = 64 : index}, %arg1: !stream.binding {stream.alignment = 64 : index}, %arg2: index, %arg3: index, %arg4: index, %arg5: index) {
        %c0 = arith.constant 0 : index
        %c16 = arith.constant 16 : index
        %0 = iree_tensor_ext.dispatch.workload.ordinal %arg5, 0 : index
        %1 = stream.binding.subspan %arg0[%arg2] : !stream.binding -> !iree_tensor_ext.dispatch.tensor<readonly:tensor<?xf32>>{%0}
        %2 = stream.binding.subspan %arg0[%arg3] : !stream.binding -> !iree_tensor_ext.dispatch.tensor<readonly:tensor<?xf32>>{%0}
        %3 = stream.binding.subspan %arg1[%arg4] : !stream.binding -> !iree_tensor_ext.dispatch.tensor<writeonly:tensor<?xf32>>{%0}
        %4 = iree_tensor_ext.dispatch.tensor.load %1, offsets = [0], sizes = [%0], strides = [1] : !iree_tensor_ext.dispatch.tensor<readonly:tensor<?xf32>>{%0} -> tensor<?xf32>
        %5 = iree_tensor_ext.dispatch.tensor.load %2, offsets = [0], sizes = [%0], strides = [1] : !iree_tensor_ext.dispatch.tensor<readonly:tensor<?xf32>>{%0} -> tensor<?xf32>
        %6 = tensor.empty(%0) : tensor<?xf32>
        %7 = linalg.add ins(%4, %5 : tensor<?xf32>, tensor<?xf32>) outs(%6 : tensor<?xf32>) -> tensor<?xf32>
        iree_tensor_ext.dispatch.tensor.store %7, %3, offsets = [0], sizes = [%0], strides = [1] : tensor<?xf32> -> !iree_tensor_ext.dispatch.tensor<writeonly:tensor<?xf32>>{%0}
        return
      }
    }
  }
  util.func public @main(%arg0: !hal.buffer_view) -> !hal.buffer_view {
    %c0 = arith.constant 0 : index
    %c16 = arith.constant 16 : index
    %c64 = arith.constant 64 : index
    %c4 = arith.constant 4 : index
    %0 = hal.buffer_view.dim<%arg0 : !hal.buffer_view>[0] : index
    %1 = arith.muli %0, %c4 : index
    %2 = arith.muli %1, %c64 : index
    %3 = stream.tensor.import on(#hal.device.affinity<@__device_0>) %arg0 : !hal.buffer_view -> tensor<?xf32>{%0} in !stream.resource<external>{%1}
    %4 = arith.addi %2, %2 : index
    %5 = arith.addi %4, %c16 : index
    %6 = arith.addi %5, %c64 : index
    %result, %result_timepoint = stream.resource.alloca uninitialized on(#hal.device.affinity<@__device_0>) : !stream.resource<transient>{%6} => !stream.timepoint
    %result_0, %result_timepoint_1 = stream.resource.alloca uninitialized on(#hal.device.affinity<@__device_0>) : !stream.resource<external>{%1} => !stream.timepoint
    %7 = stream.timepoint.join max(%result_timepoint, %result_timepoint_1) => !stream.timepoint
    %c0_2 = arith.constant 0 : index
    %8 = stream.cmd.execute on(#hal.device.affinity<@__device_0>) await(%7) => with(%3 as %arg1: !stream.resource<external>{%1}, %result as %arg2: !stream.resource<transient>{%6}, %result_0 as %arg3: !stream.resource<external>{%1}) {
      stream.cmd.dispatch @ex::@add[%0](%c0, %c0, %2, %0 : index, index, index, index) {
        ro %arg1[%c0_2 for %1] : !stream.resource<external>{%1},
        wo %arg2[%c0_2 for %6] : !stream.resource<transient>{%6}
      }
      stream.cmd.dispatch @ex::@add[%0](%2, %4, %c0, %0 : index, index, index, index) {
        ro %arg2[%c0_2 for %6] : !stream.resource<transient>{%6},
        wo %arg3[%c0_2 for %1] : !stream.resource<external>{%1}
      }
    } => !stream.timepoint
    %9 = stream.resource.dealloca on(#hal.device.affinity<@__device_0>) await(%8) => %result : !stream.resource<transient>{%6} => !stream.timepoint
    %10 = stream.timepoint.join max(%9, %8) => !stream.timepoint
    %11 = stream.timepoint.await %10 => %result_0 : !stream.resource<external>{%1}
    %12 = stream.tensor.export on(#hal.device.affinity<@__device_0>) %11 : tensor<?xf32>{%0} in !stream.resource<external>{%1} -> !hal.buffer_view
    util.return %12 : !hal.buffer_view
  }
}
