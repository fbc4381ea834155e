"""An install without torch's weight, and commands that import only what they use (issue 39
item 6): torch is the extra ``jurycal[torch]``, named when missing; a small ``judge`` or ``rank``
loads neither scipy.stats, matplotlib, DuckDB nor torch."""

import importlib.util
import json
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def _requirement_name(requirement):
    name = requirement.split(";")[0].split("[")[0]
    for mark in "<>=!~ ":
        name = name.split(mark)[0]
    return name.strip().lower()


def test_a_resolve_without_extras_pulls_no_torch_and_no_nvidia_wheel():
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    names = {_requirement_name(r) for r in project["dependencies"]}
    assert "torch" not in names
    assert not any(name.startswith(("nvidia", "triton")) for name in names)
    assert [_requirement_name(r) for r in project["optional-dependencies"]["torch"]] == ["torch"]


def test_make_test_installs_the_cpu_build_and_the_extra():
    """`make test` (and .ci/run, which runs it) installs torch pinned before the project, with
    the torch extra, so that the torch backend is tested; `make demo` installs no torch."""
    makefile = (ROOT / "Makefile").read_text()
    test_rule = makefile.split("$(VENV)/.installed-test:")[1].split("\n\n")[0]
    assert "$(PIP) $(TORCH)" in test_rule and "'.[test,torch]'" in test_rule
    assert test_rule.index("$(TORCH)") < test_rule.index(".[test,torch]")
    demo_rule = makefile.split("$(VENV)/.installed:")[1].split("\n\n")[0]
    assert "TORCH" not in demo_rule
    assert "TORCH := torch==2.13.0" in makefile
    assert "make test" in (ROOT / ".ci" / "run").read_text()


def test_the_torch_backend_names_the_extra_when_torch_is_missing(monkeypatch, run_cli, tmp_path):
    real = importlib.util.find_spec
    monkeypatch.setattr(
        importlib.util, "find_spec", lambda name, *a: None if name == "torch" else real(name, *a)
    )
    judgments = tmp_path / "j.csv"
    judgments.write_text(
        "generator,item,validator,label\n"
        + "".join(
            f"g{g},{i},v{v},{(i + v) % 2}\n" for g in range(3) for i in range(4) for v in range(3)
        )
    )
    human = tmp_path / "h.csv"
    human.write_text("generator,item,human\n" + "".join(f"g0,{i},{i % 2}\n" for i in range(4)))
    argv = ["fit", str(judgments), str(human), "--estimator", "likelihood", "--backend", "torch"]
    code, out, err = run_cli([*argv, "--json"])
    record = json.loads(err)["error"]
    assert code == 1 and out == ""
    assert (
        "pip install 'jurycal[torch]'" in record["message"]
        and "--backend torch" in record["message"]
    )
    from regression import LatentTraitModel

    with pytest.raises(ModuleNotFoundError, match=r"jurycal\[torch\]"):
        LatentTraitModel(loss="likelihood", backend="torch").check_settings()


#: What a small command does not need.
HEAVY = ("scipy.stats", "scipy.optimize", "matplotlib", "torch", "duckdb", "narwhals")


@pytest.mark.slow  # three fresh interpreters that import pandas and scipy: about 6 s on a busy core
def test_small_commands_import_only_what_they_use(tmp_path):
    (tmp_path / "c.csv").write_text("human,judge\n1,1\n0,0\n1,1\n0,0\n1,0\n0,1\n1,1\n0,0\n")
    (tmp_path / "t.csv").write_text("judge\n1\n0\n1\n1\n0\n1\n")
    verdicts = ["item,generator_a,generator_b,validator,verdict"]
    votes = ["item,generator_a,generator_b,human"]
    for item in range(30):
        a, b = [("x", "y"), ("x", "z"), ("y", "z")][item % 3]
        verdicts.append(f"q{item},{a},{b},judge,{'a' if item % 4 else 'b'}")
        votes.append(f"q{item},{a},{b},{'a' if item % 5 else 'b'}")
    (tmp_path / "v.csv").write_text("\n".join(verdicts) + "\n")
    (tmp_path / "h.csv").write_text("\n".join(votes) + "\n")
    for argv in (
        ["judge", "c.csv", "t.csv"],
        ["rank", "v.csv", "h.csv"],
        ["count", "--help"],
    ):
        code = (
            f"import sys\nfrom jurycal.cli import main\ntry:\n    code = main({argv!r})\n"
            "except SystemExit as stop:\n    code = stop.code\n"
            f"print(code, [m for m in {HEAVY!r} if m in sys.modules])"
        )
        run = subprocess.run(
            [sys.executable, "-c", code], capture_output=True, text=True, cwd=tmp_path, check=True
        )
        assert run.stdout.strip().splitlines()[-1] == "0 []", (argv, run.stdout, run.stderr)
