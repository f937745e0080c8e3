// RUN: mini-iree-opt %s --split-input-file | filecheck %s

// Empty and comment-only chunks are empty modules, as in mlir-opt.

// CHECK:      module {
// CHECK-NEXT: }
// CHECK-NEXT: // -----
// CHECK-NEXT: module {
// CHECK-NEXT:   func.func @second
// -----

func.func @second() {
  return
}

// -----
// only a comment

// CHECK:      // -----
// CHECK-NEXT: module {
// CHECK-NEXT: }
