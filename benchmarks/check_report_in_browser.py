"""Render the leaderboard report card in a real (headless) Chromium and check its layout.

Not part of the test suite: it needs a browser, and this machine's only one is the
headless Chromium that ``kaleido==0.2.1`` ships inside its wheel
(``pip install kaleido==0.2.1`` into any environment, then pass its package
directory). Kaleido runs a page in that Chromium and answers one JSON request per
line on stdin through a "scope" written in JavaScript; a copy of its executable
directory gets a scope that loads the card into an iframe, waits for every image
to decode, and reports what the browser laid out: each image's decoded and shown
size, each table's size, the headings, and the page's scroll width.

Run: ``python benchmarks/check_report_in_browser.py /path/to/site-packages/kaleido``.
It exits 1, naming the fault, if an image does not decode, a figure is wider than
the page column, or the page scrolls sideways at 1200 px.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
import tempfile
import warnings
from pathlib import Path

from jurycal.datasets import load_agreeableness_judgments
from jurycal.report import Report, add_leaderboard
from regression import LatentTraitModel

VIEWPORT = 1200

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
                                                                         width: box(t).width})),
          headings: Array.from(doc.querySelectorAll('h1,h2,h3')).map((h) => h.textContent),
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
    """The leaderboard card of the bundled data with three calibration generators."""
    judgments, human = load_agreeableness_judgments()
    calibration = ["claude_3_opus", "gpt-4-turbo", "gpt-4o"]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        result = LatentTraitModel().fit_table(
            judgments, human[human["generator"].isin(calibration)], calibration
        )
    card = Report("jurycal report card: leaderboard")
    add_leaderboard(card, result.leaderboard())
    return card.to_html()


def measure(kaleido: Path, page: str) -> dict:
    """What kaleido's Chromium laid out for ``page`` (module docstring)."""
    with tempfile.TemporaryDirectory() as folder:
        copy = Path(folder) / "executable"
        shutil.copytree(kaleido / "executable", copy)
        with open(copy / "js" / "kaleido_scopes.js", "a", encoding="utf-8") as scopes:
            scopes.write(MEASURE)
        flags = ["--no-sandbox", "--disable-gpu", "--single-process", "--disable-dev-shm-usage"]
        browser = subprocess.Popen(
            ["./kaleido", "plotly", *flags],
            cwd=copy,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
        )
        try:
            assert browser.stdin is not None and browser.stdout is not None
            started = json.loads(browser.stdout.readline())
            if started["code"] != 0:
                raise RuntimeError(f"the browser did not start: {started['message']}")
            request = {"data": page, "format": "json", "width": VIEWPORT, "height": 900}
            browser.stdin.write((json.dumps(request) + "\n").encode())
            browser.stdin.flush()
            answer = json.loads(browser.stdout.readline())
        finally:
            browser.kill()
    if answer["code"] != 0:
        raise RuntimeError(f"the browser could not render the card: {answer['message']}")
    return json.loads(answer["result"])


def faults(layout: dict) -> list[str]:
    """What is wrong with a laid-out card; empty if nothing."""
    found = []
    for i, image in enumerate(layout["images"]):
        if min(image["natural"]) == 0:
            found.append(f"figure {i + 1} did not decode")
        if image["shown"][0] > layout["column"] + 0.5:
            found.append(f"figure {i + 1} is {image['shown'][0]:.0f} px, wider than the column")
    if layout["scroll_width"] > VIEWPORT:
        found.append(f"the page scrolls sideways ({layout['scroll_width']} px > {VIEWPORT})")
    if not layout["tables"]:
        found.append("no table was laid out")
    return found


def main(argv: list[str]) -> int:
    if len(argv) != 1:
        print(__doc__)
        return 2
    layout = measure(Path(argv[0]), card_html())
    print(json.dumps(layout, indent=2))
    problems = faults(layout)
    for problem in problems:
        print(f"fault: {problem}")
    if not problems:
        print("the card lays out in Chromium: every figure decodes and fits the column.")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
