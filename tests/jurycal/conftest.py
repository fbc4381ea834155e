"""Fixtures shared by the command-line tests."""

import pytest

from jurycal.cli import main


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
