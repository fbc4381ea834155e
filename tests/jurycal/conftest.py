"""Fixtures shared by the command-line tests."""

import pytest

from jurycal.cli import main
from jurycal.datasets import load_arena_pairwise


@pytest.fixture
def run_cli(capsys):
    """``run_cli(argv)``: the exit code, stdout and stderr of ``jurycal argv``, usage errors
    (argparse's SystemExit) included."""

    def run(argv):
        try:
            code = main(argv)
        except SystemExit as stop:
            code = stop.code
        out, err = capsys.readouterr()
        return code, out, err

    return run


@pytest.fixture(scope="module")
def arena(tmp_path_factory):
    """The bundled arena battles as the CSV files a user would write: the two judges' verdicts
    and a seeded sample of 300 of the 877 human votes. Returns the folder and the two frames."""
    root = tmp_path_factory.mktemp("pairwise")
    verdicts, human = load_arena_pairwise()
    sample = human.sample(300, random_state=28).reset_index(drop=True)
    verdicts.to_csv(root / "verdicts.csv", index=False)
    sample.to_csv(root / "human.csv", index=False)
    return root, verdicts, sample
