// RUN: mini-iree-opt %s --split-input-file | mini-iree-opt --split-input-file | filecheck %s
// RUN: mini-iree-opt %s --split-input-file --mlir-print-op-generic | mini-iree-opt --split-input-file | filecheck %s

// cf is xDSL's dialect (IREE's tests branch inside dispatch regions with it).

// CHECK-LABEL: func.func @branches
// CHECK:   cf.cond_br %{{.+}}, ^bb1, ^bb2
// CHECK: ^bb1:
// CHECK:   cf.br ^bb3(%{{.+}} : i32)
// CHECK: ^bb3(%{{.+}}: i32):
func.func @branches(%c: i1, %a: i32, %b: i32) -> i32 {
  cf.cond_br %c, ^bb1, ^bb2
^bb1:
  cf.br ^bb3(%a : i32)
^bb2:
  cf.br ^bb3(%b : i32)
^bb3(%r: i32):
  return %r : i32
}
