"""Every ```python block of README.md and docs/*.md runs as written, so no snippet can rot.

The blocks of one file share a namespace and run in order, in a fresh temporary
directory (a snippet may write files). A block fenced as ```python no-run REASON is
only compiled, never run: the reason (e.g. "needs a Spark session") is required
and says why. A failing block fails its file's test with the file, the block's
line and the traceback.
"""

from __future__ import annotations

import importlib.util
import re
import traceback
from dataclasses import dataclass
from pathlib import Path

import matplotlib
import pytest

matplotlib.use("Agg")  # the docs draw figures; no display in a test run

import matplotlib.pyplot as plt  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
README_MAX_LINES = 215
_FENCE = re.compile(r"^(?P<indent>\s*)```(?P<info>.*)$")
_LINK = re.compile(r"\]\((?P<target>[^)\s]+)\)")


@dataclass(frozen=True)
class Block:
    """One fenced code block: where it starts, its info string and its code."""

    path: Path
    line: int  # 1-based line of the opening fence
    info: str
    code: str

    @property
    def language(self) -> str:
        return self.info.split()[0] if self.info.split() else ""

    @property
    def no_run_reason(self) -> str | None:
        words = self.info.split()
        return " ".join(words[2:]) if words[1:2] == ["no-run"] else None


def code_blocks(path: Path, text: str | None = None) -> list[Block]:
    """The fenced code blocks of a Markdown file, in order (indented fences included)."""
    lines = (path.read_text(encoding="utf-8") if text is None else text).split("\n")
    blocks, i = [], 0
    while i < len(lines):
        opening = _FENCE.match(lines[i])
        if opening is None:
            i += 1
            continue
        indent, start = len(opening["indent"]), i
        i += 1
        body = []
        while i < len(lines) and not re.match(r"^\s*```\s*$", lines[i]):
            line = lines[i]
            # a fence inside a list item is indented: its code is dedented by the same amount
            body.append(line[indent:] if not line[:indent].strip() else line.lstrip())
            i += 1
        if i == len(lines):
            raise ValueError(f"{path}:{start + 1}: code block never closed")
        blocks.append(Block(path, start + 1, opening["info"].strip(), "\n".join(body) + "\n"))
        i += 1
    return blocks


def run_blocks(blocks: list[Block]) -> None:
    """Run the python blocks in one namespace, in order; raise AssertionError naming a failure."""
    namespace: dict[str, object] = {"__name__": "__docs__"}
    for block in blocks:
        if block.language != "python":
            continue
        code = compile(block.code, f"{block.path.name}:{block.line}", "exec")
        if block.no_run_reason is not None:
            continue
        try:
            exec(code, namespace)
        except Exception as error:  # every failure, NameError included, names its block
            detail = "".join(traceback.format_exception(error))
            raise AssertionError(
                f"{block.path.name}, the python block at line {block.line} failed:\n{detail}"
            ) from error
        finally:
            plt.close("all")


# Pages whose examples take over 2 s, run as a reader would: repair.md repairs the bundled sample.
SLOW_PAGES = {"repair.md"}


@pytest.mark.parametrize(
    "path",
    [pytest.param(p, marks=pytest.mark.slow) if p.name in SLOW_PAGES else p for p in PAGES],
    ids=lambda p: p.name,
)
def test_python_blocks_run(path: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    run_blocks(code_blocks(path))


@pytest.mark.parametrize("path", PAGES, ids=lambda p: p.name)
def test_no_run_blocks_say_why(path: Path) -> None:
    for block in code_blocks(path):
        if block.language == "python" and block.no_run_reason is not None:
            assert block.no_run_reason, f"{path.name}:{block.line}: no-run without a reason"


def test_a_name_error_fails_the_page(tmp_path: Path) -> None:
    page = tmp_path / "page.md"
    page.write_text(
        "Text.\n\n```python\nx = 1\n```\n\n```python no-run needs the user's files\n"
        "read_user_files()\n```\n\n```python\ny = x + undefined_name\n```\n"
    )
    blocks = code_blocks(page)
    assert [b.line for b in blocks] == [3, 7, 11]
    with pytest.raises(
        AssertionError, match=r"(?s)page.md, the python block at line 11.*NameError"
    ):
        run_blocks(blocks)


def test_blocks_share_a_namespace_in_order_and_keep_their_indentation(tmp_path: Path) -> None:
    page = tmp_path / "page.md"
    page.write_text(
        "```python\ndef f():\n    return 2\n```\n- a list item:\n\n  ```python\n"
        "  x = f()\n  if x:\n      assert x == 2\n  ```\n"
    )
    run_blocks(code_blocks(page))
    page.write_text("```python\nassert x == 2\n```\n\n```python\nx = 2\n```\n")
    with pytest.raises(AssertionError, match="NameError"):
        run_blocks(code_blocks(page))


def test_an_unclosed_block_is_an_error(tmp_path: Path) -> None:
    page = tmp_path / "page.md"
    page.write_text("```python\nx = 1\n")
    with pytest.raises(ValueError, match="page.md:1: code block never closed"):
        code_blocks(page)


def test_readme_is_short() -> None:
    n_lines = len((ROOT / "README.md").read_text(encoding="utf-8").splitlines())
    assert n_lines <= README_MAX_LINES, f"README.md has {n_lines} lines; move detail to docs/"


@pytest.mark.parametrize("path", PAGES, ids=lambda p: p.name)
def test_relative_links_resolve(path: Path) -> None:
    text = path.read_text(encoding="utf-8")
    code = {i for b in code_blocks(path) for i in range(b.line, b.line + b.code.count("\n") + 1)}
    for number, line in enumerate(text.split("\n"), start=1):
        if number in code:
            continue
        for match in _LINK.finditer(line):
            target = match["target"].split("#")[0]
            if not target or re.match(r"^[a-z]+:", target):
                continue  # an anchor in the same page, or a web address
            assert (path.parent / target).exists(), f"{path.name}:{number}: no file {target}"


def _benchmark_runner():  # benchmarks/ is a folder of scripts, not a package
    spec = importlib.util.spec_from_file_location("bench_run", ROOT / "benchmarks" / "run.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_benchmark_output_becomes_markdown() -> None:
    run = _benchmark_runner()
    printed = (
        "### 1. Speed\n\n| method | s |\n|---|---|\n| a | 1.0 |\n\n"
        "  method  rows  seconds\nstreamed   100      1.5\n\nthe last line, in prose\n\n"
        "```text\n  fenced  already\n```\n"
    )
    assert run.to_markdown(printed) == (
        "### 1. Speed\n\n| method | s |\n|---|---|\n| a | 1.0 |\n\n"
        "```text\n  method  rows  seconds\nstreamed   100      1.5\n```\n\nthe last line, in prose\n\n"
        "```text\n  fenced  already\n```"
    )


def test_benchmark_sections_are_replaced_one_at_a_time() -> None:
    run = _benchmark_runner()
    first = run.render_section("alpha", "one", 1.0, "a machine", "today")
    page = run.merge_sections("", {"alpha": first}, known=["alpha", "beta"])
    assert page.startswith(run.PAGE_HEADER.rstrip("\n"))
    assert "Not in this page yet: `beta`" in page
    second = run.render_section("beta", "two", 2.0, "a machine", "today")
    page = run.merge_sections(page, {"beta": second}, known=["alpha", "beta"])
    assert "Not in this page yet" not in page
    assert page.index("## alpha") < page.index("## beta")
    newer = run.render_section("alpha", "three", 3.0, "a machine", "tomorrow")
    page = run.merge_sections(page, {"alpha": newer}, known=["alpha", "beta"])
    assert "three" in page and "one" not in page and "two" in page


def test_benchmarks_page_is_as_the_runner_writes_it() -> None:
    run = _benchmark_runner()
    page = (ROOT / "docs" / "benchmarks.md").read_text(encoding="utf-8")
    known = [p.stem.removeprefix("bench_") for p in (ROOT / "benchmarks").glob("bench_*.py")]
    assert run.merge_sections(page, {}, known) == page
