"""Render the demo's report card in a real (headless) Chromium and check its layout and reading.

Not part of the test suite: it needs a browser, and this machine's only one is the
headless Chromium that ``kaleido==0.2.1`` ships inside its wheel (the ``bench``
extra: ``pip install -e '.[bench]'``, or ``pip install kaleido==0.2.1`` into any
environment, then pass its package directory). Kaleido runs a page in that Chromium
and answers one JSON request per line on stdin through a "scope" written in
JavaScript; a copy of its executable directory gets a scope that loads the card into
an iframe as wide as a phone, a tablet or a laptop (:data:`WIDTHS`), waits for every
image to decode, and reports what the browser laid out: each image's decoded and
shown size, each table's size, cells and the element it scrolls in, the headings with
their levels, the warning blocks, and the page's scroll width.

Run: ``python benchmarks/check_report_in_browser.py /path/to/site-packages/kaleido
[CARD.html ...]`` (the demo's card, then each card given, e.g. those of ``jurycal
fit --report``, ``rank --report`` and ``report``). It exits 1, naming the fault and
the width, if at any width an image does not decode, a figure is wider than the
page column, the page scrolls sideways, or a table wider than the column does not
sit in a wrapper that scrolls it (``overflow-x: auto``) within the column; or, once,
if a heading skips a level, the numbered sections skip a number, a cell reads
"nan", a table repeats one long note in every row or has a leftover pandas index
column (a header "", "index", "level_0"), a section stacks its warnings (more than
one block, or one warning twice), or a warning asks for what the user cannot give
("pass counts").
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
import tempfile
import warnings
from pathlib import Path

#: Headers pandas gives an index nobody named (reset_index, to_csv and read_csv): never a card's.
LEFTOVER_INDEX = ("", "index", "level_0", "Unnamed: 0")
#: The viewport widths (CSS px) the card is laid out at: a phone, a tablet or narrow window, a laptop.
WIDTHS = (375, 800, 1280)

MEASURE = """
window.kaleido_scopes.plotly = function (info) {
  return new Promise((resolve) => {
    const frame = document.createElement('iframe');
    frame.style.width = info.width + 'px';
    frame.style.height = info.height + 'px';
    document.body.appendChild(frame);
    frame.onload = () => {
      const doc = frame.contentDocument;
      const images = Array.from(doc.images);
      const loaded = images.map((im) => (im.complete ? Promise.resolve()
        : new Promise((done) => { im.onload = done; im.onerror = done; })));
      Promise.all(loaded).then(() => {
        const box = (el) => el.getBoundingClientRect();
        const out = {
          column: box(doc.body).width,
          scroll_width: doc.documentElement.scrollWidth,
          height: doc.body.scrollHeight,
          images: images.map((im) => ({natural: [im.naturalWidth, im.naturalHeight],
                                       shown: [box(im).width, box(im).height]})),
          tables: Array.from(doc.querySelectorAll('table')).map((t) => ({rows: t.rows.length,
            width: box(t).width,
            wrapper: {overflow: getComputedStyle(t.parentElement).overflowX,
                      width: box(t.parentElement).width,
                      right: box(t.parentElement).right},
            head: Array.from(t.rows[0].cells).map((c) => c.textContent),
            cells: Array.from(t.rows).slice(1).map((r) => Array.from(r.cells).map((c) => c.textContent))})),
          headings: Array.from(doc.querySelectorAll('h1,h2,h3,h4,h5,h6')).map((h) =>
            ({level: Number(h.tagName[1]), text: h.textContent})),
          warnings: Array.from(doc.querySelectorAll('.warning')).map((w) =>
            Array.from(w.querySelectorAll('li')).map((li) => li.textContent)),
        };
        resolve({code: 0, message: null, pdfBgColor: null, format: 'json',
                 result: JSON.stringify(out), width: info.width, height: info.height, scale: 1});
      });
    };
    frame.srcdoc = info.data;
  });
};
"""


def card_html() -> str:
    """The demo's card (every section: repair, voting, transfer, leaderboard, one judge)."""
    from jurycal.demo import run_demo

    with tempfile.TemporaryDirectory() as folder, warnings.catch_warnings():
        warnings.simplefilter("ignore")
        _, written = run_demo(quiet=True, out_dir=folder)
        return written[-1].read_text(encoding="utf-8")


def measure(kaleido: Path, page: str, widths: tuple[int, ...] = WIDTHS) -> dict[int, dict]:
    """What kaleido's Chromium laid out for ``page`` at each of ``widths`` (module docstring).

    One browser per width: kaleido's page cannot serialise a second answer after the first.
    """
    with tempfile.TemporaryDirectory() as folder:
        copy = Path(folder) / "executable"
        shutil.copytree(kaleido / "executable", copy)
        with open(copy / "js" / "kaleido_scopes.js", "a", encoding="utf-8") as scopes:
            scopes.write(MEASURE)
        return {width: _laid_out(copy, page, width) for width in widths}


def _laid_out(executable: Path, page: str, width: int) -> dict:
    """One request to a fresh browser in ``executable``: ``page`` laid out ``width`` px wide."""
    flags = ["--no-sandbox", "--disable-gpu", "--single-process", "--disable-dev-shm-usage"]
    browser = subprocess.Popen(
        ["./kaleido", "plotly", *flags],
        cwd=executable,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
    )
    try:
        assert browser.stdin is not None and browser.stdout is not None
        started = json.loads(browser.stdout.readline())
        if started["code"] != 0:
            raise RuntimeError(f"the browser did not start: {started['message']}")
        request = {"data": page, "format": "json", "width": width, "height": 900}
        browser.stdin.write((json.dumps(request) + "\n").encode())
        browser.stdin.flush()
        answer = json.loads(browser.stdout.readline())
    finally:
        browser.kill()
    if answer["code"] != 0:
        raise RuntimeError(
            f"the browser could not render the card at {width} px: {answer['message']}"
        )
    return json.loads(answer["result"])


def width_faults(layout: dict, width: int) -> list[str]:
    """What is wrong with the card laid out ``width`` px wide; empty if nothing."""
    found = []
    column = layout["column"]
    for i, image in enumerate(layout["images"]):
        if min(image["natural"]) == 0:
            found.append(f"figure {i + 1} did not decode")
        if image["shown"][0] > column + 0.5:
            found.append(f"figure {i + 1} is {image['shown'][0]:.0f} px, wider than the column")
    if layout["scroll_width"] > width:
        found.append(f"the page scrolls sideways ({layout['scroll_width']} px > {width})")
    for t, table in enumerate(layout["tables"], start=1):
        wrapper = table["wrapper"]
        if wrapper["width"] > column + 0.5:
            found.append(f"table {t}'s wrapper is {wrapper['width']:.0f} px, wider than the column")
        if table["width"] > wrapper["width"] + 0.5 and wrapper["overflow"] not in (
            "auto",
            "scroll",
        ):
            found.append(
                f"table {t} is {table['width']:.0f} px in a {wrapper['width']:.0f} px wrapper "
                f"that does not scroll (overflow-x {wrapper['overflow']})"
            )
    return [f"at {width} px: {fault}" for fault in found]


def faults(layout: dict) -> list[str]:
    """What is wrong with a laid-out card whatever its width; empty if nothing."""
    found = []
    if not layout["tables"]:
        found.append("no table was laid out")
    levels = [h["level"] for h in layout["headings"]]
    pairs = zip(levels, levels[1:], layout["headings"][1:], strict=False)
    for before, after, heading in pairs:
        if after > before + 1:
            found.append(f"heading {heading['text']!r} (h{after}) skips a level after h{before}")
    numbers = [
        int(m.group(1))
        for h in layout["headings"]
        if h["level"] == 2 and (m := re.match(r"(\d+)\. ", h["text"]))
    ]
    if numbers != list(range(1, len(numbers) + 1)):
        found.append(f"the numbered sections read {numbers}")
    for t, table in enumerate(layout["tables"], start=1):
        leftover = [h for h in table["head"] if h.strip() in LEFTOVER_INDEX]
        if leftover:
            found.append(f"table {t} has a leftover pandas index column {leftover[0]!r}")
        cells = table["cells"]
        if any(c.strip().lower() == "nan" or c.startswith("nan ") for row in cells for c in row):
            found.append(f"table {t} has a 'nan' cell")
        for column in zip(*cells, strict=True):
            if len(column) > 2 and len(set(column)) == 1 and len(column[0]) > 40:
                found.append(f"table {t} repeats {column[0][:40]!r}... in every row")
    for block in layout["warnings"]:
        if len(block) != len(set(block)):
            found.append("a warning block says one warning twice")
        found += [
            f"a warning the user cannot act on: {w[:60]!r}" for w in block if "pass counts" in w
        ]
    return found


def check(kaleido: Path, name: str, page: str) -> list[str]:
    """Lay out one card at every width of :data:`WIDTHS`; print what the browser drew and its faults."""
    layouts = measure(kaleido, page)
    problems = faults(layouts[max(layouts)])
    for width, layout in layouts.items():
        wide = [t for t in layout["tables"] if t["width"] > t["wrapper"]["width"] + 0.5]
        print(
            f"{name} at {width} px: column {layout['column']:.0f} px, page "
            f"{layout['scroll_width']} px wide, {len(layout['images'])} figures, "
            f"{len(layout['tables'])} tables ({len(wide)} scrolling within their wrapper), "
            f"{layout['height']:,} px tall"
        )
        problems += width_faults(layout, width)
    return [f"{name}: {problem}" for problem in problems]


def main(argv: list[str]) -> int:
    """``KALEIDO [CARD.html ...]``: the demo's card, then each card given (``--report``'s HTML)."""
    if not argv or argv[0].startswith("-"):
        print(__doc__)
        return 2
    kaleido = Path(argv[0])
    problems = check(kaleido, "the demo's card", card_html())
    for path in map(Path, argv[1:]):
        problems += check(kaleido, path.name, path.read_text(encoding="utf-8"))
    for problem in problems:
        print(f"fault: {problem}")
    if not problems:
        print(
            f"every card lays out in Chromium at {', '.join(map(str, WIDTHS))} px: no sideways "
            "page scroll, every wide table scrolls within its wrapper, every figure decodes and "
            "fits the column, headings nest, sections are numbered 1, 2, ..., no cell reads nan, "
            "no note or warning repeats."
        )
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
