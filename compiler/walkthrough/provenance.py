"""Where each op of a stage came from: the rewrites a pass applied, and the input ops behind every op.

``CSS`` and ``SCRIPT`` are this part's share of the page; ``render_stage``
gives the HTML a stage's section shows: the rewrite patterns the pass applied
(``Stage.rewrites``, counted while it ran) and a status line for the ancestor
highlight.

The highlight: every IR or diff line of the page carries the input positions
of the op printed on it (``data-o``, from ``Stage.line_origins``). Clicking a
line marks (``.anc``) every line of the earlier stages, the input program
included, that shares a position with it: the ops it was made from, and what
they became on the way. The status line of the clicked line's stage says how
many it found, in which stages, and, for an op a pattern of that very pass
made, the pattern (``data-made`` on the status: the start of each such line's
text -> the pattern); a second click on the line, or Escape, clears it. On a
page holding two walkthroughs, each side is an element with a ``data-side``
attribute and the search stays on the clicked line's side.
"""

from __future__ import annotations

import json
from html import escape

from .rewrite_log import DEAD, FOLDED
from .stages import Stage, Walkthrough

# Lines per stage whose maker the page names, and how much of a line's text identifies it.
MADE_LINES = 400
MADE_KEY = 60

CSS = """
p.rewrites{font-size:12px;margin:4px 0;color:#333}
p.rewrites code{background:#f3efff;border-radius:3px;padding:0 4px;margin-right:2px}
p.rewrites .none{color:#777}
pre span.l[data-o]{cursor:pointer}
pre span.l.anc{background:#dbeafe;box-shadow:inset 3px 0 #2563eb}
pre span.l.anc-sel{background:#bfdbfe;box-shadow:inset 3px 0 #1e40af;outline:1px solid #1e40af}
p.prov-status{font-size:12px;margin:4px 0;padding:3px 8px;background:#eef4ff;border:1px solid #c7d7fe;border-radius:4px}
p.prov-status a{margin:0 2px}
"""

SCRIPT = r"""
(function(){
 var sel=null;
 function sideOf(el){var s=el.closest('[data-side]');return s?s.getAttribute('data-side'):'';}
 function positions(el){var o=el.getAttribute('data-o');return o?o.split(' '):[];}
 // The pattern of this pass that made the line's op, when one did: "made by X; ".
 function made(line,status){
  if(!status||!status.hasAttribute('data-made')||line.classList.contains('del'))return '';
  var t=line.textContent;if(line.closest('pre.diff')&&/^[+ ]/.test(t))t=t.slice(1);
  var by=JSON.parse(status.getAttribute('data-made'))[t.trim().slice(0,MADE_KEY)];
  return by?'made by '+by+' in this pass; ':'';
 }
 function clear(){
  document.querySelectorAll('pre span.l.anc,pre span.l.anc-sel').forEach(function(e){e.classList.remove('anc','anc-sel');});
  document.querySelectorAll('p.prov-status').forEach(function(p){p.hidden=true;p.textContent='';});
  sel=null;
 }
 function show(line){
  clear();
  var sec=line.closest('section.stage');if(!sec)return;
  var status=sec.querySelector('p.prov-status');
  var want={},ps=positions(line);ps.forEach(function(p){want[p]=1;});
  line.classList.add('anc-sel');sel=line;
  var note=!ps.length?made(line,status)+'this line has no source location':sec.getAttribute('data-pass')==='input'?
   'this is the input program: click a line of a later pass to see which of its lines it came from':'';
  if(note){if(status){status.hidden=false;status.textContent=note;}return;}
  var side=sideOf(sec),found=0,stages=[],input=0;
  document.querySelectorAll('section.stage').forEach(function(s){
   if(s===sec||sideOf(s)!==side||!(s.compareDocumentPosition(sec)&Node.DOCUMENT_POSITION_FOLLOWING))return;
   var n=0;
   s.querySelectorAll('pre span.l[data-o]').forEach(function(l){
    if(positions(l).some(function(p){return want[p];})){l.classList.add('anc');n++;}
   });
   if(n){found+=n;stages.push(s);if(s.getAttribute('data-pass')==='input')input+=n;}
  });
  if(!status)return;
  status.hidden=false;status.setAttribute('data-found',String(found));
  status.textContent=made(line,status)+(found?'ancestors (input positions '+ps.join(', ')+'): '+
   found+' line'+(found===1?'':'s')+' in '+
   stages.length+' earlier stage'+(stages.length===1?'':'s')+(input?', '+input+' in the input program':'')+': ':
   'no earlier line shares its input positions ('+ps.join(', ')+')');
  stages.forEach(function(s){var a=document.createElement('a');a.href='#'+s.id;
   a.textContent=s.id.replace(/^.*stage-/,'');status.appendChild(a);});
 }
 document.addEventListener('click',function(e){
  var line=e.target.closest&&e.target.closest('pre span.l[data-o]');
  if(!line||!line.closest('section.stage'))return;
  if(String(window.getSelection&&window.getSelection())!=='')return;  // selecting text, not asking
  if(line===sel){clear();return;}
  show(line);
 });
 document.addEventListener('keydown',function(e){if(e.key==='Escape'&&sel)clear();});
})();
""".replace("MADE_KEY", str(MADE_KEY))


def _pattern_list(stage: Stage) -> str:
    parts = []
    for name, count in stage.rewrites.items():
        kind = "applier" if name in (DEAD, FOLDED) else "pattern"
        parts.append(f'<code data-{kind}="{escape(name)}">{escape(name)} ×{count}</code>')
    return " ".join(parts)


def _made_by(stage: Stage) -> str:
    """The ``data-made`` attribute: the text (its start) of each line a pattern of this pass made -> the pattern."""
    lines = stage.text.splitlines()
    made: dict[str, str] = {}
    for line, name in sorted(stage.made_by.items())[:MADE_LINES]:
        if 0 <= line < len(lines):
            made.setdefault(lines[line].strip()[:MADE_KEY], name)
    return f' data-made="{escape(json.dumps(made, separators=(",", ":")))}"' if made else ""


def render_stage(walk: Walkthrough, stage: Stage) -> str:
    status = f'<p class="prov-status"{_made_by(stage)} hidden></p>'
    if stage.index == 0:
        return status
    if stage.rewrites:
        walks = "" if stage.pattern_walks <= 1 else f" (in {stage.pattern_walks} pattern walks)"
        text = f"rewrites{walks}: {_pattern_list(stage)}"
    elif stage.pattern_walks:
        names = ", ".join(f"<code>{escape(n)}</code>" for n in stage.patterns) or "none"
        text = f'rewrites: <span class="none">none; its patterns ({names}) found nothing to rewrite</span>'
    else:
        text = '<span class="none">rewrites: none (this pass uses no rewrite patterns)</span>'
    return f'<p class="rewrites" title="rewrite patterns the pass applied, and how often">{text}</p>{status}'
