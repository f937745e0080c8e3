// REQUIRES: shared
// RUN: mini-iree-opt %shared/reference/seed-walkthrough/00-annotate-data-tiling-hints.before.mlir -p iree-dispatch-creation-annotate-data-tiling-hints | filecheck %s --check-prefix=WALK

// The reference dumps in ../shared through the pass: the cases of annotate_data_tiling_hints.mlir that need
// ../shared/reference, skipped (UNSUPPORTED) where it is absent.

// Walkthrough dump 00 -> 01: the matmul inside the dispatch region of a util.func gets the hint.
// WALK-LABEL: util.func public @matmul_f32f32f32(
// WALK:         flow.dispatch.region
// WALK:           linalg.fill
// WALK-NEXT:      linalg.matmul {iree.opt.data_tiling} ins(%2, %5 : tensor<?x?xf32>, tensor<?x?xf32>)
// WALK-NEXT:      flow.return
