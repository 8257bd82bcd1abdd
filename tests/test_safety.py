"""The static pass is safe on untrusted code (a pull request from a stranger): it never
imports, executes or evaluates what it reads, and never writes into the checked tree
except its cache folder.

Every file in the tree below writes a marker file, outside the tree, if it is imported,
if its module-level code runs, if a string in it is evaluated, or if it shadows a module
compilelint imports (`python -m` puts the working directory first on sys.path). The real
command line runs over it in every report format and mode; no marker may appear, and
nothing in the tree may change but `.compilelint_cache/`.
"""

import hashlib
import os
import shutil
import subprocess
import sys
import textwrap

import pytest

# Modules compilelint (or the libraries it uses) imports while checking, reporting,
# diffing; a file of that name in the checked tree must never be imported.
SHADOWED = ["click", "rich", "libcst", "pathspec", "json", "tempfile", "difflib", "hashlib", "tomllib",
            "marshal", "pickle", "fnmatch", "tokenize", "ast", "re", "typing", "dataclasses", "torch",
            "numpy", "sarif_om", "jsonschema", "compilelint_plugins", "yaml", "importlib_metadata"]
FORMATS = ["text", "concise", "json", "sarif", "github"]


def marker_code(markers, name):
    return f"open({str(markers / name)!r}, 'w').write('ran')\n"


@pytest.fixture
def hostile_tree(tmp_path):
    """(tree, markers): a project whose every way of being run leaves a marker."""
    tree, markers = tmp_path / "tree", tmp_path / "markers"
    tree.mkdir()
    markers.mkdir()

    def put(rel, source):
        path = tree / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(source, encoding="utf-8")

    mark = lambda name: marker_code(markers, name)  # noqa: E731
    put("pyproject.toml", textwrap.dedent("""\
        [tool.compilelint]
        select = ["CL"]

        [tool.compilelint.probe]
        targets = ["pkg/model.py:factory"]
        """))
    put("pkg/__init__.py", mark("package-init"))
    put("pkg/model.py", mark("module-level") + textwrap.dedent(f"""\
        import torch
        from torch import nn

        PAYLOAD = {marker_code(markers, 'exec-string')!r}


        def decorate(fn):
            {mark('decorator')}
            return fn


        def default(value={marker_code(markers, 'default-arg').strip()}):
            return value


        class Model(nn.Module):
            {mark('class-body')}

            @decorate
            def forward(self, x):
                exec(PAYLOAD)
                eval(compile(PAYLOAD, "<x>", "exec"))
                __import__("pkg.evil")
                if x.sum() > 0:
                    print(x.item())
                return x


        def factory():
            {mark('probe-factory')}
            return Model(), (torch.randn(2),)


        model = torch.compile(Model())
        model.load_state_dict(torch.load("ckpt.pt"))

        for epoch in range(3):
            default = torch.compile(default)
            default(epoch)

        if __name__ == "__main__":
            {mark('dunder-main')}
        """))
    put("pkg/evil.py", mark("imported-by-name"))
    for name in ("conftest", "setup", "sitecustomize", "usercustomize", "__main__", "noxfile"):
        put(f"{name}.py", mark(name))
    for name in SHADOWED:
        put(f"{name}.py", mark(f"shadow-{name}"))
    put("shadow_pkg/rich/__init__.py", mark("shadow-package-rich"))
    put(".gitignore", "ignored/\n")
    put("ignored/secret.py", mark("ignored"))
    return tree, markers


def snapshot(tree):
    """Every path under `tree` (the cache folder aside) with its type and content hash."""
    state = {}
    for folder, dirs, files in os.walk(tree):
        dirs[:] = [d for d in dirs if d != ".compilelint_cache"]
        for name in dirs + files:
            path = os.path.join(folder, name)
            rel = os.path.relpath(path, tree)
            if os.path.islink(path):
                state[rel] = ("link", os.readlink(path))
            elif os.path.isdir(path):
                state[rel] = ("dir", oct(os.stat(path).st_mode))
            else:
                with open(path, "rb") as handle:
                    state[rel] = ("file", oct(os.stat(path).st_mode), hashlib.sha256(handle.read()).hexdigest())
    return state


def test_check_never_runs_the_code_it_reads(cli, hostile_tree, tmp_path):
    tree, markers = hostile_tree
    before = snapshot(tree)
    runs = [["check", "--format", fmt, "."] for fmt in FORMATS]
    runs += [
        ["check", "--statistics", "."],
        ["check", "--no-cache", "-j", "1", "--format", "json", "."],
        ["check", "--diff", "."],
        ["check", "--format", "sarif", "-o", str(tmp_path / "out.sarif"), "."],
        ["check", "--write-baseline", str(tmp_path / "baseline.json"), "."],
        ["check", "--baseline", str(tmp_path / "baseline.json"), "."],
        ["check", "pkg/model.py", "pkg/__init__.py", "conftest.py"],
        ["rules"],
        ["rule", "CL101"],
    ]
    for args in runs:
        proc = cli(*args, cwd=tree)
        assert proc.returncode in (0, 1), (args, proc.stdout, proc.stderr)
        assert "Traceback" not in proc.stderr, (args, proc.stderr)
    json_run = cli("check", "--format", "json", ".", cwd=tree)
    assert "CL101" in json_run.stdout and "CL301" in json_run.stdout  # it did read model.py
    assert sorted(os.listdir(markers)) == []
    assert snapshot(tree) == before  # nothing written into the tree but the cache folder
    assert (tree / ".compilelint_cache").is_dir()


def test_console_script_never_runs_the_code_it_reads(hostile_tree):
    script = shutil.which("compilelint")
    if script is None:
        pytest.skip("the compilelint console script is not installed")
    tree, markers = hostile_tree
    before = snapshot(tree)
    for fmt in FORMATS:
        proc = subprocess.run([script, "check", "--format", fmt, "."], cwd=tree, capture_output=True,
                              text=True, timeout=120, env={**os.environ, "NO_COLOR": "1"})
        assert proc.returncode in (0, 1), proc.stderr
    assert sorted(os.listdir(markers)) == []
    assert snapshot(tree) == before


def test_fix_writes_only_the_files_it_fixes(cli, hostile_tree):
    tree, markers = hostile_tree
    before = snapshot(tree)
    proc = cli("check", "--fix", "--format", "concise", ".", cwd=tree)
    assert proc.returncode in (0, 1), proc.stderr
    after = snapshot(tree)
    changed = {rel for rel in set(before) | set(after) if before.get(rel) != after.get(rel)}
    assert changed == {os.path.join("pkg", "model.py")}
    assert sorted(os.listdir(markers)) == []


def test_a_planted_cache_entry_is_never_executed(cli, tmp_path):
    import pickle

    from compilelint import cache, config
    from compilelint.engine import module_name

    tree, markers = tmp_path / "tree", tmp_path / "markers"
    tree.mkdir()
    markers.mkdir()
    (tree / "victim.py").write_text("x = 1\n", encoding="utf-8")
    settings = config.load(None, start=str(tree))
    cwd = os.getcwd()
    os.chdir(tree)
    try:
        key = cache.entry_key((tree / "victim.py").read_bytes(), "victim.py", module_name("victim.py"))
    finally:
        os.chdir(cwd)

    class Payload:
        def __reduce__(self):
            return (exec, (marker_code(markers, "unpickled"),))

    body = b"p" + pickle.dumps(Payload())
    blob = cache.MAGIC + hashlib.blake2b(body, digest_size=8).digest() + body
    entry = tree / cache.FOLDER / cache.salt(settings) / key[:2] / key[2:]
    entry.parent.mkdir(parents=True)
    entry.write_bytes(blob)
    proc = cli("check", ".", cwd=tree)
    assert proc.returncode in (0, 1), proc.stderr
    assert sorted(os.listdir(markers)) == []
