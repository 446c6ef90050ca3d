#!/usr/bin/env python3
"""The text agreement test in real chromium (run by Tests/FloorServeTests/TextAgreementTests.swift).

Reads the host's layouts (JSON: the CSS of the served font faces, and for each case the text, style, width
and the host's lines with their UTF-16 offsets and widths) and, in headless chromium at one device scale,
with the preview's text CSS (HTMLRenderer.stylesheet's `.tl` rules and the `/fonts/` faces of a running
`floorhost serve`):

  1. for every line, the width chromium measures for the host's line text in a `white-space: pre` span;
  2. for every case, chromium's own wrapping of the whole text in a box of the host's width (CSS
     `white-space: pre-wrap; overflow-wrap: break-word`): the browser line of each host line's first and
     last character, and the box's line count.

Writes a JSON summary (lines compared, lines within 1 px, cases compared, cases whose breaks agree, and the
first disagreements). Waits are on conditions (the fonts' loading promise), never sleeps.
"""
import argparse, json, sys

import chromium

MEASURE = r"""
const [cases, done] = [arguments[0], arguments[arguments.length - 1]];
const stage = document.getElementById('stage');
stage.textContent = '';
const made = [];
for (const c of cases) {
  const box = document.createElement('div');
  box.className = 'wrap tl ' + c.classes;
  box.style.width = c.width + 'px';
  box.textContent = c.text;
  stage.appendChild(box);
  const spans = c.lines.map(line => {
    const span = document.createElement('span');
    span.className = 'tl ' + c.classes;
    span.style.position = 'static';
    span.textContent = line.text;
    const holder = document.createElement('div');
    holder.appendChild(span);
    stage.appendChild(holder);
    return span;
  });
  made.push([c, box, spans]);
}
const results = [];
for (const [c, box, spans] of made) {
  const widths = spans.map(s => s.getBoundingClientRect().width);
  const node = box.firstChild;
  const range = document.createRange();
  const top = offset => {
    const code = c.text.charCodeAt(offset);
    const end = (code >= 0xD800 && code < 0xDC00) ? offset + 2 : offset + 1;
    range.setStart(node, offset);
    range.setEnd(node, Math.min(end, c.text.length));
    const rects = range.getClientRects();
    return rects.length ? rects[0].top : NaN;
  };
  const lineHeight = c.lineHeight;
  let first = null, breaks = true, where = '';
  c.lines.forEach((line, i) => {
    if (line.end <= line.start) return;
    const a = top(line.start), b = top(line.end - 1);
    if (first === null) first = a - i * lineHeight;
    const ia = Math.round((a - first) / lineHeight), ib = Math.round((b - first) / lineHeight);
    if (ia !== i || ib !== i) { if (breaks) where = `line ${i}: browser lines ${ia}..${ib}`; breaks = false; }
  });
  const boxLines = Math.round(box.getBoundingClientRect().height / lineHeight);
  if (boxLines !== c.lines.length) { if (breaks) where = `browser ${boxLines} lines, host ${c.lines.length}`; breaks = false; }
  results.push({widths, breaks, where});
}
stage.textContent = '';
done(results);
"""


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--cases", required=True)
    p.add_argument("--scale", required=True)
    p.add_argument("--out", required=True)
    args = p.parse_args()
    data = json.load(open(args.cases))

    driver = chromium.start(window="1200,1000", scale=args.scale, extra=())
    driver.set_script_timeout(600)
    summary = {"scale": args.scale, "lines": 0, "linesWithin1px": 0, "cases": 0, "casesAgreeing": 0,
               "worstLines": [], "disagreeingCases": []}
    try:
        driver.get(data["page"])
        css = data["css"] + ".wrap{position:static;white-space:pre-wrap;overflow-wrap:break-word}"
        driver.execute_script(
            "document.documentElement.lang='en';"
            "const s=document.createElement('style');s.textContent=arguments[0];document.head.appendChild(s);"
            "document.body.innerHTML='<div id=stage></div>';", css)
        # Every face loaded (and none failed) before anything is measured.
        status = driver.execute_async_script(
            "const done=arguments[0];"
            "Promise.all(['FloorSans','FloorCJK','FloorEmoji'].flatMap(f=>['400','700'].map(w=>"
            "document.fonts.load(w+' 15px '+f,'a日😀')))).then(()=>done([...document.fonts].map(f=>f.family+' '+f.weight+' '+f.status)))")
        if any(not s.endswith("loaded") for s in status):
            print("fonts did not load: " + ", ".join(status), file=sys.stderr)
            return 1
        cases = data["cases"]
        batch = 400
        for start in range(0, len(cases), batch):
            chunk = cases[start:start + batch]
            results = driver.execute_async_script(MEASURE, chunk)
            for c, r in zip(chunk, results):
                summary["cases"] += 1
                if r["breaks"]:
                    summary["casesAgreeing"] += 1
                elif len(summary["disagreeingCases"]) < 20:
                    summary["disagreeingCases"].append({"text": c["text"], "classes": c["classes"],
                                                        "width": c["width"], "why": r["where"],
                                                        "host": [l["text"] for l in c["lines"]]})
                for line, w in zip(c["lines"], r["widths"]):
                    summary["lines"] += 1
                    d = abs(w - line["width"])
                    if d <= 1:
                        summary["linesWithin1px"] += 1
                    elif len(summary["worstLines"]) < 20:
                        summary["worstLines"].append({"text": line["text"], "classes": c["classes"],
                                                      "host": line["width"], "browser": w})
    finally:
        driver.quit()
    json.dump(summary, open(args.out, "w"), ensure_ascii=False, indent=1)
    print(json.dumps({k: summary[k] for k in ["scale", "lines", "linesWithin1px", "cases", "casesAgreeing"]}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
