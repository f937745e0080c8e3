// RUN: mini-iree-opt %s --split-input-file | mini-iree-opt --split-input-file | filecheck %s
// RUN: mini-iree-opt %s --split-input-file --mlir-print-op-generic | mini-iree-opt --split-input-file | filecheck %s

// `return` is printed without its `func.` prefix, as MLIR does.
// CHECK-LABEL: func.func @args_and_results(%arg0: tensor<?x?xf32>, %arg1: tensor<?x?xf32>) -> tensor<?x?xf32> {
// CHECK-NEXT: return %arg0 : tensor<?x?xf32>
func.func @args_and_results(%arg0: tensor<?x?xf32>, %arg1: tensor<?x?xf32>) -> tensor<?x?xf32> {
  return %arg0 : tensor<?x?xf32>
}

// -----

// Dispatch functions take no arguments and carry their configuration as attributes.
// CHECK-LABEL: func.func @with_attributes() attributes {some.config = "x", translation_info = 1 : i64} {
// CHECK-NEXT: return
func.func @with_attributes() attributes {some.config = "x", translation_info = 1 : i64} {
  return
}

// -----

// The attribute dictionary may be written over several lines.
// CHECK-LABEL: func.func @multiline_attributes() attributes {hal.executable.target = "t"} {
func.func @multiline_attributes() attributes {
hal.executable.target = "t"
} {
return
}
