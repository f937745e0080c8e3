// RUN: mini-iree-opt %s | filecheck %s --check-prefix=WALK
// RUN: mini-iree-opt %s --iree-era=3.13 | filecheck %s --check-prefix=IREE313
// RUN: mini-iree-opt %s --iree-era=3.13 | mini-iree-opt --iree-era=3.13 | filecheck %s --check-prefix=IREE313

// `#iree_encoding.testing` parses in both forms and prints as the run's era
// does: the walkthrough's IREE positionally, IREE 3.13 with `layouts = `
// (the only form 3.13 parses).

#positional = #iree_encoding.testing<[#iree_encoding.specialized<123>]>
#keyword = #iree_encoding.testing<layouts = [#iree_encoding.specialized<7>]>
util.func public @both(%a: tensor<4xf32, #positional>, %b: tensor<4xf32, #keyword>, %c: tensor<4xf32, #iree_encoding.testing<>>) {
  util.return
}
// WALK-DAG:    #iree_encoding.testing<[#iree_encoding.specialized<123>]>
// WALK-DAG:    #iree_encoding.testing<[#iree_encoding.specialized<7>]>
// WALK-DAG:    #iree_encoding.testing<>
// IREE313-DAG: #iree_encoding.testing<layouts = [#iree_encoding.specialized<123>]>
// IREE313-DAG: #iree_encoding.testing<layouts = [#iree_encoding.specialized<7>]>
// IREE313-DAG: #iree_encoding.testing<>
