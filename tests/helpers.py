"""Run the static pass in-process on snippets, for the rule tests; and `check --probe` on a
fixture of probe targets, as a user runs it."""

import contextlib
import importlib
import json
import shutil
import subprocess
import sys
import textwrap

from compilelint import config as config_mod
from compilelint.engine import check


def lint_snippet(tmp_path, source, *, name="snippet.py", select=None, target_torch=None, roots=None):
    path = tmp_path / name
    path.write_text(textwrap.dedent(source).lstrip("\n"), encoding="utf-8")
    settings = config_mod.load(
        start=str(tmp_path), select=select, target_torch=target_torch, roots=roots,
    )
    return check([str(path)], settings).findings


def expected_lines(source):
    lines = textwrap.dedent(source).lstrip("\n").splitlines()
    return {n for n, line in enumerate(lines, start=1) if line.rstrip().endswith("# expect")}


def check_probe(tmp_path, fixture, targets):
    """`compilelint check FIXTURE --probe --format json` with `targets` (names of factories in
    the fixture) in the project's config: every finding, with its verdict."""
    shutil.copy(fixture, tmp_path / fixture.name)
    return _probe_check(tmp_path, fixture.name, [f"{fixture.name}:{t}" for t in targets])


def check_probe_package(tmp_path, package: str, files: dict, targets_source: str, targets):
    """`compilelint check PACKAGE --probe --format json` on a package written from `files` (its
    `__init__.py` among them), with the factories `targets` of a `targets.py` beside it."""
    write_package(tmp_path, package, files)
    (tmp_path / "targets.py").write_text(targets_source)
    return _probe_check(tmp_path, package, [f"targets.py:{t}" for t in targets])


def _probe_check(tmp_path, checked: str, targets: list[str]) -> list[dict]:
    listed = ", ".join(f'"{t}"' for t in targets)
    (tmp_path / "pyproject.toml").write_text(f"[tool.compilelint.probe]\ntargets = [{listed}]\ntiming = false\n")
    out = subprocess.run([sys.executable, "-m", "compilelint", "check", checked, "--probe", "--format", "json"],
                         cwd=tmp_path, capture_output=True, text=True, timeout=300)
    assert out.returncode in (0, 1), out.stderr[-2000:]
    return json.loads(out.stdout)["findings"]


def write_package(root, name: str, files: dict):
    """A package `name` under `root` (an empty `__init__.py`, then each file's dedented source)
    and, when `root` has none, a `pyproject.toml` for compilelint's settings. Returns the package."""
    pkg = root / name
    pkg.mkdir()
    (pkg / "__init__.py").write_text("")
    for file, source in files.items():
        (pkg / file).write_text(textwrap.dedent(source))
    if not (root / "pyproject.toml").exists():
        (root / "pyproject.toml").write_text("[tool.compilelint]\n")
    return pkg


@contextlib.contextmanager
def imported(root, dotted: str):
    """The module `dotted` of a package written under `root`, imported for real, then forgotten."""
    sys.path.insert(0, str(root))
    try:
        yield importlib.import_module(dotted)
    finally:
        sys.path.remove(str(root))
        top = dotted.split(".", 1)[0]
        for name in [n for n in sys.modules if n == top or n.startswith(top + ".")]:
            sys.modules.pop(name)


def package_findings(root, name: str, files: dict) -> set[tuple[str, int]]:
    """(file name, line) of every finding `compilelint check` reports on package `name`, written
    under `root` from `files`."""
    write_package(root, name, files)
    out = subprocess.run([sys.executable, "-m", "compilelint", "check", name, "--output-format", "json",
                          "--no-cache"], cwd=root, capture_output=True, text=True)
    return {(f["path"].rsplit("/", 1)[-1], f["line"]) for f in json.loads(out.stdout)["findings"]}


def break_marks(files: dict) -> set[tuple[str, int]]:
    """(file name, line) of each line of `files` marked `# BREAK`."""
    return {(name, i) for name, text in files.items() for i, line in enumerate(text.splitlines(), 1)
            if "# BREAK" in line}


def library_findings(root, name: str, files: dict, init: str) -> list:
    """The findings of an in-process `check` of package `name` (a library: its `__init__.py`
    holds `init`, which re-exports), written under `root` from `files`."""
    pkg = write_package(root, name, files)
    (pkg / "__init__.py").write_text(init)
    return check([str(pkg)], config_mod.load(start=str(root))).findings


def break_line(source: str) -> int:
    """The line of `source` marked `# BREAK` (dedented as `write_package` writes it)."""
    return next(i for i, text in enumerate(source.splitlines(), 1) if "# BREAK" in text)
