import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
CORPUS = REPO / "fixtures" / "corpus"


def corpus_sample(count: int) -> list[Path]:
    """`count` corpus cases spread evenly over the sorted corpus: cases of every rule, and a
    test time that stays put as the corpus grows (a fixed fraction of it did not)."""
    cases = sorted(CORPUS.glob("*.py"))
    return cases[::max(1, len(cases) // count)][:count]


def run_cli(*args, cwd=None, input=None, env=None, timeout=120):
    """Run the real command line in a subprocess, as a user would."""
    full_env = dict(os.environ)
    full_env.pop("FORCE_COLOR", None)
    full_env["NO_COLOR"] = "1"
    if env:
        full_env.update(env)
    return subprocess.run(
        [sys.executable, "-m", "compilelint", *args], cwd=cwd, input=input, env=full_env,
        capture_output=True, text=True, timeout=timeout,
    )


@pytest.fixture
def cli():
    return run_cli


@pytest.fixture
def write(tmp_path):
    """write("name.py", source) -> path, dedenting the source."""

    def _write(name, source, base=None):
        path = (base or tmp_path) / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(textwrap.dedent(source).lstrip("\n"), encoding="utf-8")
        return path

    return _write
