"""The encoding cards of the walkthrough page: one per encoded tensor type, its layout per target, drawn.

``collect_cards`` finds every encoded tensor type over the stages (the card
itself is ``encodings.build_card``'s); ``card_html`` renders one card, and
``chip_label`` names it in a stage's list of encodings. ``CSS`` and ``SCRIPT``
are the cards' share of the page's style and behaviour: a hover or click on a
picture's cell fills the ``.cell-info`` box under it. Ids inside a card start
with the card's anchor, so two cards can sit side by side on one page.
"""

from __future__ import annotations

from html import escape

from .encodings import EncodingCard, type_text, attribute_text, build_card, encoded_tensor_types
from .highlight import highlight_line
from .stages import Walkthrough

CSS = """
.chips a{display:inline-block;font:11px monospace;background:#eef3ff;border:1px solid #cfdcff;border-radius:10px;padding:0 7px;
 margin:2px 3px 2px 0;color:#1b3d91;text-decoration:none}
article.encoding{border-top:1px solid #eee;padding:10px 0}
article.encoding h3{font:600 13px monospace;margin:4px 0;word-break:break-all}
div.view{display:inline-block;vertical-align:top;margin:6px 18px 6px 0;max-width:100%}
div.view h4{margin:4px 0;font-size:13px}
figure{margin:6px 0;display:inline-block;vertical-align:top;margin-right:16px}
figcaption{font-size:11px;color:#555;max-width:560px}
ol.steps{font:12px monospace;margin:4px 0;padding-left:20px}
.xla{font:12px monospace;word-break:break-all}
ol.xla-tiles{font:12px monospace;margin:2px 0 6px;padding-left:22px}
ol.xla-tiles li::marker{color:#888}
figure.picture{position:relative}
figure.picture div.zoom p.meta{margin:6px 0 2px}
svg.layout rect{stroke:#333;stroke-width:.6}
svg.layout rect.pad{stroke-dasharray:3,2}
svg.layout text{text-anchor:middle;fill:#000;pointer-events:none;font-family:ui-monospace,monospace}
svg.layout text.pad{fill:#999}
svg.layout text.slice-label{text-anchor:start;font-size:10px;fill:#555}
svg.layout image{image-rendering:pixelated;cursor:crosshair}
svg.layout rect[data-cell]{cursor:crosshair}
svg.layout rect.frame{fill:none;stroke:#333;stroke-width:.8;pointer-events:none}
svg.layout path.tile-edges{fill:none;stroke:#333;stroke-width:.8;pointer-events:none}
svg.layout rect.cursor{fill:none;stroke:#d00000;stroke-width:2;pointer-events:none}
.cell-info{font:12px/1.5 ui-monospace,monospace;background:#fffbe6;border:1px solid #eadc9b;border-radius:4px;padding:3px 7px;
 margin:4px 0;max-width:560px;min-height:2.8em;color:#333}
.cell-info .hint{color:#888}
.cell-info b{font-weight:600}
.cell-info .swizzle-dim{display:inline-block;border-radius:3px;padding:0 4px;margin:1px 3px 1px 0;background:#eee}
.cell-info .swizzle-dim[data-kind=CrossThread]{background:#dbeafe}
.cell-info .swizzle-dim[data-kind=CrossIntrinsic]{background:#fde2c8}
.cell-info .swizzle-dim[data-kind=Internal]{background:#dcfce7}
"""

# Hover or click a cell of a layout picture: the info box under it shows the
# cell's logical index, offset, tile and (GPU swizzles) expand dims, read from
# the picture's data-cells JSON (layout_pictures.cell_data). A click pins the
# cell until the next click on the picture; the arrow keys then move it.
SCRIPT = r"""
(function(){
 function nums(s){return s?s.split(',').map(Number):[];}
 function data(svg){if(!svg._cells)svg._cells=JSON.parse(svg.getAttribute('data-cells'));return svg._cells;}
 function pick(v,axis,idx){if(axis===-1)return v[0];if(axis===-2){idx.forEach(function(i){v=v[i];});return v;}return v[idx[axis]];}
 function cellOf(svg,e){
  var t=e.target;if(!t||!t.getAttribute)return null;
  if(t.hasAttribute('data-cell'))return nums(t.getAttribute('data-cell'));
  if(t.tagName!=='image')return null;
  var g=t.closest('g.slice'),r=t.getBoundingClientRect(),grid=nums(svg.getAttribute('data-grid')),n=grid.length;
  var rows=n>=2?grid[n-2]:1,cols=n?grid[n-1]:1;
  var c=Math.floor((e.clientX-r.left)/r.width*cols),w=Math.floor((e.clientY-r.top)/r.height*rows);
  if(c<0||w<0||c>=cols||w>=rows)return null;
  var lead=nums(g.getAttribute('data-slice'));
  return n>=2?lead.concat([w,c]):n===1?[c]:[];
 }
 function el(tag,cls,text){var x=document.createElement(tag);if(cls)x.className=cls;if(text!==undefined)x.textContent=text;return x;}
 function list(a){return '['+a.join(', ')+']';}
 function show(svg,idx){
  var fig=svg.closest('figure'),box=fig&&fig.querySelector('.cell-info');if(!box)return;
  var d=data(svg),off=0;
  if(d.offset.terms)d.offset.terms.forEach(function(t,a){off+=t[idx[a]];});else off=pick(d.offset.full,-2,idx);
  var pad=idx.some(function(i,a){return i>=d.size[a];}),tile=[],inner=[];
  d.dims.forEach(function(m){var v=pick(m.v,m.axis,idx);(m.role==='tile'?tile:inner).push([m,v]);});
  box.textContent='';
  box.setAttribute('data-index',idx.join(','));box.setAttribute('data-offset',String(off));
  box.setAttribute('data-padding',pad?'1':'0');
  box.setAttribute('data-tile',tile.map(function(p){return p[1];}).join(','));
  box.setAttribute('data-in-tile',inner.map(function(p){return p[1];}).join(','));
  var head=el('div');
  head.appendChild(el('b','ci-index',list(idx)));
  head.appendChild(document.createTextNode(pad?' padding (past '+d.size.join('x')+')':' element'));
  head.appendChild(document.createTextNode(' \u2192 offset '));head.appendChild(el('b','ci-offset',String(off)));
  box.appendChild(head);
  function sizes(ps){return ps.map(function(p){return p[0].size;}).join('x');}
  if(tile.length){
   var t=el('div');t.appendChild(document.createTextNode('tile '));
   t.appendChild(el('b','ci-tile',list(tile.map(function(p){return p[1];}))));
   t.appendChild(document.createTextNode(' of '+sizes(tile)));box.appendChild(t);
  }
  if(inner.length){
   var i=el('div');
   if(inner.some(function(p){return p[0].kind;})){
    i.appendChild(document.createTextNode('in the tile, in memory order: '));
    inner.forEach(function(p){var s=el('span','swizzle-dim',p[0].kind+' '+p[0].size+' (d'+p[0].src+') = '+p[1]);
     s.setAttribute('data-kind',p[0].kind);s.setAttribute('data-value',String(p[1]));i.appendChild(s);});
   }else{
    i.appendChild(document.createTextNode((tile.length?'in tile ':'physical index ')));
    i.appendChild(el('b','ci-in-tile',list(inner.map(function(p){return p[1];}))));
    i.appendChild(document.createTextNode(' of '+sizes(inner)));
   }
   box.appendChild(i);
  }
  var cur=svg.querySelector('rect.cursor'),n=idx.length,cell=+svg.getAttribute('data-cell-size');
  var lead=n>2?idx.slice(0,n-2).join(','):'',g=svg.querySelector('g.slice[data-slice="'+lead+'"]');
  var m=g&&/translate\(([-\d.]+),([-\d.]+)\)/.exec(g.getAttribute('transform'));
  if(cur&&m){cur.setAttribute('x',String(+m[1]+(n?idx[n-1]:0)*cell));cur.setAttribute('y',String(+m[2]+(n>=2?idx[n-2]:0)*cell));
   cur.setAttribute('visibility','visible');}
 }
 document.querySelectorAll('svg.layout[data-cells]').forEach(function(svg){
  svg.addEventListener('mousemove',function(e){if(svg._pinned)return;var c=cellOf(svg,e);if(c)show(svg,c);});
  svg.addEventListener('click',function(e){var c=cellOf(svg,e);if(!c)return;
   var same=svg._pinned&&svg._pinned.join()===c.join();svg._pinned=same?null:c;show(svg,c);active=same?null:svg;
   var fig=svg.closest('figure');if(fig)fig.classList.toggle('pinned',!same);});
 });
 // With a cell pinned, the arrow keys move it within its slice (the grid's last two dims).
 var active=null,moves={ArrowLeft:[0,-1],ArrowRight:[0,1],ArrowUp:[-1,0],ArrowDown:[1,0]};
 document.addEventListener('keydown',function(e){
  var m=moves[e.key];if(!m||!active||!active._pinned||e.target.tagName==='INPUT')return;
  var grid=nums(active.getAttribute('data-grid')),idx=active._pinned.slice(),n=idx.length;if(!n)return;
  var r=n-2,c=n-1;if(n>=2)idx[r]=Math.min(Math.max(idx[r]+m[0],0),grid[r]-1);
  idx[c]=Math.min(Math.max(idx[c]+m[1],0),grid[c]-1);active._pinned=idx;show(active,idx);e.preventDefault();
 });
})();
"""


def chip_label(card: EncodingCard, width: int = 72) -> str:
    text = card.tensor_text
    return text if len(text) <= width else text[: width - 1] + "…"


def collect_cards(walk: Walkthrough) -> tuple[list[EncodingCard], dict[int, list[EncodingCard]]]:
    """One card per encoded tensor type over all stages, and the cards each stage holds."""
    cards: dict[str, EncodingCard] = {}
    per_stage: dict[int, list[EncodingCard]] = {}
    memo: dict = {}
    for stage in walk.stages:
        if stage.module is None:
            continue
        for tensor in encoded_tensor_types(stage.module, memo):
            key = type_text(tensor, memo)
            if key not in cards:
                cards[key] = build_card(
                    tensor,
                    walk.targets,
                    f"enc-{len(cards)}",
                    attribute_text(tensor.encoding),
                    attribute_text(tensor),
                    dynamic_size=walk.dynamic_size,
                )
            cards[key].stages.append(stage.index)
            per_stage.setdefault(stage.index, []).append(cards[key])
    return list(cards.values()), per_stage


def _cute_form(xla_text: str) -> tuple[str, str] | None:
    """The CuTe form of a card's XLA form, with the shape it is for (`conversion.cute_form_of_xla_text`)."""
    from mini_iree.compiler.layout.conversion import cute_form_of_xla_text

    return cute_form_of_xla_text(xla_text)


def card_html(card: EncodingCard, stage_names: dict[int, str]) -> str:
    out = [f'<article class="encoding" id="{card.anchor}" data-kind="{card.kind}">']
    out.append(f"<h3>{escape(card.tensor_text)}</h3>")
    out.append(f'<pre class="attr"><span class="l">{highlight_line(card.attr_text)}</span></pre>')
    first, last = card.stages[0], card.stages[-1]
    out.append(
        f'<p class="meta">appears after <a href="#stage-{first}">{escape(stage_names[first])}</a>'
        f'{"" if first == last else f" until <a href=#stage-{last}>{escape(stage_names[last])}</a>"}</p>'
    )
    for view in card.views:
        out.append('<div class="view">')
        out.append(f"<h4>{escape(view.label)}</h4>")
        if view.info_text:
            out.append(f'<p class="xla">encoding_info = {escape(view.info_text)}</p>')
        if view.xla:
            out.append(f'<p class="xla">XLA: <code class="xla-form">{escape(view.xla)}</code></p>')
            cute = _cute_form(view.xla)
            if cute is not None:
                # The same layout in CuTe's shape:stride notation (none when the XLA form pads or mixes dims).
                where = f' <span class="meta">{escape(cute[1])}</span>' if cute[1] else ""
                out.append(f'<p class="xla">CuTe: <code class="cute-form">{escape(cute[0])}</code>{where}</p>')
        if view.xla_tiles:
            tiles = [line for line in view.xla_tiles if not line.startswith("= ")]
            out.append('<p class="meta">its tiles, one at a time:</p><ol class="xla-tiles">')
            out.append("".join(f"<li><code>{escape(line)}</code></li>" for line in tiles) + "</ol>")
            out.extend(f'<p class="xla xla-result">{escape(line)}</p>' for line in view.xla_tiles if line.startswith("= "))
        if view.steps:
            out.append('<ol class="steps">' + "".join(f"<li>{escape(s)}</li>" for s in view.steps) + "</ol>")
        if view.ops:
            out.append('<p class="meta">set_encoding lowers to:</p><ol class="steps">')
            out.append("".join(f"<li>{escape(s)}</li>" for s in view.ops) + "</ol>")
        if view.note:
            out.append(f'<p class="meta">{escape(view.note)}</p>')
        for caption, svg in view.pictures:
            ramp = 'data-mode="ramp"' in svg[:400]
            legend = "colour: where the element sits in its tile's memory, pale: padding; " if ramp else ""
            out.append(
                f'<figure class="picture">{svg}<div class="cell-info"><span class="hint">{legend}hover or click a '
                f"cell: its index, offset and tile</span></div><figcaption>{escape(caption)}</figcaption></figure>"
            )
        if view.command:
            out.append(f'<p class="meta">drawn by the command line too: <code class="draw-command">'
                       f"{escape(view.command)}</code></p>")  # fmt: skip
        out.append("</div>")
    out.append("</article>")
    return "".join(out)
