// RUN: mini-iree-opt %s --split-input-file --verify-diagnostics

// A clone may change shape and element type, never the storage its encoding describes (IREE's verifier).

#enc = #iree_encoding.testing<>
util.func public @changes_encoding(%arg0: !stream.resource<*>, %s: index) -> !stream.resource<*> {
  // expected-error @+1 {{'stream.tensor.clone' op clones changing tensor encoding from <<NULL ATTRIBUTE>> to #iree_encoding.testing<>; not allowed}}
  %0 = stream.tensor.clone %arg0 : tensor<6xf32> in !stream.resource<*>{%s} -> tensor<6xf32, #enc> in !stream.resource<*>{%s}
  util.return %0 : !stream.resource<*>
}

// -----

// An unserialized encoding may become any layout (IREE's SerializableAttr::areCompatible): no error.

#unserialized = #iree_encoding.testing<>
#serialized = #iree_encoding.testing<[#iree_encoding.specialized<123>]>
util.func public @resolves_encoding(%arg0: !stream.resource<*>, %d: index, %s: index) -> !stream.resource<*> {
  %0 = stream.tensor.clone %arg0 : tensor<?x4xf32, #unserialized>{%d} in !stream.resource<*>{%s} -> tensor<?x4xf32, #serialized>{%d} in !stream.resource<*>{%s}
  util.return %0 : !stream.resource<*>
}
