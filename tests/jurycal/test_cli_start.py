"""A fast start: ``--help`` and ``--version`` import no heavy library, and ``import regression``
loads its estimators only when a name is used. Time is measured in benchmarks/, not here."""

import subprocess
import sys

import pytest

from jurycal.cli import build_parser, named_command
from jurycal.cli.commands import COMMANDS

HEAVY = ("numpy", "pandas", "scipy", "torch", "duckdb", "matplotlib")


def _modules_after(code):
    probe = f"{code}\nimport sys\nprint(' '.join(sorted(m for m in sys.modules if '.' not in m)))"
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True)
    return set(done.stdout.split())


@pytest.mark.parametrize("flag", ["--help", "--version"])
def test_help_and_version_import_no_heavy_library(flag):
    code = (
        "from jurycal.cli import main\n"
        f"try:\n    main([{flag!r}])\nexcept SystemExit as done:\n    assert done.code == 0"
    )
    loaded = _modules_after(code)
    assert "jurycal" in loaded
    assert not loaded & set(HEAVY), sorted(loaded & set(HEAVY))


def test_import_regression_loads_names_on_first_use():
    assert not _modules_after("import regression") & set(HEAVY)
    assert "pandas" in _modules_after("from regression import LatentTraitModel")


def test_every_public_name_of_regression_resolves():
    import regression

    for name in regression.__all__:
        assert getattr(regression, name) is not None, name
    assert set(regression.__all__) <= set(dir(regression))
    # lazy_loader words it "No regression attribute nothing"
    with pytest.raises(AttributeError, match="attribute nothing"):
        regression.nothing  # noqa: B018


def test_a_named_command_is_registered_in_full_with_the_table_help():
    for name in COMMANDS:
        parser = build_parser([name])
        sub = parser._subparsers._group_actions[0]  # argparse keeps the subparsers action here
        help_of = {action.dest: action.help for action in sub._choices_actions}
        assert help_of[name] == COMMANDS[name][1]
        assert sub.choices[name].add_help, name  # the real parser, not the placeholder


@pytest.mark.parametrize(
    "argv, command",
    [
        (["vote", "x.csv"], "vote"),
        (["--quiet", "fit", "a", "b"], "fit"),
        (["--help"], None),
        (["nonsense"], None),
    ],
)
def test_the_named_command_is_the_first_word_that_is_not_an_option(argv, command):
    assert named_command(argv) == command


def test_an_unknown_command_is_a_usage_error(capsys):
    from jurycal.cli import main

    with pytest.raises(SystemExit) as done:
        main(["nonsense"])
    assert done.value.code == 2
    assert "invalid choice: 'nonsense'" in capsys.readouterr().err
