"""Shared fixtures of the yee module's tests: the package from this source tree, the libyee and
the yee program of one build (YEE_LIB and YEE_BIN, which tests/python.cmake sets; else the
newest build*/ of the tree), and the repository root for the example decks."""
import os
import subprocess
import sys

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, "python"))

import yee  # noqa: E402


@pytest.fixture(scope="session")
def root():
    return ROOT


@pytest.fixture(scope="session")
def yee_bin():
    """The yee program built with the loaded libyee (the same build directory)."""
    return yee.program_path()


@pytest.fixture
def run_cli(yee_bin):
    """run_cli(args...) runs the yee program, failing the test on a nonzero exit."""
    def run(*args, cwd=None):
        r = subprocess.run([yee_bin] + [str(a) for a in args], cwd=cwd, capture_output=True,
                           text=True)
        assert r.returncode == 0, "yee %s: exit %d\n%s%s" % (
            " ".join(map(str, args)), r.returncode, r.stdout, r.stderr)
        return r.stdout
    return run
