// RUN: mini-iree-opt %s --split-input-file | mini-iree-opt --split-input-file | filecheck %s
// RUN: mini-iree-opt %s --split-input-file --mlir-print-op-generic | mini-iree-opt --split-input-file | filecheck %s

// Execution regions whose results are tied to captured resources (updated in
// place), and a concurrent region inside one. A tied result prints as the
// captured operand, with `as type` only when its type differs.

// CHECK-LABEL: util.func private @tied(
// CHECK:         stream.async.execute await(%arg2) => with(%arg0 as %[[A:.+]]: !stream.resource<*>{%arg1}) -> %arg0{%arg1} {
// CHECK:           %[[W:.+]] = stream.async.concurrent with(%[[A]] as %[[B:.+]]: !stream.resource<*>{%arg1}) -> %[[A]]{%arg1} {
// CHECK:             stream.yield %[[B]] : !stream.resource<*>{%arg1}
// CHECK:           }
// CHECK:           stream.yield %[[W]] : !stream.resource<*>{%arg1}
// CHECK:         } => !stream.timepoint
// CHECK:         stream.async.execute with(%arg0 as %{{.+}}: !stream.resource<*>{%arg1}) -> (%arg0 as !stream.resource<transient>{%arg1}, !stream.resource<*>{%arg1})
util.func private @tied(%arg0: !stream.resource<*>, %arg1: index, %arg2: !stream.timepoint) -> (!stream.resource<*>, !stream.timepoint) {
  %0:2 = stream.async.execute await(%arg2) => with(%arg0 as %arg3: !stream.resource<*>{%arg1}) -> %arg0 as !stream.resource<*>{%arg1} {
    %1 = stream.async.concurrent with(%arg3 as %arg4: !stream.resource<*>{%arg1}) -> %arg3 as !stream.resource<*>{%arg1} {
      stream.yield %arg4 : !stream.resource<*>{%arg1}
    }
    stream.yield %1 : !stream.resource<*>{%arg1}
  } => !stream.timepoint
  %2:3 = stream.async.execute with(%arg0 as %arg5: !stream.resource<*>{%arg1}) -> (%arg0 as !stream.resource<transient>{%arg1}, !stream.resource<*>{%arg1}) {
    %3 = stream.async.clone %arg5 : !stream.resource<*>{%arg1} -> !stream.resource<transient>{%arg1}
    stream.yield %3, %arg5 : !stream.resource<transient>{%arg1}, !stream.resource<*>{%arg1}
  } => !stream.timepoint
  util.return %0#0, %0#1 : !stream.resource<*>, !stream.timepoint
}
