"""``mini-iree-walkthrough``: one HTML page that shows a pipeline running on a program, pass by pass.

    stages.py      runs the pipeline, keeping the IR, time and interpreter check after every pass
    origins.py     the IR printed with the input positions of the op on each line
    rewrite_log.py the rewrite patterns a pass applied, counted while it runs
    captures.py    the values of the ops a pass introduced, kept by the interpreter's check
    highlight.py   MLIR syntax colouring as HTML spans
    textdiff.py    line diffs between consecutive stages, with each line's index in both stages
    summary.py     what a pass changed: ops added and removed, functions whose bodies changed
    doctext.py     a pass docstring as HTML text
    blog.py        where each pass is in IREE's data-tiling walkthrough: its dumps and section
    failure.py     the pass that failed and its diagnostic with the source line
    encodings.py   every encoding in a stage, resolved to a layout, drawn with the layout algebra
    layout_pictures.py  layout pictures that answer a hover: each cell's index, offset, tile and swizzle dims
    png.py         a palette PNG from an array of colour indices, for pictures too large for one SVG cell each
    cards.py       the encoding cards of the page
    provenance.py  the rewrites of each pass and the input ops behind every op
    values.py      the values a pass introduces, on the seeded inputs
    page.py        the self-contained HTML page: outline, navigation, search, one section per stage
    compare.py     two pipelines on one page, their passes aligned
    excerpts.py    IR excerpts in a Markdown file, regenerated from the stages
"""
