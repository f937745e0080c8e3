// RUN: mini-iree-opt %s --split-input-file --verify-diagnostics

// A resolved layout (`configuration = {encoding_info = ...}`) is checked when a
// tensor type carries it, directly or inside #iree_encoding.layout, against
// that tensor's rank; the error is reported at the type, as MLIR reports a
// tensor encoding it cannot verify. Every resolver is checked alike.

// expected-error @+1 {{innerDimsPos index -1 is out of bounds for tensor rank 3}}
func.func @negative_inner_dim(%arg0: tensor<2x3x4xf32, #iree_cpu.vmvx_encoding_resolver<configuration = {encoding_info = {innerDimsPos = [-1], innerTileSizes = [8], outerDimsPerm = [0, 1, 2]}}>>) {
  return
}

// -----

#layout = #iree_gpu.gpu_encoding_resolver<configuration = {encoding_info = {innerDimsPos = [0, 1], innerTileSizes = [16, 16], outerDimsPerm = [1, 1]}}>
// expected-error @+1 {{outerDimsPerm contains duplicate index 1}}
func.func @repeated_outer_dim(%arg0: tensor<32x64xf32, #layout>) {
  return
}

// -----

// The same resolver fits a rank-2 tensor and not a rank-1 one: the check is per type.
#layout = #iree_cpu.cpu_encoding_resolver<configuration = {encoding_info = {innerDimsPos = [1], innerTileSizes = [8], outerDimsPerm = [0, 1]}}>
func.func @fits_rank_2(%arg0: tensor<4x16xf32, #layout>) {
  return
}
// expected-error @+1 {{innerDimsPos index 1 is out of bounds for tensor rank 1}}
func.func @does_not_fit_rank_1(%arg0: tensor<16xf32, #layout>) {
  return
}

// -----

// An identity layout (no tiles, no permutation, no swizzle) fits every tensor.
#identity = #iree_cpu.cpu_encoding_resolver<configuration = {encoding_info = {innerDimsPos = [], innerTileSizes = [], outerDimsPerm = []}}>
func.func @identity(%arg0: tensor<16xf32, #identity>, %arg1: tensor<2x3x4xf32, #identity>) {
  return
}

// -----

// A resolver alone (here an executable target's) is not checked: it describes no tensor yet.
#target = #hal.executable.target<"llvm-cpu", "embedded-elf-x86_64", {iree.encoding.resolver = #iree_cpu.cpu_encoding_resolver<configuration = {encoding_info = {innerDimsPos = [0, 1], innerTileSizes = [8, 1], outerDimsPerm = [0, 128]}}>}>
func.func @unattached() attributes {hal.executable.target = #target} {
  return
}

// -----

// A type written in an op's attribute is checked as it is read.
#layout = #iree_encoding.layout<[#iree_gpu.gpu_encoding_resolver<configuration = {encoding_info = {innerDimsPos = [0, 1], innerTileSizes = [16, 16], outerDimsPerm = [0, 1], swizzle = {expandShape = [[["Internal", 16 : i16]], [["Internal", 16 : i16]]], permutation = [1, 1]}}}>]>
util.func public @sizeof(%d: index) -> index {
  // expected-error @+1 {{swizzle permutation is not a valid permutation}}
  %0 = stream.tensor.sizeof tensor<?x16xf32, #layout>{%d} : index
  util.return %0 : index
}
