// RUN: mini-iree-opt %s -p iree-codegen-materialize-device-encoding --verify-diagnostics

// A padding layout has no materialized type at a function boundary (IREE pads
// where a binding holds the tensor): refused, never a wrong signature.

#padded = #iree_encoding.layout<[#iree_encoding.padding<[0, 64]>]>
// expected-error @+1 {{'func.func' op cannot be materialized: a function argument or result with a padding layout}}
func.func @padded_argument(%a: tensor<4x128xf16, #padded>) -> tensor<4x128xf16, #padded> {
  return %a : tensor<4x128xf16, #padded>
}
