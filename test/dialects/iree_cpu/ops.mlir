// RUN: mini-iree-opt %s --split-input-file | mini-iree-opt --split-input-file | filecheck %s
// RUN: mini-iree-opt %s --split-input-file --mlir-print-op-generic | mini-iree-opt --split-input-file | filecheck %s

// The resolvers as executable targets name them.
// CHECK-LABEL: func.func @resolvers
// CHECK-SAME: a = #iree_cpu.cpu_encoding_resolver<>
// CHECK-SAME: b = #iree_cpu.vmvx_encoding_resolver<>
func.func @resolvers() attributes {
    a = #iree_cpu.cpu_encoding_resolver<>,
    b = #iree_cpu.vmvx_encoding_resolver<>} {
  return
}

// -----

// Resolved layouts: a matmul LHS, RHS (transposed to N x K) and vector result.
// CHECK-LABEL: func.func @resolved_layouts
// CHECK-SAME: a = #iree_cpu.cpu_encoding_resolver<configuration = {encoding_info = {innerDimsPos = [0, 1], innerTileSizes = [8, 1], outerDimsPerm = [0, 1]}}>
// CHECK-SAME: b = #iree_cpu.cpu_encoding_resolver<configuration = {encoding_info = {innerDimsPos = [1, 0], innerTileSizes = [8, 1], outerDimsPerm = [1, 0]}}>
// CHECK-SAME: c = #iree_cpu.vmvx_encoding_resolver<configuration = {encoding_info = {innerDimsPos = [0], innerTileSizes = [8], outerDimsPerm = [0]}}>
func.func @resolved_layouts() attributes {
    a = #iree_cpu.cpu_encoding_resolver<configuration = {encoding_info = {innerDimsPos = [0, 1], innerTileSizes = [8, 1], outerDimsPerm = [0, 1]}}>,
    b = #iree_cpu.cpu_encoding_resolver<configuration = {encoding_info = {innerDimsPos = [1, 0], innerTileSizes = [8, 1], outerDimsPerm = [1, 0]}}>,
    c = #iree_cpu.vmvx_encoding_resolver<configuration = {encoding_info = {innerDimsPos = [0], innerTileSizes = [8], outerDimsPerm = [0]}}>} {
  return
}

// -----

// While a layout is being chosen the configuration carries the target's
// fields: the configuration is any dictionary.
// CHECK-LABEL: func.func @target_configuration
// CHECK-SAME: a = #iree_cpu.cpu_encoding_resolver<configuration = {cpu_features = "+avx512f", target_triple = "x86_64-xyz-xyz"}>
func.func @target_configuration() attributes {
    a = #iree_cpu.cpu_encoding_resolver<configuration = {cpu_features = "+avx512f", target_triple = "x86_64-xyz-xyz"}>} {
  return
}

// -----

// The earlier name of the CPU resolver, in IREE's December 2024 IR.
// CHECK-LABEL: func.func @cpu_encoding_layout
// CHECK-SAME: a = #iree_cpu.cpu_encoding_layout<configuration = {encoding_info = {innerDimsPos = [0, 1], innerTileSizes = [1, 1], outerDimsPerm = [0, 1]}}>
func.func @cpu_encoding_layout() attributes {
    a = #iree_cpu.cpu_encoding_layout<configuration = {
      encoding_info = {innerDimsPos = [0, 1],
                       innerTileSizes = [1, 1],
                       outerDimsPerm = [0, 1]}
    }>} {
  return
}
