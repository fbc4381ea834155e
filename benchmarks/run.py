"""Run the benchmarks: ``make bench`` (all) or ``python benchmarks/run.py NAME ...``.

Each ``benchmarks/bench_<name>.py`` defines ``main() -> None`` that prints one
or more tables. Speed is reported as ratios against a baseline measured in the
same run, never as absolute pass/fail thresholds.

``--markdown PATH`` also writes what each benchmark printed into a Markdown page
(``docs/benchmarks.md``), one section per benchmark between
``<!-- begin NAME -->`` and ``<!-- end NAME -->`` markers. A run replaces the
sections of the benchmarks it ran and keeps the others, so a slow benchmark need
not be rerun to refresh a fast one. Markdown tables and ``###`` headings the
benchmarks print pass through; fixed-width text (pandas tables) goes into a
``text`` fence; the rest is prose.
"""

from __future__ import annotations

import argparse
import contextlib
import datetime
import importlib.metadata
import importlib.util
import io
import os
import platform
import re
import sys
import time
from collections.abc import Callable, Iterable
from pathlib import Path
from types import ModuleType
from typing import TextIO

__all__ = ["main", "merge_sections", "render_section", "to_markdown"]

HERE = Path(__file__).resolve().parent

PAGE_HEADER = """# Benchmarks

Every table below is what `python benchmarks/run.py NAME` printed, written here by
`python benchmarks/run.py --markdown docs/benchmarks.md NAME ...`: regenerate a section
that way, never edit it by hand. Speed is given as ratios against a baseline measured in
the same run, because absolute seconds depend on the machine and its load (each section
names the machine it ran on). What the figures mean is explained in
[single-judge.md](single-judge.md), [latent-model.md](latent-model.md),
[reproducing-the-paper.md](reproducing-the-paper.md) and [scale.md](scale.md).
"""

_SECTION = re.compile(r"<!-- begin (?P<name>[\w-]+) -->\n.*?<!-- end (?P=name) -->\n", re.DOTALL)
_MISSING = "<!-- not yet run -->"
_PACKAGES = ("numpy", "scipy", "pandas", "torch", "pyarrow", "rapidfuzz", "duckdb")


def _load(path: Path) -> ModuleType:
    spec = importlib.util.spec_from_file_location(path.stem, path)
    if spec is None or spec.loader is None:
        raise ValueError(f"cannot import the benchmark file {path}")
    module = importlib.util.module_from_spec(spec)
    # registered under its name, so that a benchmark's worker processes can pickle its functions
    sys.modules[path.stem] = module
    spec.loader.exec_module(module)
    return module


class _Tee(io.TextIOBase):
    """Writes to the terminal and keeps a copy, so a long benchmark still shows progress."""

    def __init__(self, stream: TextIO) -> None:
        self.stream = stream
        self.copy = io.StringIO()

    def write(self, text: str) -> int:
        self.stream.write(text)
        self.stream.flush()
        return self.copy.write(text)


def to_markdown(text: str) -> str:
    """Turn a benchmark's printed output into Markdown.

    Paragraphs (runs of lines between blank lines) that are Markdown tables (every
    line starts with ``|``), headings (``#``) and fenced blocks pass through; a paragraph with a run
    of two spaces inside a line (fixed-width columns) is fenced as ``text``; any other
    paragraph is prose and passes through.

    Parameters
    ----------
    text : str
        What the benchmark printed.

    Returns
    -------
    str
        Markdown, paragraphs separated by one blank line.
    """
    paragraphs = [p for p in re.split(r"\n\s*\n", text.strip("\n")) if p.strip()]
    out = []
    for paragraph in paragraphs:
        lines = paragraph.rstrip().split("\n")
        if lines[0].startswith("```"):
            out.append("\n".join(lines))
        elif all(line.lstrip().startswith("|") for line in lines) or lines[0].startswith("#"):
            out.append("\n".join(line.strip() for line in lines))
        elif any("  " in line.strip() for line in lines):
            out.append("```text\n" + "\n".join(lines) + "\n```")
        else:
            out.append("\n".join(lines))
    return "\n\n".join(out)


def _machine() -> str:
    versions = []
    for package in _PACKAGES:
        with contextlib.suppress(importlib.metadata.PackageNotFoundError):
            versions.append(f"{package} {importlib.metadata.version(package)}")
    load = ", ".join(f"{x:.1f}" for x in os.getloadavg())
    return (
        f"{os.cpu_count()} cores ({platform.machine()}, load average {load} at the start), "
        f"Python {platform.python_version()}, {', '.join(versions)}"
    )


def render_section(name: str, output: str, seconds: float, machine: str, when: str) -> str:
    """One benchmark's section of the page, between its begin / end markers.

    Parameters
    ----------
    name : str
        The benchmark's name (``bench_<name>.py``).
    output : str
        What it printed.
    seconds : float
        How long it ran.
    machine, when : str
        Where and when it ran (shown under the heading).

    Returns
    -------
    str
        The section, ending in a newline.
    """
    return (
        f"<!-- begin {name} -->\n## {name}\n\n"
        f"`python benchmarks/run.py {name}`, {when}, {seconds:.0f} s on {machine}.\n\n"
        f"{to_markdown(output)}\n<!-- end {name} -->\n"
    )


def merge_sections(page: str, sections: dict[str, str], known: Iterable[str] = ()) -> str:
    """Replace or add sections of a page, keeping the others; sections sorted by name.

    Parameters
    ----------
    page : str
        The page as it is ("" for a new page: it gets the standard header).
    sections : dict of str to str
        New sections by benchmark name, as :func:`render_section` makes them.
    known : iterable of str
        Every benchmark's name: those with no section get a closing line that says
        so and gives the command that adds them.

    Returns
    -------
    str
        The page: its header (the text before the first section), every section, and
        the line naming the benchmarks not in the page.
    """
    kept = {m["name"]: m.group(0) for m in _SECTION.finditer(page)}
    first = _SECTION.search(page)
    header = (page[: first.start()] if first else page.split(_MISSING)[0]) or PAGE_HEADER
    kept.update(sections)
    body = "\n".join(kept[name] for name in sorted(kept))
    absent = sorted(set(known) - set(kept))
    if absent:
        names = ", ".join(f"`{name}`" for name in absent)
        body += (
            f"\n{_MISSING}\nNot in this page yet: {names}; add them with "
            f"`python benchmarks/run.py --markdown docs/benchmarks.md {' '.join(absent)}`.\n"
        )
    return header.rstrip("\n") + "\n\n" + body


def _run_one(name: str, bench: Callable[[], None], capture: bool) -> tuple[str, float]:
    start = time.perf_counter()
    if not capture:
        bench()
        return "", time.perf_counter() - start
    tee = _Tee(sys.stdout)
    with contextlib.redirect_stdout(tee):
        bench()
    return tee.copy.getvalue(), time.perf_counter() - start


def main(argv: list[str] | None = None) -> int:
    """Run the named benchmarks (all by default); with ``--markdown``, update that page."""
    files = sorted(HERE.glob("bench_*.py"))
    known = {f.stem.removeprefix("bench_"): f for f in files}
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("names", nargs="*", metavar="NAME", help=f"one of {sorted(known)}")
    parser.add_argument(
        "--markdown",
        type=Path,
        metavar="PATH",
        help="also write the printed tables into this Markdown page (docs/benchmarks.md)",
    )
    args = parser.parse_args(argv)
    unknown = [n for n in args.names if n not in known]
    if unknown:
        print(f"unknown benchmark(s) {unknown}; known: {sorted(known)}", file=sys.stderr)
        return 2
    sections = {}
    for name in args.names or sorted(known):
        print(f"\n## {name}\n", flush=True)
        machine = _machine()
        when = datetime.datetime.now(datetime.UTC).strftime("%Y-%m-%d %H:%M UTC")
        output, seconds = _run_one(name, _load(known[name]).main, args.markdown is not None)
        print(f"\n({name}: {seconds:.1f} s)", flush=True)
        sections[name] = render_section(name, output, seconds, machine, when)
        if args.markdown is not None:
            # Written after every benchmark, so an interrupted run keeps what finished.
            page = args.markdown.read_text(encoding="utf-8") if args.markdown.exists() else ""
            args.markdown.write_text(
                merge_sections(page, {name: sections[name]}, known), encoding="utf-8"
            )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
