// RUN: mini-iree-opt %s -p iree-stream-encode-host-tensors --split-input-file --verify-diagnostics

// An encoding no target has resolved has no size: specialize-encodings must run first.

#map = affine_map<(d0, d1, d2) -> (d0, d2)>
#map1 = affine_map<(d0, d1, d2) -> (d2, d1)>
#map2 = affine_map<(d0, d1, d2) -> (d0, d1)>
#encoding = #iree_encoding.encoding<operand_index = 0 : index, op_type = matmul, element_types = [f32, f32, f32], user_indexing_maps = [#map, #map1, #map2], iteration_sizes = [?, ?, ?]>
util.func public @sizeof_unserialized(%arg0: index, %arg1: index) -> index {
  // expected-error-re @+1 {{unsupported (unserialized) tensor encoding: tensor<?x?xf32, #iree_encoding.encoding<operand_index = 0 : index, op_type = matmul, {{.*}}>>}}
  %0 = stream.tensor.sizeof tensor<?x?xf32, #encoding>{%arg0, %arg1} : index
  util.return %0 : index
}

// -----

// The same for a constant, which needs its size too.

#encoding = #iree_encoding.testing<>
util.func public @constant_unserialized() -> !stream.resource<constant> {
  // expected-error @+1 {{unsupported (unserialized) tensor encoding: tensor<2xf32, #iree_encoding.testing<>>}}
  %0 = stream.tensor.constant : tensor<2xf32, #encoding> in !stream.resource<constant> = dense<1.0> : tensor<2xf32>
  util.return %0 : !stream.resource<constant>
}

// -----

// A dynamic inner tile only VMVX can size (it pads to 16); a CPU layout cannot.

#layout = #iree_encoding.layout<[#iree_cpu.cpu_encoding_resolver<configuration = {encoding_info = {innerDimsPos = [0], innerTileSizes = [-9223372036854775808], outerDimsPerm = [0]}}>]>
util.func public @sizeof_dynamic_tile(%arg0: index) -> index {
  // expected-error @+1 {{'stream.tensor.sizeof' op failed to calculate total byte count: cannot size tensor<?xf32, #iree_encoding.layout}}
  %0 = stream.tensor.sizeof tensor<?xf32, #layout>{%arg0} : index
  util.return %0 : index
}

// -----

// Sub-byte elements are widened to their storage type; elided ones cannot be, and the
// error names the constant.
util.func public @elided_sub_byte_constant() -> !stream.resource<constant> {
  // expected-error @+1 {{'stream.tensor.constant' op cannot widen the elements of dense_resource<__elided__> : tensor<4xi1> to i8 storage}}
  %cst = stream.tensor.constant : tensor<4xi1> in !stream.resource<constant> = dense_resource<__elided__> : tensor<4xi1>
  util.return %cst : !stream.resource<constant>
}

// -----

// A splat pattern must be whole bytes; an i3 is not packed (not a power of two) and not a byte.
util.func public @splat_i3(%v: i3, %size: index) -> !stream.resource<*> {
  // expected-error @+1 {{'stream.tensor.splat' op has unsupported pattern type 'i3' with too large/non-byte-aligned bit width; a new builtin is required}}
  %0 = stream.tensor.splat %v : i3 -> tensor<8xi3> in !stream.resource<*>{%size}
  util.return %0 : !stream.resource<*>
}

// -----

// Sub-byte elements packed two to a byte leave half a byte over: no whole byte count.
util.func public @sizeof_odd_i4() -> index {
  // expected-error @+1 {{'stream.tensor.sizeof' op failed to calculate total byte count: 'tensor<11xi4>' does not have integral number of total bytes}}
  %0 = stream.tensor.sizeof tensor<11xi4> : index
  util.return %0 : index
}
