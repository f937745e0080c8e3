"""``mini-iree-walkthrough``: one HTML page that shows a pipeline running on a program, pass by pass.

    stages.py     runs the pipeline, keeping the IR, time and interpreter check after every pass
    highlight.py  MLIR syntax colouring as HTML spans
    textdiff.py   line diffs between consecutive stages
    encodings.py  every encoding in a stage, resolved to a layout, drawn with the layout algebra
    cards.py      the encoding cards of the page
    provenance.py the rewrites of each pass and the input ops behind every op
    values.py     the values a pass introduces, on the seeded inputs
    page.py       the self-contained HTML page
    excerpts.py   IR excerpts in a Markdown file, regenerated from the stages
"""
