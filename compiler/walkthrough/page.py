"""The walkthrough as one self-contained HTML page: inline CSS, SVG and a little JavaScript, no network.

Left, the pass list as an outline (each pass linked to its section, with the
interpreter's verdict); right, one section per stage with the pass's summary,
flag and options, the IR after it (syntax-coloured, changed lines marked) and the
diff against the stage before; then a card per encoding with its layout
pictures and XLA form; last, the final program's results and timing.
"""

from __future__ import annotations

from html import escape

from . import cards as cards_mod
from . import provenance, values
from .highlight import highlight_line
from .stages import Walkthrough
from .textdiff import changed_lines, unified

CSS = """
*{box-sizing:border-box}
body{margin:0;font:14px/1.45 system-ui,-apple-system,Segoe UI,Roboto,sans-serif;color:#1d1d1f;background:#fafafa}
nav#outline{position:fixed;top:0;left:0;bottom:0;width:330px;overflow:auto;background:#fff;border-right:1px solid #ddd;
 padding:12px 10px}
nav#outline h1{font-size:16px;margin:0 0 4px}
nav#outline ol{padding-left:0;margin:8px 0;list-style:none}
nav#outline li{margin:1px 0}
nav#outline a{display:block;padding:2px 6px;border-radius:4px;color:#1d1d1f;text-decoration:none;font:12px/1.35 monospace;
 white-space:nowrap;overflow:hidden;text-overflow:ellipsis}
nav#outline a:hover,nav#outline a.current{background:#e8f0fe}
nav#outline a.unchanged{color:#888}
.badge{display:inline-block;min-width:14px;text-align:center;border-radius:3px;font-size:11px;padding:0 3px;margin-right:4px}
.ok{background:#d4f4dd;color:#1a6b33}.fail{background:#fde2e1;color:#a1261d}.na{background:#eee;color:#666}
main{margin-left:330px;padding:16px 24px;max-width:1400px}
section.stage,section.panel{background:#fff;border:1px solid #ddd;border-radius:6px;padding:10px 14px;margin:0 0 16px}
section.stage h2{font:600 15px monospace;margin:0}
p.summary{margin:4px 0}
p.meta,p.meta code{color:#555;font-size:12px;margin:2px 0}
pre{background:#fbfbfd;border:1px solid #eee;border-radius:4px;padding:6px 0;overflow:auto;max-height:560px;margin:6px 0;
 font:12px/1.4 ui-monospace,Menlo,Consolas,monospace}
pre span.l{display:block;padding:0 8px;white-space:pre}
pre span.chg{background:#fff7d6;box-shadow:inset 3px 0 #e6b400}
pre span.add{background:#e6ffec;box-shadow:inset 3px 0 #2da44e}
pre span.del{background:#ffebe9;box-shadow:inset 3px 0 #cf222e}
pre span.hunk{color:#6f42c1;background:#f3efff}
.c{color:#6a737d;font-style:italic}.s{color:#032f62}.v{color:#b35900}.y{color:#6f42c1}.a{color:#005cc5;font-weight:600}
.t{color:#22863a}.n{color:#005cc5}.o{color:#d73a49;font-weight:600}.k{color:#d73a49}
.tabs button{font:12px system-ui;border:1px solid #ccc;background:#f6f6f6;border-radius:4px;padding:2px 10px;cursor:pointer}
.tabs button.on{background:#1d1d1f;color:#fff;border-color:#1d1d1f}
table{border-collapse:collapse;font-size:13px}td,th{border:1px solid #ddd;padding:3px 8px;text-align:left;vertical-align:top}
td code{white-space:pre-wrap;word-break:break-all}
details.doc summary{font-size:12px;color:#555;cursor:pointer}
pre.doc{font:12px/1.4 system-ui,sans-serif;white-space:pre-wrap;padding:6px 10px;max-height:none}
.error{background:#fde2e1;border:1px solid #f5b5b0;padding:8px;border-radius:4px;font-family:monospace}
"""

# Records script errors on the page (the browser test asserts there are none) and
# wires the IR/diff tabs and the outline's current-section highlight.
HEAD_SCRIPT = """
window.addEventListener('error',function(e){var b=document.documentElement;
 b.setAttribute('data-errors',String(+(b.getAttribute('data-errors')||0)+1));
 b.setAttribute('data-last-error',String(e.message));});
"""

BODY_SCRIPT = r"""
(function(){
 document.querySelectorAll('section.stage').forEach(function(s){
  var bs=s.querySelectorAll('.tabs button');
  bs.forEach(function(b){b.addEventListener('click',function(){
   bs.forEach(function(o){o.classList.toggle('on',o===b);});
   s.querySelectorAll('pre[data-view]').forEach(function(p){p.hidden=p.getAttribute('data-view')!==b.getAttribute('data-view');});
  });});
 });
 var links={};document.querySelectorAll('nav#outline a[href^="#"]').forEach(function(a){links[a.getAttribute('href').slice(1)]=a;});
 if('IntersectionObserver' in window){
  var io=new IntersectionObserver(function(es){es.forEach(function(e){var a=links[e.target.id];
   if(a&&e.isIntersecting){Object.keys(links).forEach(function(k){links[k].classList.remove('current');});a.classList.add('current');}});},
   {rootMargin:'0px 0px -70% 0px'});
  document.querySelectorAll('section[id]').forEach(function(s){io.observe(s);});
 }
 // ?from=stage-N starts the page at that section (a link to one pass; headless screenshots of it).
 var from=/[?&]from=([\w-]+)/.exec(location.search);
 if(from&&document.getElementById(from[1])){var hide=true;document.querySelectorAll('main>section').forEach(function(s){
  if(s.id===from[1])hide=false;if(hide&&s.id!=='top')s.hidden=true;});}
 // j / k: the next / previous pass.
 var stages=[].slice.call(document.querySelectorAll('section.stage'));
 document.addEventListener('keydown',function(e){
  if(e.target.tagName==='INPUT'||(e.key!=='j'&&e.key!=='k'))return;
  var y=window.scrollY+5,i=0;while(i<stages.length&&stages[i].offsetTop<=y)i++;
  var t=e.key==='j'?stages[i]:stages[Math.max(i-2,0)];if(t)t.scrollIntoView();});
 document.documentElement.setAttribute('data-ready','1');
})();
"""


def _rich_text(text: str) -> str:
    """A docstring summary as HTML: its ``literal`` spans become <code>."""
    parts = escape(text).split("``")
    return "".join(f"<code>{p}</code>" if i % 2 else p for i, p in enumerate(parts))


def _pre_ir(text: str, changed: set[int], view: str, hidden: bool) -> str:
    lines = []
    for i, line in enumerate(text.splitlines()):
        cls = "l chg" if i in changed else "l"
        lines.append(f'<span class="{cls}">{highlight_line(line) or " "}</span>')
    return f'<pre data-view="{view}" class="ir"{" hidden" if hidden else ""}>{"".join(lines)}</pre>'


def _pre_diff(before: str, after: str) -> tuple[str, int]:
    diff = unified(before, after)
    if not diff:
        return '<pre data-view="diff" class="diff"><span class="l c">(the pass left the IR unchanged)</span></pre>', 0
    cls = {"+": "l add", "-": "l del", "@": "l hunk", " ": "l"}
    sign = {"+": "+", "-": "-", " ": " ", "@": ""}
    out = []
    for line in diff:
        body = escape(line.text) if line.kind == "@" else highlight_line(line.text)
        out.append(f'<span class="{cls[line.kind]}">{sign[line.kind]}{body}</span>')
    return f'<pre data-view="diff" class="diff">{"".join(out)}</pre>', sum(1 for d in diff if d.kind in "+-")


def _check_badge(stage) -> str:
    if stage.check is None:
        return '<span class="badge na" title="not checked">·</span>'
    if stage.check.ok:
        return f'<span class="badge ok" title="{escape(stage.check.message)}">=</span>'
    return f'<span class="badge fail" title="{escape(stage.check.message)}">≠</span>'


def render_page(walk: Walkthrough) -> str:
    cards, per_stage = cards_mod.collect_cards(walk)
    stage_names = {s.index: f"{s.index}. {s.flag}" for s in walk.stages}
    nav = [
        f"<h1>{escape(walk.program)}</h1>",
        f'<p class="meta"><code>{escape(walk.pipeline)}</code></p>',
        '<p class="meta">= results kept, ≠ changed; grey: the pass changed nothing; keys j / k: next / previous</p><ol>',
    ]
    body = []
    for i, stage in enumerate(walk.stages):
        before = walk.stages[i - 1].text if i else ""
        changed = changed_lines(before, stage.text) if i else set()
        unchanged = i > 0 and not changed and before == stage.text
        nav.append(
            f'<li><a href="#stage-{stage.index}" class="{"unchanged" if unchanged else ""}" '
            f'title="{escape(stage.summary)}">{_check_badge(stage)}{escape(stage_names[stage.index])}</a></li>'
        )
        parts = [
            f'<section class="stage" id="stage-{stage.index}" data-pass="{escape(stage.flag)}" '
            f'data-changed="{len(changed)}">',
            f"<h2>{escape(stage_names[stage.index])}</h2>",
            f'<p class="summary">{_rich_text(stage.summary)}</p>',
        ]
        if stage.description and stage.description != stage.summary:
            parts.append(
                f'<details class="doc"><summary>the pass\'s description</summary><pre class="doc">'
                f"{escape(stage.description)}</pre></details>"
            )
        if stage.index:
            parts.append(
                f'<p class="meta">IREE flag <code>--{escape(stage.flag)}</code>; pass <code>{escape(stage.class_name)}'
                f"</code>; as run: <code>{escape(stage.spec)}</code>; {stage.seconds * 1000:.1f} ms</p>"
            )
        if stage.check is not None:
            status = "ok" if stage.check.ok else "fail"
            parts.append(f'<p class="meta check {status}">interpreter: {escape(stage.check.message)}</p>')
        chips = per_stage.get(stage.index, [])
        if chips:
            parts.append(
                '<p class="chips">encodings: '
                + "".join(
                    f'<a href="#{c.anchor}" title="{escape(c.tensor_text)}">{escape(cards_mod.chip_label(c))}</a>' for c in chips
                )
                + "</p>"
            )
        parts.append(provenance.render_stage(walk, stage))
        parts.append(values.render_stage(walk, stage))
        if stage.index:
            diff_html, count = _pre_diff(before, stage.text)
            parts.append(
                '<div class="tabs"><button class="on" data-view="diff">diff (%d lines)</button> '
                '<button data-view="ir">IR after</button></div>' % count
            )
            parts.append(diff_html)
            # An unchanged stage's IR is the one above it: not repeated, the page stays smaller.
            if unchanged:
                parts.append('<pre data-view="ir" class="ir" hidden><span class="l c">(as after the pass above)</span></pre>')
            else:
                parts.append(_pre_ir(stage.text, changed, "ir", hidden=True))
        else:
            parts.append(_pre_ir(stage.text, set(), "ir", hidden=False))
        parts.append("</section>")
        body.append("".join(parts))
    nav.append("</ol>")
    if walk.error:
        body.append(f'<section class="panel" id="failure"><h2>The pipeline stopped</h2><p class="error">'
                    f"{escape(walk.error)}</p></section>")  # fmt: skip
        nav.append('<p><a href="#failure">the pipeline stopped</a></p>')
    nav.append(f'<p><a href="#encodings">encodings ({len(cards)})</a></p>')
    body.append(f'<section class="panel" id="encodings"><h2>Encodings ({len(cards)})</h2>')
    body.append(
        '<p class="meta">Each picture is the logical tensor; a cell holds the offset in memory of that element. '
        "Cells of one tile share a colour (large tiles: the hue is the offset within the tile, the lightness "
        "alternates between tiles); dashed grey cells are padding.</p>"
    )
    body.extend(cards_mod.card_html(c, stage_names) for c in cards)
    body.append("</section>")
    if walk.final_runs:
        nav.append('<p><a href="#result">final result</a></p>')
        body.append(_result_html(walk))
    header = (
        f'<section class="panel" id="top"><h2>{escape(walk.program)}: {len(walk.stages) - 1} passes</h2>'
        f'<p class="meta">pipeline <code>{escape(walk.pipeline)}</code>; targets '
        f"{escape(', '.join(walk.targets) or 'none')}; interpreter inputs: seed {walk.seed}, every dynamic "
        f"dimension {walk.dynamic_size}</p></section>"
    )
    return (
        "<!DOCTYPE html>\n<html lang=\"en\" data-errors=\"0\"><head><meta charset=\"utf-8\">"
        f"<title>walkthrough: {escape(walk.program)}</title><style>{CSS}{cards_mod.CSS}{provenance.CSS}{values.CSS}</style>"
        f"<script>{HEAD_SCRIPT}</script></head><body>"
        f'<nav id="outline">{"".join(nav)}</nav><main>{header}{"".join(body)}</main>'
        f"<script>{BODY_SCRIPT}{cards_mod.SCRIPT}{provenance.SCRIPT}{values.SCRIPT}</script></body></html>\n"
    )


def _result_html(walk: Walkthrough) -> str:
    rows = []
    for run in walk.final_runs:
        status = f"equal (largest error {run.largest_error:.3g})" if run.ok else "DIFFERENT"
        ratio = run.final_seconds / run.reference_seconds if run.reference_seconds else float("nan")
        rows.append(
            f"<tr><td>@{escape(run.function)}</td>"
            f"<td>{'<br>'.join(f'<code>{escape(v)}</code>' for v in run.inputs)}</td>"
            f"<td>{'<br>'.join(f'<code>{escape(v)}</code>' for v in run.results)}</td>"
            f'<td class="{"ok" if run.ok else "fail"}">{status}</td>'
            f"<td>{run.final_seconds * 1000:.3f} ms</td><td>{run.reference_seconds * 1000:.3f} ms</td>"
            f"<td>{ratio:.2f}x</td></tr>"
        )
    return (
        '<section class="panel" id="result"><h2>The final program</h2>'
        '<p class="meta">The last stage run by the interpreter on the seeded inputs (every dynamic dimension '
        f"{walk.dynamic_size}), against the input program run the same way. Times: best of 5 with every dynamic "
        f"dimension {walk.timing_size}; the input program runs each op as one whole-array numpy call (a matmul is "
        "numpy's BLAS), so it is the numpy baseline.</p>"
        "<table><tr><th>function</th><th>inputs</th><th>results (final program)</th><th>vs input program</th>"
        "<th>final</th><th>numpy (input program)</th><th>ratio</th></tr>" + "".join(rows) + "</table></section>"
    )
