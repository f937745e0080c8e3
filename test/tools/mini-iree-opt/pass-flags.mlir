// Passes as flags, as iree-opt takes them: in command-line order, mixed with -p, options after '='.
// RUN: mini-iree-opt --cse -split-input-file %s | filecheck %s
// RUN: mini-iree-opt -split-input-file %s -cse | filecheck %s
// RUN: mini-iree-opt %s --canonicalize -p cse --iree-util-hoist-into-globals=max-size-increase-threshold=64 \
// RUN:   --iree-dispatch-creation-set-encoding="encoding-option=padding" -split-input-file --dump-pass-pipeline \
// RUN:   2>&1 >/dev/null | filecheck %s --check-prefix=ORDER
// RUN: mini-iree-opt %s -split-input-file -pass-pipeline='builtin.module(func.func(cse))' | filecheck %s
// RUN: not mini-iree-opt %s --pass-pipeline='builtin.module(cse)' --cse 2>&1 | filecheck %s --check-prefix=MIXED
// RUN: not mini-iree-opt %s --iree-no-such-pass 2>&1 | filecheck %s --check-prefix=UNKNOWN

// CHECK-LABEL: func.func @two_equal_constants
// CHECK-NEXT:    %c4 = arith.constant 4 : index
// CHECK-NEXT:    return %c4, %c4 : index, index
func.func @two_equal_constants() -> (index, index) {
  %c4 = arith.constant 4 : index
  %c4_0 = arith.constant 4 : index
  return %c4, %c4_0 : index, index
}

// -----

// CHECK-LABEL: func.func @second_piece
// CHECK-NEXT:    %c1 = arith.constant 1 : index
// CHECK-NEXT:    return %c1, %c1 : index, index
func.func @second_piece() -> (index, index) {
  %c1 = arith.constant 1 : index
  %c1_0 = arith.constant 1 : index
  return %c1, %c1_0 : index, index
}

// ORDER:      Pass Manager with 4 passes:
// ORDER-NEXT: builtin.module(
// ORDER-NEXT:   canonicalize,
// ORDER-NEXT:   cse,
// ORDER-NEXT:   iree-util-hoist-into-globals{max-size-increase-threshold=64},
// ORDER-NEXT:   iree-dispatch-creation-set-encoding{encoding-dims=false encoding-option=padding}
// ORDER-NEXT: )

// MIXED: <cmdline>:1:1: error: '-pass-pipeline' option can't be used with individual pass options
// UNKNOWN: error: unknown command line argument '--iree-no-such-pass'
