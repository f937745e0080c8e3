"""The values a pass introduces, on the page's seeded inputs, with each element's logical index.

``CSS`` and ``SCRIPT`` are this part's share of the page; ``render_stage``
gives the HTML a stage's section shows.

For each tensor the pass introduced (``Stage.values``, see ``captures.py`` for
which ones and how their origins are found) the stage shows its numbers as
grids: a tensor of rank >= 2 as its 2-D slices over the last two dimensions,
each captioned with its leading indices. Hovering a number says where it sits
and which input element it holds (``%arg0[3, 5]``) or that it is padding, and
marks every number of the page, in every stage, that holds the same input
element (``.same``): ``A[i, j]`` can be followed from the input into the packed
tile and on into the swizzled one. Numbers from the same input row share a
colour; padding is grey.

The numbers travel as attributes of the tensor's element (``data-v`` values,
``data-vo`` origins), and the script draws the grids when the page loads: a
page holds at most :data:`PAGE_ELEMENTS` numbers, each tensor at most
``captures.MAX_ELEMENTS`` (``MAX_COMPUTED_ELEMENTS`` for computed values; leading
rows first), and says when it cut one.
"""

from __future__ import annotations

import json
from html import escape

import numpy as np

from .captures import MAX_COMPUTED_ELEMENTS, MAX_ELEMENTS
from .stages import Stage, Walkthrough

PAGE_ELEMENTS = 16384

CSS = """
details.vals{margin:6px 0}
details.vals>summary{font-size:12px;color:#333;cursor:pointer}
div.vt{margin:6px 0 10px;border-left:3px solid #e0e0e0;padding-left:8px}
div.vt p.vh{margin:2px 0;font-size:12px}
div.vt p.vh code{font-size:11px;white-space:pre}
div.vg{display:flex;flex-wrap:wrap;gap:6px;max-height:420px;overflow:auto;padding:2px}
table.vgt{border-collapse:collapse;font:10px/1.2 ui-monospace,Menlo,Consolas,monospace}
table.vgt caption{font-size:9px;color:#666;text-align:left;white-space:nowrap}
table.vgt td{border:1px solid #e4e4e4;padding:0 2px;min-width:26px;text-align:right;cursor:default}
table.vgt td.p{background:#f1f1f1;color:#aaa;border-style:dashed}
table.vgt td.same{outline:2px solid #d73a49;outline-offset:-1px;font-weight:700}
table.vgt td.here{outline:2px solid #1d1d1f;outline-offset:-1px}
p.vat{font:12px ui-monospace,Menlo,Consolas,monospace;margin:2px 0;min-height:1.4em;color:#1d1d1f}
"""

SCRIPT = r"""
(function(){
 function sideOf(el){var s=el.closest('[data-side]');return s?s.getAttribute('data-side'):'';}
 function unravel(k,shape){var ix=[];for(var d=shape.length-1;d>=0;d--){ix.unshift(k%shape[d]);k=Math.floor(k/shape[d]);}return ix;}
 function origin(g,ins){for(var i=0;i<ins.length;i++){var n=ins[i][1].reduce(function(a,b){return a*b;},1);
  if(g>=ins[i][2]&&g<ins[i][2]+n)return [i,unravel(g-ins[i][2],ins[i][1])];}return null;}
 function draw(t){
  var shape=JSON.parse(t.getAttribute('data-shape')),v=t.getAttribute('data-v').split(',');
  var o=t.hasAttribute('data-vo')?t.getAttribute('data-vo').split(',').map(Number):null;
  var ins=JSON.parse(t.getAttribute('data-in')||'[]'),r=shape.length;
  var cols=r?shape[r-1]:1,rows=r>1?shape[r-2]:1,per=rows*cols,n=v.length,h=[];
  for(var s=0;s*per<n;s++){
   h.push('<table class="vgt">');
   if(r>2)h.push('<caption>['+unravel(s,shape.slice(0,r-2)).join(', ')+', :, :]</caption>');
   for(var i=0;i<rows&&s*per+i*cols<n;i++){h.push('<tr>');
    for(var j=0;j<cols;j++){var k=s*per+i*cols+j;if(k>=n)break;
     if(o&&o[k]<0){h.push('<td class="p" data-k="'+k+'" data-g="-1">'+v[k]+'</td>');continue;}
     var st='';if(o){var at=origin(o[k],ins);if(at){var row=at[1].length>1?at[1][at[1].length-2]:0;
      st=' style="background:hsl('+((row*47+at[0]*180)%360)+',70%,'+(at[0]?86:90)+'%)"';}}
     h.push('<td data-k="'+k+'"'+(o?' data-g="'+o[k]+'"':'')+st+'>'+v[k]+'</td>');}
    h.push('</tr>');}
   h.push('</table>');
  }
  t.querySelector('div.vg').innerHTML=h.join('');
 }
 document.querySelectorAll('div.vt[data-v]').forEach(draw);
 var marked=[];
 function unmark(){marked.forEach(function(e){e.classList.remove('same','here');});marked=[];}
 document.addEventListener('mouseover',function(e){
  var td=e.target.closest&&e.target.closest('table.vgt td');if(!td)return;
  var t=td.closest('div.vt');if(!t)return;
  unmark();td.classList.add('here');marked.push(td);
  var shape=JSON.parse(t.getAttribute('data-shape')),ins=JSON.parse(t.getAttribute('data-in')||'[]');
  var k=+td.getAttribute('data-k'),text='element ['+unravel(k,shape).join(', ')+'] = '+td.textContent;
  if(td.hasAttribute('data-g')){var g=+td.getAttribute('data-g');
   if(g<0)text+=': padding';else{var at=origin(g,ins);
    if(at)text+=': '+ins[at[0]][0]+'['+at[1].join(', ')+']';
    var key=sideOf(t);
    document.querySelectorAll('div.vt td[data-g="'+g+'"]').forEach(function(c){
     if(c!==td&&sideOf(c)===key){c.classList.add('same');marked.push(c);}});
    text+=' (marked: '+marked.length+' element'+(marked.length===1?'':'s')+' of this page hold it)';}}
  var at=t.querySelector('p.vat');at.textContent=text;at.setAttribute('data-k',String(k));
 });
})();
"""


def _numbers(values: np.ndarray) -> list[str]:
    """The values as the grid prints them: floats with 3 significant digits, integers whole."""
    flat = values.reshape(-1)
    if flat.dtype.kind == "b":
        flat = flat.astype(np.int8)
    if flat.dtype.kind in "iu":
        return np.char.mod("%d", flat.astype(np.int64)).tolist()
    return np.char.mod("%.3g", flat.astype(np.float64)).tolist()


def _shown_counts(walk: Walkthrough) -> dict[tuple[int, int], int]:
    """How many leading elements of each captured tensor the page shows (stage, position) -> count."""
    left, shown = PAGE_ELEMENTS, {}
    for stage in walk.stages:
        for position, tensor in enumerate(stage.values):
            size = int(np.prod(tensor.shape, dtype=np.int64))
            row = tensor.shape[-1] if tensor.shape and tensor.shape[-1] else 1
            cap = MAX_ELEMENTS if tensor.origins is not None else MAX_COMPUTED_ELEMENTS
            count = min(size, cap, left)
            if count < size:
                count -= count % row  # whole rows
            shown[(stage.index, position)] = count
            left -= count
    return shown


def _tensor_html(tensor, count: int, lines: list[str]) -> str:
    size = int(np.prod(tensor.shape, dtype=np.int64))
    line = lines[tensor.line].strip() if 0 <= tensor.line < len(lines) else tensor.op_name
    if len(line) > 150:
        line = line[:147] + "..."
    facts = [f"<b>{escape(tensor.type_text)}</b>", f"in <code>@{escape(tensor.function)}</code>"]
    if tensor.origins is not None:
        padding = int((tensor.origins < 0).sum())
        facts.append(
            "hover a number: the input element it holds"
            + (f"; {padding} of {size} elements are padding (grey)" if padding else "")
        )
    elif tensor.note:
        facts.append(escape(tensor.note))
    if count < size:
        facts.append(f"the first {count} of {size} elements shown")
    head = f'<p class="vh"><code>{escape(line)}</code><br>{"; ".join(facts)}</p>'
    if count == 0:
        return f'<div class="vt">{head}</div>'
    attrs = [
        f'data-op="{escape(tensor.op_name)}"',
        f'data-shape="{escape(json.dumps(list(tensor.shape)))}"',
        f'data-v="{escape(",".join(_numbers(tensor.values.reshape(-1)[:count])))}"',
    ]
    if tensor.origins is not None:
        origins = tensor.origins.reshape(-1)[:count].tolist()
        attrs.append(f'data-vo="{",".join(map(str, origins))}"')
        attrs.append(f'data-in="{escape(json.dumps([[n, list(s), f] for n, s, f in tensor.inputs]))}"')
    return f'<div class="vt" {" ".join(attrs)}>{head}<div class="vg"></div><p class="vat"></p></div>'


def render_stage(walk: Walkthrough, stage: Stage) -> str:
    if not stage.values:
        return ""
    shown = _shown_counts(walk)
    lines = stage.text.splitlines()
    tensors = "".join(
        _tensor_html(t, shown.get((stage.index, i), 0), lines) for i, t in enumerate(stage.values)
    )
    if stage.index == 0:
        return (
            '<details class="vals"><summary>values: the seeded inputs the interpreter\'s check runs every '
            f"stage on; hover a number to see its index and where later stages hold it</summary>{tensors}</details>"
        )
    kinds: dict[str, int] = {}
    for tensor in stage.values:
        kinds[tensor.op_name] = kinds.get(tensor.op_name, 0) + 1
    listed = ", ".join(f"{n}× <code>{escape(k)}</code>" for k, n in kinds.items())
    # Closed at first: the grids of a materialization are long, and the diff comes first.
    return (
        f'<details class="vals"><summary>values this pass introduced ({listed}): their numbers on the seeded '
        f"inputs; hover one to see which input element it holds</summary>{tensors}</details>"
    )
