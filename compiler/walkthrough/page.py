"""The walkthrough as one self-contained HTML page: inline CSS, SVG and a little JavaScript, no network.

Left, the pass list as an outline (each pass linked to its section, ``#stage-N``,
with the interpreter's verdict), a search box that finds the first pass that
introduced a text (an op name, an encoding, a type) and a toggle hiding the
passes that changed nothing. Right, one section per stage: what the pass changed
(ops added and removed, functions whose bodies changed), its summary, where it
is in IREE's walkthrough, the rewrites and values, and its diff against the
stage before (alias-only churn folded) next to the IR after it; then a card per
encoding, the failure if a pass failed, and the final program's results and
timing. Keys: j / k next / previous pass, / the search.

``StageRenderer`` renders the stages of one walkthrough; the comparison page
(compare.py) uses it for each of its two columns.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from html import escape

from . import blog, doctext, failure, provenance, values
from . import cards as cards_mod
from .highlight import highlight_line
from .stages import Stage, Walkthrough
from .summary import Change, format_delta, is_bookkeeping, op_counts, op_delta, what_changed
from .textdiff import DiffLine, alias_renames, unified

CSS = """
*{box-sizing:border-box}
body{margin:0;font:14px/1.45 system-ui,-apple-system,Segoe UI,Roboto,sans-serif;color:#1d1d1f;background:#fafafa;
 overflow:hidden}
nav#outline{position:fixed;top:0;left:0;bottom:0;width:330px;overflow:auto;background:#fff;border-right:1px solid #ddd;
 padding:12px 10px}
nav#outline h1{font-size:16px;margin:0 0 4px}
nav#outline ol{padding-left:0;margin:8px 0;list-style:none}
nav#outline li{margin:1px 0}
nav#outline a{display:block;padding:2px 6px;border-radius:4px;color:#1d1d1f;text-decoration:none;font:12px/1.35 monospace;
 white-space:nowrap;overflow:hidden;text-overflow:ellipsis}
nav#outline a:hover,nav#outline a.current{background:#e8f0fe}
nav#outline a.unchanged{color:#888}
nav#outline label{font-size:12px;color:#333;display:block;margin:4px 0}
form#find input{width:100%;font:12px monospace;padding:3px 6px;border:1px solid #bbb;border-radius:4px}
p#find-result{font-size:12px;margin:3px 0;color:#333;min-height:1em}
p#find-result.miss{color:#a1261d}
.badge{display:inline-block;min-width:14px;text-align:center;border-radius:3px;font-size:11px;padding:0 3px;margin-right:4px}
.ok{background:#d4f4dd;color:#1a6b33}.fail{background:#fde2e1;color:#a1261d}.na{background:#eee;color:#666}
/* The page scrolls inside <main>, not the document: headless Chromium's screenshots of a document scrolled to a
   #fragment come out blank (the capture ignores the scroll offset), a scrolled <main> they draw. */
main{margin-left:330px;height:100vh;overflow:auto;padding:16px 24px}
main>*{max-width:1400px}
html.hide-unchanged section.stage[data-unchanged],html.hide-unchanged nav#outline li.unchanged{display:none}
section.stage,section.panel{background:#fff;border:1px solid #ddd;border-radius:6px;padding:10px 14px;margin:0 0 16px}
section.stage.found{box-shadow:0 0 0 3px #e6b400}
section.stage h2{font:600 15px monospace;margin:0}
section.panel h2{font-size:17px;margin:4px 0}
div.changed{margin:6px 0;padding:5px 10px;background:#f6f8fa;border-left:3px solid #0969da;border-radius:3px;font-size:13px}
div.changed p{margin:1px 0}
div.changed .plus{color:#1a7f37;font-weight:600}div.changed .minus{color:#cf222e;font-weight:600}
div.changed code{font-size:12px}
div.changed .minor{opacity:.6;font-size:12px}
div.changed.nothing{border-left-color:#bbb;color:#666}
p.summary{margin:4px 0}
p.meta,p.meta code{color:#555;font-size:12px;margin:2px 0}
p.blog{font-size:12px;margin:2px 0;color:#6639ba}
pre{background:#fbfbfd;border:1px solid #eee;border-radius:4px;padding:6px 0;overflow:auto;max-height:560px;margin:6px 0;
 font:12px/1.4 ui-monospace,Menlo,Consolas,monospace}
pre span.l{display:block;padding:0 8px;white-space:pre}
pre span.chg{background:#fff7d6;box-shadow:inset 3px 0 #e6b400}
pre span.add{background:#e6ffec;box-shadow:inset 3px 0 #2da44e}
pre span.del{background:#ffebe9;box-shadow:inset 3px 0 #cf222e}
pre span.hunk{color:#6f42c1;background:#f3efff}
pre span.fold{color:#57606a;background:#f0f0f0;cursor:pointer;font-style:italic}
pre span.folded{display:block}pre span.folded[hidden]{display:none}
pre span.hit{outline:2px solid #e6b400}
pre span.ren{opacity:.55}
pre i,.attr i{font-style:normal}
.c{color:#6a737d;font-style:italic}.s{color:#032f62}.v{color:#b35900}.y{color:#6f42c1}.a{color:#005cc5;font-weight:600}
.t{color:#22863a}.n{color:#005cc5}.o{color:#d73a49;font-weight:600}.k{color:#d73a49}
.tabs button{font:12px system-ui;border:1px solid #ccc;background:#f6f6f6;border-radius:4px;padding:2px 10px;cursor:pointer}
.tabs button.on{background:#1d1d1f;color:#fff;border-color:#1d1d1f}
table{border-collapse:collapse;font-size:13px}td,th{border:1px solid #ddd;padding:3px 8px;text-align:left;vertical-align:top}
td code{white-space:pre-wrap;word-break:break-all}
details.doc summary{font-size:12px;color:#555;cursor:pointer}
div.doc{font-size:13px;padding:2px 10px;border-left:2px solid #eee}
div.doc p{margin:4px 0}div.doc ul{margin:4px 0;padding-left:20px}
pre.doc-literal{padding:4px 8px}
.error{background:#fde2e1;border:1px solid #f5b5b0;padding:8px;border-radius:4px;font-family:monospace}
pre.error{white-space:pre;max-height:none;font-size:12px}
@media print{body{overflow:visible}main{height:auto;overflow:visible;margin-left:0}nav#outline{display:none}}
"""

# Records script errors on the page (the browser test asserts there are none).
HEAD_SCRIPT = """
window.addEventListener('error',function(e){var b=document.documentElement;
 b.setAttribute('data-errors',String(+(b.getAttribute('data-errors')||0)+1));
 b.setAttribute('data-last-error',String(e.message));});
"""

# The IR/diff tabs, alias folds, the outline's current section, j/k, the toggle hiding passes that changed
# nothing, and the search "first pass that introduced X". The stops of j/k are the elements marked data-stop
# (a pass's section; on a comparison page, a row of two); they scroll inside <main>.
BODY_SCRIPT = r"""
(function(){
 var main=document.querySelector('main'),root=document.documentElement;
 document.querySelectorAll('section.stage').forEach(function(s){
  var bs=s.querySelectorAll('.tabs button');
  bs.forEach(function(b){b.addEventListener('click',function(){show(s,b.getAttribute('data-view'));});});
 });
 function show(s,view){
  s.querySelectorAll('.tabs button').forEach(function(o){o.classList.toggle('on',o.getAttribute('data-view')===view);});
  s.querySelectorAll('pre[data-view]').forEach(function(p){p.hidden=p.getAttribute('data-view')!==view;});
 }
 document.addEventListener('click',function(e){
  var a=e.target.closest&&e.target.closest('div.changed a[href^="#"]');
  if(a){var line=document.getElementById(a.getAttribute('href').slice(1));
   if(line){var s=line.closest('section.stage');show(s,'diff');var fold=line.closest('span.folded');if(fold)fold.hidden=false;}}
 });
 document.addEventListener('click',function(e){
  var f=e.target.closest&&e.target.closest('span.fold');if(!f)return;
  var body=f.nextElementSibling;body.hidden=!body.hidden;f.setAttribute('data-open',body.hidden?'0':'1');
 });
 var links={};document.querySelectorAll('nav#outline a[href^="#"]').forEach(function(a){links[a.getAttribute('href').slice(1)]=a;});
 if('IntersectionObserver' in window){
  var io=new IntersectionObserver(function(es){es.forEach(function(e){var a=links[e.target.id];
   if(a&&e.isIntersecting){Object.keys(links).forEach(function(k){links[k].classList.remove('current');});a.classList.add('current');}});},
   {root:main,rootMargin:'0px 0px -70% 0px'});
  document.querySelectorAll('main [id]').forEach(function(s){if(links[s.id])io.observe(s);});
 }
 function stops(){return [].slice.call(document.querySelectorAll('[data-stop]')).filter(function(s){return s.offsetParent!==null;});}
 function top(el){return el.getBoundingClientRect().top-main.getBoundingClientRect().top;}
 function step(forward){
  var ss=stops(),t=null,i;
  if(forward){for(i=0;i<ss.length;i++)if(top(ss[i])>2){t=ss[i];break;}}
  else{for(i=ss.length-1;i>=0;i--)if(top(ss[i])<-2){t=ss[i];break;}}
  if(t){t.scrollIntoView({block:'start'});if(t.id)history.replaceState(null,'','#'+t.id);}
 }
 document.addEventListener('keydown',function(e){
  if(e.key==='Escape'&&e.target.id==='find-q'){e.target.blur();return;}
  if(e.ctrlKey||e.metaKey||e.altKey||/^(INPUT|TEXTAREA|SELECT)$/.test(e.target.tagName))return;
  if(e.key==='j')step(true);else if(e.key==='k')step(false);
  else if(e.key==='/'){e.preventDefault();document.getElementById('find-q').focus();}
 });
 var toggle=document.getElementById('hide-unchanged');
 if(toggle)toggle.addEventListener('change',function(){root.classList.toggle('hide-unchanged',toggle.checked);});
 // The first pass, on each side, whose IR holds the text: the one that introduced it.
 function find(q){
  var sides={},order=[];
  document.querySelectorAll('section.stage').forEach(function(s){
   var side=s.closest('[data-side]'),key=side?side.getAttribute('data-side'):'';
   if(!(key in sides)){sides[key]=null;order.push(key);}
   if(sides[key]!==null)return;
   // The input's text, then what each pass added: the first that holds it introduced it.
   var lines=s.getAttribute('data-index')==='0'?s.querySelectorAll('pre.ir span.l'):s.querySelectorAll('pre.diff span.add');
   if([].some.call(lines,function(l){return l.textContent.indexOf(q)>=0;}))sides[key]=s;
  });
  return order.map(function(k){return [k,sides[k]];});
 }
 function reveal(s,q){
  document.querySelectorAll('section.stage.found').forEach(function(o){o.classList.remove('found');});
  document.querySelectorAll('pre span.hit').forEach(function(o){o.classList.remove('hit');});
  s.classList.add('found');root.classList.remove('hide-unchanged');if(toggle)toggle.checked=false;
  var view=s.querySelector('pre.diff')?'diff':'ir';show(s,view);
  var pre=s.querySelector('pre[data-view="'+view+'"]'),line=null;
  if(pre){[].some.call(pre.querySelectorAll('span.l'),function(l){
   if(l.classList.contains('del')||l.classList.contains('fold')||l.textContent.indexOf(q)<0)return false;line=l;return true;});}
  if(line){var fold=line.closest('span.folded');if(fold)fold.hidden=false;line.classList.add('hit');}
  s.scrollIntoView({block:'start'});
  if(line&&pre){pre.scrollTop=line.offsetTop-pre.offsetTop-40;}
 }
 var form=document.getElementById('find');
 if(form)form.addEventListener('submit',function(e){
  e.preventDefault();
  var q=document.getElementById('find-q').value.trim(),out=document.getElementById('find-result');
  if(!q){out.textContent='';return;}
  var hits=find(q),first=null,parts=[];
  hits.forEach(function(h){
   var label=h[0]?h[0]+': ':'',s=h[1];
   if(!s){parts.push(label+'nowhere');return;}
   if(!first)first=s;
   parts.push(label+(s.getAttribute('data-pass')==='input'?'already in the input program':
    'introduced by '+s.querySelector('h2').textContent));
  });
  out.textContent=parts.join('; ');out.className=first?'':'miss';
  out.setAttribute('data-stage',first?first.id:'');
  if(first)reveal(first,q);
 });
})();
"""

# Last: every part's script ran to its end (an exception in one stops the block, and the page never says ready).
READY_SCRIPT = "document.documentElement.setAttribute('data-ready','1');"


def _pre_ir(stage: Stage, changed: set[int], view: str, hidden: bool) -> str:
    origins = stage.line_origins
    lines = []
    for i, line in enumerate(stage.text.splitlines()):
        cls = "l chg" if i in changed else "l"
        origin = origins[i] if i < len(origins) else ""
        attr = f' data-o="{origin}"' if origin else ""
        lines.append(f'<span class="{cls}"{attr}>{highlight_line(line) or " "}</span>')
    return f'<pre data-view="{view}" class="ir"{" hidden" if hidden else ""}>{"".join(lines)}</pre>'


_DIFF_CLASS = {"+": "l add", "-": "l del", "@": "l hunk", " ": "l"}
_SIGN = {"+": "+", "-": "-", " ": " ", "@": ""}
FOLD_AT_LEAST = 3
"""Runs of this many alias-definition lines or more are folded in a diff (renumbered #map/#encoding aliases)."""


def _diff_line(d: DiffLine, old: Stage, new: Stage, anchor: str | None = None, renamed: bool = False) -> str:
    body = escape(d.text) if d.kind == "@" else highlight_line(d.text)
    origins, index = (old.line_origins, d.old) if d.kind == "-" else (new.line_origins, d.new)
    origin = origins[index] if index is not None and index < len(origins) else ""
    attr = f' data-o="{origin}"' if origin else ""
    if anchor:
        attr += f' id="{anchor}"'
    cls = _DIFF_CLASS[d.kind]
    if renamed:
        cls, attr = f"{cls} ren", f' title="only alias names changed"{attr}'
    return f'<span class="{cls}"{attr}>{_SIGN[d.kind]}{body}</span>'


def _pre_diff(
    diff: list[DiffLine], old: Stage, new: Stage, anchors: dict[int, str] | None = None, renames: set[int] = frozenset()
) -> str:
    """The diff as a <pre>; ``anchors`` puts an id on some of its lines (the first change of each function),
    ``renames`` dims the lines that only renamed aliases."""
    anchors = anchors or {}
    if not diff:
        return '<pre data-view="diff" class="diff"><span class="l c">(the pass left the IR unchanged)</span></pre>'
    out: list[str] = []
    i = 0
    while i < len(diff):
        j = i
        while j < len(diff) and diff[j].is_alias:
            j += 1
        if j - i >= FOLD_AT_LEAST:
            run = diff[i:j]
            names = sorted({re.sub(r"\d+$", "", d.text.split(" ", 1)[0]) for d in run})
            changed = sum(1 for d in run if d.kind != " ")
            out.append(
                f'<span class="l fold" data-lines="{len(run)}" title="click to show them">… {len(run)} alias '
                f"definition lines ({escape(', '.join(names))}; {changed} added or removed), folded</span>"
                '<span class="folded" hidden>'
                + "".join(_diff_line(d, old, new, anchors.get(i + k)) for k, d in enumerate(run))
                + "</span>"
            )
            i = j
            continue
        # A short run of alias lines (or one line that is not an alias) is shown as it is.
        for k in range(i, max(i + 1, j)):
            out.append(_diff_line(diff[k], old, new, anchors.get(k), k in renames))
        i = max(i + 1, j)
    return f'<pre data-view="diff" class="diff">{"".join(out)}</pre>'


def check_badge(stage: Stage) -> str:
    if stage.check is None:
        return '<span class="badge na" title="not checked">·</span>'
    if stage.check.ok:
        return f'<span class="badge ok" title="{escape(stage.check.message)}">=</span>'
    return f'<span class="badge fail" title="{escape(stage.check.message)}">≠</span>'


def _has_fold(diff: list[DiffLine]) -> bool:
    """Whether the diff folds a run of alias definitions (FOLD_AT_LEAST of them in a row)."""
    run = 0
    for d in diff:
        run = run + 1 if d.is_alias else 0
        if run >= FOLD_AT_LEAST:
            return True
    return False


def _changed_html(change: Change, unchanged: bool, anchors: dict[str, str], folded: bool) -> str:
    if unchanged:
        return '<div class="changed nothing"><p>the pass changed nothing</p></div>'
    parts = []
    if change.delta:
        items = ", ".join(
            f'<span class="op{" minor" if is_bookkeeping(name) else ""}"><span class="{"plus" if n > 0 else "minus"}">'
            f"{n:+d}</span> <code>{escape(name)}</code></span>"
            for name, n in change.delta
        )
        parts.append(f'<p class="delta" data-delta="{escape(format_delta(change.delta))}">ops: {items}</p>')
    else:
        parts.append('<p class="delta" data-delta="">ops: none added or removed (attributes, types or order changed)</p>')
    if change.functions:
        names = ", ".join(
            (f'<a href="#{anchors[name]}"><code>{escape(name)}</code></a>' if name in anchors
             else f"<code>{escape(name)}</code>") + ("" if how == "changed" else f" ({how})")
            for name, how in change.functions
        )  # fmt: skip
        parts.append(f'<p class="funcs">bodies changed: {names}</p>')
    elif change.other_lines:
        parts.append("<p>outside function bodies only</p>")
    if change.alias_lines or change.renamed_lines:
        what = ["only aliases changed: " if change.aliases_only else "aliases: "]
        if change.alias_lines:
            what.append(f"{change.alias_lines} definition lines{' (folded in the diff)' if folded else ''}")
        if change.renamed_lines:
            what.append(f"{', ' if change.alias_lines else ''}{change.renamed_lines} lines that only use renamed "
                        "aliases (dimmed)")  # fmt: skip
        parts.append(f'<p class="meta aliases">{"".join(what)}</p>')
    return f'<div class="changed">{"".join(parts)}</div>'


def _blog_html(stage: Stage) -> str:
    place = blog.place_of(stage.flag)
    if place is None:
        return ""
    dumps = ""
    if place.dumps:
        numbers = ", ".join(f'<code title="{escape(name)}">{name[:2]}</code>' for name in place.dumps)
        dumps = f"dump{'s' if len(place.dumps) > 1 else ''} {numbers}; "
    note = f" ({escape(place.note)})" if place.note else ""
    return (
        f'<p class="blog" data-dumps="{" ".join(place.dump_numbers)}">the walkthrough: {dumps}section '
        f"“{escape(place.section)}”{note}</p>"
    )


@dataclass
class StageHTML:
    """One stage's section and its outline entry."""

    section: str
    nav: str
    unchanged: bool


class StageRenderer:
    """Renders the stages of one walkthrough; ``prefix`` keeps ids apart when a page holds two."""

    def __init__(self, walk: Walkthrough, prefix: str = "", with_ir: bool = True, stops: bool = True):
        # stops: the sections are where j / k stop (a comparison page stops at its rows instead).
        self.walk, self.prefix, self.with_ir, self.stops = walk, prefix, with_ir, stops
        self.cards, self.per_stage = cards_mod.collect_cards(walk)
        self.names = {s.index: f"{s.index}. {s.flag}" for s in walk.stages}
        self._counts = [op_counts(s.module) for s in walk.stages]

    def stage_id(self, index: int) -> str:
        return f"{self.prefix}stage-{index}"

    def delta(self, i: int) -> str:
        """The ops stage ``i``'s pass added and removed, as one string ("" for the input)."""
        return format_delta(op_delta(self._counts[i - 1], self._counts[i])) if i else ""

    def render(self, i: int) -> StageHTML:
        walk, stage = self.walk, self.walk.stages[i]
        before = walk.stages[i - 1] if i else None
        unchanged = before is not None and before.text == stage.text
        diff = unified(before.text, stage.text) if before is not None and not unchanged else []
        changed = {d.new for d in diff if d.kind == "+"}
        sid = self.stage_id(stage.index)
        stop = " data-stop" if self.stops else ""
        parts = [
            f'<section class="stage" id="{sid}"{stop} data-pass="{escape(stage.flag)}" data-index="{stage.index}" '
            f'data-changed="{len(changed)}"{" data-unchanged" if unchanged else ""}>',
            f"<h2>{escape(self.names[stage.index])}</h2>",
        ]
        line_ids: dict[int, str] = {}
        renames: set[int] = set()
        tooltip = doctext.plain(stage.summary)
        if before is not None:
            renames = alias_renames(before.text, stage.text, diff)
            change = what_changed(before.text, stage.text, self._counts[i - 1], self._counts[i], diff, renames)
            # Each changed function links to its first changed line in the diff.
            function_ids = {name: f"{sid}-f{n}" for n, name in enumerate(change.first_line)}
            line_ids = {change.first_line[name]: anchor for name, anchor in function_ids.items()}
            parts.append(_changed_html(change, unchanged, function_ids, _has_fold(diff)))
            tooltip += "\n" + ("changed nothing" if unchanged else format_delta(change.delta) or "no op added or removed")
        parts.append(f'<p class="summary">{doctext.inline(stage.summary)}</p>')
        parts.append(_blog_html(stage))
        if stage.description and " ".join(stage.description.split()) != " ".join(stage.summary.split()):
            parts.append(
                '<details class="doc"><summary>the pass\'s description</summary>'
                f'<div class="doc">{doctext.to_html(stage.description)}</div></details>'
            )
        if stage.index:
            parts.append(
                f'<p class="meta">IREE flag <code>--{escape(stage.flag)}</code>; pass <code>{escape(stage.class_name)}'
                f"</code>; as run: <code>{escape(stage.spec)}</code>; {stage.seconds * 1000:.1f} ms</p>"
            )
        if stage.check is not None:
            status = "ok" if stage.check.ok else "fail"
            parts.append(f'<p class="meta check {status}">interpreter: {escape(stage.check.message)}</p>')
        chips = self.per_stage.get(stage.index, [])
        if chips:
            links = "".join(
                f'<a href="#{self.prefix}{c.anchor}" title="{escape(c.tensor_text)}">'
                f"{escape(cards_mod.chip_label(c))}</a>"
                for c in chips
            )
            parts.append(f'<p class="chips">encodings: {links}</p>')
        parts.append(provenance.render_stage(walk, stage))
        parts.append(values.render_stage(walk, stage))
        if before is not None:
            count = sum(1 for d in diff if d.kind in "+-")
            ir_tab = ' <button data-view="ir">IR after</button>' if self.with_ir else ""
            parts.append(f'<div class="tabs"><button class="on" data-view="diff">diff ({count} lines)</button>{ir_tab}</div>')
            parts.append(_pre_diff(diff, before, stage, line_ids, renames))
            # An unchanged stage's IR is the one above it: not repeated, the page stays smaller.
            if self.with_ir and unchanged:
                same = '<span class="l c">(as after the pass above)</span>'
                parts.append(f'<pre data-view="ir" class="ir-same" hidden>{same}</pre>')
            elif self.with_ir:
                parts.append(_pre_ir(stage, changed, "ir", hidden=True))
        else:
            parts.append(_pre_ir(stage, set(), "ir", hidden=False))
        parts.append("</section>")
        # The outline's entry says what the pass is for and what it changed.
        grey = "unchanged" if unchanged else ""
        nav = (
            f'<li class="{grey}"><a href="#{sid}" class="{grey}" title="{escape(tooltip)}">'
            f"{check_badge(stage)}{escape(self.names[stage.index])}</a></li>"
        )
        return StageHTML("".join(parts), nav, unchanged)

    def encodings_panel(self) -> str:
        cards = self.cards
        body = [f'<section class="panel" id="{self.prefix}encodings"><h2>Encodings ({len(cards)})</h2>']
        body.append(
            '<p class="meta">Each picture is the logical tensor; a cell holds the offset in memory of that element. '
            "Cells of one tile share a colour (large tiles: the hue is the offset within the tile, the lightness "
            "alternates between tiles); dashed grey cells are padding.</p>"
        )
        body.extend(_prefix_ids(cards_mod.card_html(c, self.names), self.prefix) for c in cards)
        body.append("</section>")
        return "".join(body)

    def failure_panel(self) -> str:
        return failure.failure_html(self.walk, self.prefix) if self.walk.error else ""


_ID_REFERENCE = re.compile(r'((?:id|href)="?#?)((?:enc|stage)-)')


def _prefix_ids(html: str, prefix: str) -> str:
    """``html`` with its encoding and stage ids and links prefixed, for a page that holds two walkthroughs."""
    return _ID_REFERENCE.sub(lambda m: m.group(1) + prefix + m.group(2), html) if prefix else html


def nav_tools(walk_count: int = 1) -> str:
    """The outline's search box, the toggle and the key help."""
    return (
        '<form id="find" role="search"><input id="find-q" type="search" autocomplete="off" '
        'placeholder="first pass that introduced… (/)" title="an op name, an encoding, a type: any text of the IR">'
        '<p id="find-result" aria-live="polite"></p></form>'
        '<label><input type="checkbox" id="hide-unchanged"> hide passes that changed nothing</label>'
        '<p class="meta">= results kept, ≠ changed; grey: the pass changed nothing; keys j / k: next / previous'
        f"{' row' if walk_count > 1 else ' pass'}, /: search</p>"
    )


def page_shell(title: str, nav: str, main: str, extra_css: str = "") -> str:
    return (
        "<!DOCTYPE html>\n<html lang=\"en\" data-errors=\"0\"><head><meta charset=\"utf-8\">"
        f"<title>{escape(title)}</title><style>{CSS}{cards_mod.CSS}{provenance.CSS}{values.CSS}{extra_css}</style>"
        f"<script>{HEAD_SCRIPT}</script></head><body>"
        f'<nav id="outline">{nav}</nav><main>{main}</main>'
        f"<script>{BODY_SCRIPT}{cards_mod.SCRIPT}{provenance.SCRIPT}{values.SCRIPT}{READY_SCRIPT}</script></body></html>\n"
    )


def render_page(walk: Walkthrough) -> str:
    renderer = StageRenderer(walk)
    nav = [
        f"<h1>{escape(walk.program)}</h1>",
        f'<p class="meta"><code>{escape(walk.pipeline)}</code></p>',
        nav_tools(),
        "<ol>",
    ]
    body = []
    for i in range(len(walk.stages)):
        stage_html = renderer.render(i)
        nav.append(stage_html.nav)
        body.append(stage_html.section)
    nav.append("</ol>")
    if walk.error:
        body.append(renderer.failure_panel())
        stopped = "the pipeline stopped" if walk.failed_pass else "the interpreter stopped"
        nav.append(f'<p><a href="#failure">{stopped}</a></p>')
    nav.append(f'<p><a href="#encodings">encodings ({len(renderer.cards)})</a></p>')
    body.append(renderer.encodings_panel())
    if walk.final_runs:
        nav.append('<p><a href="#result">final result</a></p>')
        body.append(result_html(walk))
    header = (
        f'<section class="panel" id="top"><h2>{escape(walk.program)}: {len(walk.stages) - 1} passes</h2>'
        f'<p class="meta">pipeline <code>{escape(walk.pipeline)}</code>; targets '
        f"{escape(', '.join(walk.targets) or 'none')}; interpreter inputs: seed {walk.seed}, every dynamic "
        f"dimension {walk.dynamic_size}</p></section>"
    )
    return page_shell(f"walkthrough: {walk.program}", "".join(nav), header + "".join(body))


def result_html(walk: Walkthrough, prefix: str = "") -> str:
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
        f'<section class="panel" id="{prefix}result"><h2>The final program</h2>'
        '<p class="meta">The last stage run by the interpreter on the seeded inputs (every dynamic dimension '
        f"{walk.dynamic_size}), against the input program run the same way. Times: best of 5 with every dynamic "
        f"dimension {walk.timing_size}; the input program runs each op as one whole-array numpy call (a matmul is "
        "numpy's BLAS), so it is the numpy baseline.</p>"
        "<table><tr><th>function</th><th>inputs</th><th>results (final program)</th><th>vs input program</th>"
        "<th>final</th><th>numpy (input program)</th><th>ratio</th></tr>" + "".join(rows) + "</table></section>"
    )
