"""Bad input gets a clear diagnostic (CL000 on that file) and the run goes on: every test
puts one hostile file next to a good one and runs the real command line over both.

Exit status 1 (findings), never 2 (internal error), no traceback, the good file's finding
still reported.
"""

import ctypes
import json
import os
import subprocess
import sys
import time

import pytest

from compilelint import limits

GOOD = """\
import torch
from torch import nn


class Model(nn.Module):
    def forward(self, x):
        if x.sum() > 0:
            return x
        return -x
"""
GOOD_LINE = 7  # the CL102 in GOOD


def findings_of(proc):
    assert proc.returncode in (0, 1), f"exit {proc.returncode}\n{proc.stdout}\n{proc.stderr}"
    assert "Traceback" not in proc.stderr, proc.stderr
    return json.loads(proc.stdout)["findings"]


def check(cli, folder, *args, timeout=120):
    return findings_of(cli("check", "--format", "json", *args, ".", cwd=folder, timeout=timeout))


def by_path(findings, name):
    return [f for f in findings if os.path.basename(f["path"]) == name]


@pytest.fixture
def project(tmp_path):
    (tmp_path / "good.py").write_text(GOOD, encoding="utf-8")
    return tmp_path


def assert_good_still_checked(findings):
    good = by_path(findings, "good.py")
    assert [(f["code"], f["line"]) for f in good] == [("CL102", GOOD_LINE)], good


def assert_one_cl000(findings, name, *fragments):
    hits = by_path(findings, name)
    assert len(hits) == 1, hits
    assert hits[0]["code"] == "CL000", hits
    for fragment in fragments:
        assert fragment in hits[0]["message"], hits[0]["message"]
    return hits[0]


# ---- nesting thousands deep ----------------------------------------------------------

DEEP = {
    "parens": lambda n: "x = " + "(" * n + "1" + ")" * n,
    "brackets": lambda n: "x = " + "[" * n + "]" * n,
    "calls": lambda n: "x = " + "f(" * n + "1" + ")" * n,
    "and-chain": lambda n: "x = " + " and ".join(["a"] * n),
    "subscripts": lambda n: "x = a" + "[0]" * n,
    "attributes": lambda n: "x = a" + ".b" * n,
    "unary": lambda n: "x = " + "-" * n + "1",
    "lambdas": lambda n: "x = " + "lambda: " * n + "1",
    "ternaries": lambda n: "x = " + "a if b else " * n + "c",
    "elif-chain": lambda n: "if a:\n    pass\n" + "elif a:\n    pass\n" * n,
    "continued-lines": lambda n: "x = (1\n" + "".join("    + 1\n" for _ in range(n)) + ")",
}


@pytest.mark.parametrize("kind", sorted(DEEP))
def test_nesting_thousands_deep_is_a_diagnostic_not_a_crash(cli, project, kind):
    # libcst's parser overflowed the C stack (a segfault) on ~1000 brackets and on a
    # 30,000-term `and` chain, and took minutes over 2,000-deep subscript chains.
    n = 30_000 if kind == "and-chain" else 5_000
    (project / "deep.py").write_text(DEEP[kind](n) + "\n", encoding="utf-8")
    started = time.monotonic()
    findings = check(cli, project)
    assert time.monotonic() - started < 60
    assert_one_cl000(findings, "deep.py", "nesting too deep")
    assert_good_still_checked(findings)


@pytest.mark.parametrize("kind", ["and-chain", "subscripts", "ternaries", "elif-chain", "unary"])
def test_deep_but_sane_code_is_analysed_in_full(cli, project, kind):
    # 300 levels: far beyond real code, well within what is analysed (no CL000, no CL001)
    body = "\n".join("        " + line for line in DEEP[kind](300).replace("x = ", "y = ").splitlines())
    source = GOOD.replace("        if x.sum() > 0:", body + "\n        if x.sum() > 0:")
    (project / "good.py").write_text(source, encoding="utf-8")
    findings = check(cli, project)
    line = source.splitlines().index("        if x.sum() > 0:") + 1
    assert [(f["code"], f["line"]) for f in findings] == [("CL102", line)]



CYCLE = """\
import torch


@torch.compile
def take(noise, numel, stride):
    position: int = 0

    def block():
        nonlocal position
        beg: int = position
        end: int = position + numel // stride
        position = end
        return noise[..., beg:end, :]

    return block() + block()
"""


def test_names_bound_to_each_other_in_a_cycle(cli, project):
    # pyro's ops/gaussian.py: `end = position + ...` then `position = end`; following each name
    # to what it is bound to went round for ever (CL107 crashed with RecursionError)
    (project / "cycle.py").write_text(CYCLE, encoding="utf-8")
    findings = check(cli, project)
    assert by_path(findings, "cycle.py") == []  # Python ints: no break, and no CL001
    assert_good_still_checked(findings)

TIED = """\
import torch
import torch.nn as nn


class Quant(nn.Module):
    def forward(self, x):
        return x.round()


class QuantMixin:
    def __init__(self, name, quant):
        setattr(self, name, quant)


class Layer(nn.Module, QuantMixin):
    def __init__(self, tie=False):
        nn.Module.__init__(self)
        QuantMixin.__init__(self, "input_quant", Quant())
        QuantMixin.__init__(self, "output_quant", Quant())
        if tie:
            self.output_quant = self.input_quant
            self.input_quant = self.output_quant
        self.lin = nn.Linear(2, 2)

    def forward(self, x):
        x = self.input_quant(x)
        return self.output_quant(self.lin(x))


model = torch.compile(Layer())
"""


def test_attributes_set_to_each_other(cli, project):
    # brevitas' QuantInputOutputLayer ties its quantisers, `self.output_quant = self.input_quant`
    # then `self.input_quant = self.output_quant`: following what `self.input_quant(x)` runs
    # went round for ever (the project phase crashed with RecursionError)
    (project / "tied.py").write_text(TIED, encoding="utf-8")
    findings = check(cli, project)
    assert by_path(findings, "tied.py") == []  # rounding and a linear layer: one graph, and no CL001
    assert_good_still_checked(findings)


def test_fifty_thousand_line_file_finishes(cli, project):
    lines = [f"value_{i} = {i} * 2  # line {i}" for i in range(50_000)]
    source = "\n".join(lines) + "\n\n\n" + GOOD.split("\n", 3)[3]  # the class, after 50k lines
    source = "import torch\nfrom torch import nn\n" + source
    (project / "huge.py").write_text(source, encoding="utf-8")
    expected = source.splitlines().index("        if x.sum() > 0:") + 1
    assert expected > 50_000
    started = time.monotonic()
    findings = check(cli, project, timeout=300)
    assert time.monotonic() - started < 240
    assert [(f["code"], f["line"]) for f in by_path(findings, "huge.py")] == [("CL102", expected)]
    assert_good_still_checked(findings)


def test_file_over_the_size_limit_is_a_diagnostic(cli, project):
    with open(project / "data.py", "w", encoding="utf-8") as handle:
        row = "    " + ", ".join(["0.125"] * 16) + ",\n"
        handle.write("TABLE = [\n")
        while handle.tell() <= limits.MAX_BYTES:
            handle.write(row * 1000)
        handle.write("]\n")
    findings = check(cli, project)
    assert_one_cl000(findings, "data.py", "too large", "MiB")
    assert_good_still_checked(findings)


# ---- line ends, byte order marks, indentation, encodings --------------------------------

def test_crlf_line_ends(cli, project):
    (project / "good.py").write_bytes(GOOD.replace("\n", "\r\n").encode())
    findings = check(cli, project)
    assert [(f["code"], f["line"], f["col"]) for f in findings] == [("CL102", GOOD_LINE, 12)]


def test_lone_cr_line_ends(cli, project):
    (project / "good.py").write_bytes(GOOD.replace("\n", "\r").encode())
    findings = check(cli, project)
    assert [(f["code"], f["line"]) for f in findings] == [("CL102", GOOD_LINE)]


def test_utf8_byte_order_mark(cli, project):
    (project / "good.py").write_bytes(b"\xef\xbb\xbf" + GOOD.encode())
    findings = check(cli, project)
    assert [(f["code"], f["line"], f["col"]) for f in findings] == [("CL102", GOOD_LINE, 12)]


def test_tab_indentation(cli, project):
    (project / "good.py").write_text(GOOD.replace("    ", "\t"), encoding="utf-8")
    findings = check(cli, project)
    assert [(f["code"], f["line"]) for f in findings] == [("CL102", GOOD_LINE)]


def test_inconsistent_tabs_and_spaces_is_a_diagnostic(cli, project):
    (project / "mixed.py").write_text("def f():\n\tif x:\n        return 1\n", encoding="utf-8")
    findings = check(cli, project)
    assert_one_cl000(findings, "mixed.py", "syntax error", "tabs and spaces")
    assert_good_still_checked(findings)


def test_declared_latin1_encoding(cli, project):
    source = "# -*- coding: latin-1 -*-\n" + GOOD.replace("import torch\n", "import torch\nNAME = 'café'\n", 1)
    (project / "good.py").write_bytes(source.encode("latin-1"))
    findings = check(cli, project)
    assert [(f["code"], f["line"]) for f in findings] == [("CL102", GOOD_LINE + 2)]


def test_undeclared_non_utf8_bytes(cli, project):
    (project / "legacy.py").write_bytes(b"import os\n\nNAME = 'caf\xe9'\n")
    findings = check(cli, project)
    assert_one_cl000(findings, "legacy.py", "not valid UTF-8", "0xE9", "line 3", "coding")
    assert_good_still_checked(findings)


def test_utf16_file(cli, project):
    (project / "wide.py").write_bytes("x = 1\n".encode("utf-16"))
    findings = check(cli, project)
    assert_one_cl000(findings, "wide.py", "UTF-16")
    assert_good_still_checked(findings)


def test_unknown_declared_encoding(cli, project):
    (project / "odd.py").write_bytes(b"# -*- coding: klingon -*-\nx = 1\n")
    findings = check(cli, project)
    assert_one_cl000(findings, "odd.py", "klingon")
    assert_good_still_checked(findings)


# ---- not Python 3, not text, nothing at all ----------------------------------------------

def test_python2_file(cli, project):
    (project / "old.py").write_text(
        "import sys\n\ntry:\n    pass\nexcept Exception, e:\n    print \"failed\", e\n", encoding="utf-8")
    findings = check(cli, project)
    hit = assert_one_cl000(findings, "old.py", "syntax error", "Python 2")
    # `except Exception, e:` parses (Python 3.14 allows `except A, B:`); the print does not
    assert hit["line"] == 6
    assert_good_still_checked(findings)


def test_python2_print_statement_position(cli, project):
    (project / "old.py").write_text('x = 1\nprint "hello"\n', encoding="utf-8")
    findings = check(cli, project)
    hit = assert_one_cl000(findings, "old.py", "Python 2")
    assert hit["line"] == 2


@pytest.mark.parametrize("content", ["", "\n\n\n", "# only a comment\n", "   ", "\ufeff"])
def test_empty_files(cli, tmp_path, content):
    (tmp_path / "empty.py").write_text(content, encoding="utf-8")
    proc = cli("check", "--format", "json", ".", cwd=tmp_path)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert json.loads(proc.stdout)["findings"] == []


def test_binary_file_named_py(cli, project):
    (project / "blob.py").write_bytes(bytes(range(256)) * 64)
    (project / "late_nul.py").write_bytes(b"x = 1\n" * 3000 + b"\x00\n")
    findings = check(cli, project)
    assert_one_cl000(findings, "blob.py", "binary")
    assert_one_cl000(findings, "late_nul.py", "binary", "line 3001")
    assert_good_still_checked(findings)


# ---- links and permissions ---------------------------------------------------------------

def test_symlink_loops(cli, project):
    os.symlink("ping.py", project / "pong.py")
    os.symlink("pong.py", project / "ping.py")
    (project / "pkg").mkdir()
    os.symlink("..", project / "pkg" / "up")  # a folder loop: never followed
    os.symlink(project, project / "pkg" / "again")
    findings = check(cli, project, timeout=60)
    assert_one_cl000(findings, "ping.py", "symbolic link loop")
    assert_one_cl000(findings, "pong.py", "symbolic link loop")
    assert_good_still_checked(findings)  # once: the loops were not walked into
    assert len(findings) == 3


def test_dangling_symlink(cli, project):
    os.symlink("missing.py", project / "gone.py")
    findings = check(cli, project)
    assert_one_cl000(findings, "gone.py", "dangling")
    assert_good_still_checked(findings)


def _without_dac_override():
    """In the child, before exec: drop the capabilities that let root read anything
    (CAP_DAC_OVERRIDE, CAP_DAC_READ_SEARCH) from the bounding set, so that the exec'd
    process (still uid 0) is refused by permission bits like anyone else."""
    libc = ctypes.CDLL(None, use_errno=True)
    for capability in (1, 2):
        if libc.prctl(24, capability, 0, 0, 0) != 0:  # PR_CAPBSET_DROP
            raise OSError(ctypes.get_errno(), "prctl(PR_CAPBSET_DROP)")


def run_cli_unprivileged(*args, cwd):
    env = dict(os.environ, NO_COLOR="1")
    env.pop("FORCE_COLOR", None)
    preexec = _without_dac_override if os.geteuid() == 0 else None
    try:
        return subprocess.run([sys.executable, "-m", "compilelint", *args], cwd=cwd, env=env,
                              capture_output=True, text=True, timeout=120, preexec_fn=preexec)
    except subprocess.SubprocessError as exc:
        if os.geteuid() == 0:
            pytest.skip(f"running as root and cannot drop CAP_DAC_OVERRIDE here ({exc})")
        raise


def _unreadable(path):
    """Whether this process's children (run as above) really cannot read `path`."""
    probe = subprocess.run([sys.executable, "-c", f"import os; os.listdir({str(path)!r})"
                            if path.is_dir() else f"open({str(path)!r}).read()"],
                           capture_output=True,
                           preexec_fn=_without_dac_override if os.geteuid() == 0 else None)
    return probe.returncode != 0


@pytest.fixture
def locked(project):
    folders = []

    def lock(path):
        os.chmod(path, 0)
        folders.append(path)
        if not _unreadable(path):
            pytest.skip("permission bits are not enforced here (root without a way to drop its overrides)")

    yield lock
    for path in folders:
        os.chmod(path, 0o755)


def test_unreadable_folder(project, locked):
    secret = project / "secret"
    secret.mkdir()
    (secret / "hidden.py").write_text(GOOD, encoding="utf-8")
    locked(secret)
    findings = findings_of(run_cli_unprivileged("check", "--format", "json", ".", cwd=project))
    hits = [f for f in findings if f["path"].rstrip("/").endswith("secret")]
    assert len(hits) == 1 and hits[0]["code"] == "CL000", findings
    assert "cannot read folder" in hits[0]["message"] and "ermission denied" in hits[0]["message"]
    assert_good_still_checked(findings)


def test_unreadable_file(project, locked):
    (project / "private.py").write_text(GOOD, encoding="utf-8")
    locked(project / "private.py")
    findings = findings_of(run_cli_unprivileged("check", "--format", "json", ".", cwd=project))
    assert_one_cl000(findings, "private.py", "permission denied")
    assert_good_still_checked(findings)


# ---- all of it at once -------------------------------------------------------------------

def test_every_hostile_input_in_one_run(cli, project):
    (project / "deep.py").write_text(DEEP["parens"](3000) + "\n", encoding="utf-8")
    (project / "chain.py").write_text(DEEP["and-chain"](30_000) + "\n", encoding="utf-8")
    (project / "legacy.py").write_bytes(b"NAME = 'caf\xe9'\n")
    (project / "old.py").write_text('print "hello"\n', encoding="utf-8")
    (project / "blob.py").write_bytes(b"\x7fELF\x02\x01\x01\x00" + bytes(200))
    (project / "empty.py").write_bytes(b"")
    (project / "crlf.py").write_bytes(GOOD.replace("\n", "\r\n").encode())
    os.symlink("loop_b.py", project / "loop_a.py")
    os.symlink("loop_a.py", project / "loop_b.py")
    os.symlink("nowhere.py", project / "dangling.py")
    proc = cli("check", "--format", "json", ".", cwd=project, timeout=180)
    assert proc.returncode == 1, proc.stderr
    findings = findings_of(proc)
    for name in ("deep.py", "chain.py", "legacy.py", "old.py", "blob.py", "loop_a.py", "loop_b.py",
                 "dangling.py"):
        assert_one_cl000(findings, name)
    assert by_path(findings, "empty.py") == []
    assert [(f["code"], f["line"]) for f in by_path(findings, "crlf.py")] == [("CL102", GOOD_LINE)]
    assert_good_still_checked(findings)
    assert not [f for f in findings if f["code"] == "CL001"]


# ---- odd trees: names that are not UTF-8, folders nested past Python's recursion limit ----

@pytest.mark.parametrize("fmt", ["concise", "text", "json", "github"])
def test_file_names_that_are_not_utf8(cli, project, fmt):
    os.makedirs(os.path.join(os.fsencode(project), b"pkg"))
    with open(os.path.join(os.fsencode(project), b"pkg", b"caf\xe9.py"), "wb") as handle:
        handle.write(GOOD.encode())
    with open(os.path.join(os.fsencode(project), b"new\nline.py"), "wb") as handle:
        handle.write(b"x = (\n")
    # a strict UTF-8 stdout, as under a en_US.UTF-8 locale, macOS or Windows
    proc = cli("check", "--format", fmt, ".", cwd=project, env={"PYTHONIOENCODING": "utf-8:strict"})
    assert proc.returncode == 1, proc.stderr
    assert "Traceback" not in proc.stderr
    assert "caf\\udce9.py" in proc.stdout
    assert "good.py" in proc.stdout


def test_file_names_that_are_not_utf8_in_sarif(cli, project):
    with open(os.path.join(os.fsencode(project), b"caf\xe9.py"), "wb") as handle:
        handle.write(GOOD.encode())
    proc = cli("check", "--format", "sarif", ".", cwd=project)
    assert proc.returncode == 1 and "Traceback" not in proc.stderr
    uris = {r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"]
            for r in json.loads(proc.stdout)["runs"][0]["results"]}
    assert "caf%E9.py" in uris  # the raw byte, percent-encoded


def _nest(base, name, levels, package=False):
    """`levels` folders, one in the other (made without recursion)."""
    path = os.fspath(base)
    os.makedirs(path, exist_ok=True)
    for _ in range(levels):
        path = os.path.join(path, name)
        os.mkdir(path)
        if package:
            open(os.path.join(path, "__init__.py"), "w").close()
    return path


def _unnest(top):
    """Remove what `_nest` made, deepest first (shutil.rmtree recurses: pytest's clean-up
    of old temporary folders would hit the recursion limit on it)."""
    from compilelint.discovery import _walk  # top-down and without recursion

    folders = []
    for folder, _dirs, files in _walk(top, onerror=lambda exc: None):
        folders.append(folder)
        for name in files:
            os.unlink(os.path.join(folder, name))
    for folder in reversed(folders):
        os.rmdir(folder)


@pytest.fixture
def nested(project):
    yield
    for top in ("deep", "pkgs"):
        if (project / top).exists():
            _unnest(os.fspath(project / top))


def test_folders_nested_past_the_recursion_limit(cli, project, nested):
    # os.walk in Python 3.11 recurses once per level: RecursionError stopped the run
    inner = _nest(project / "deep", "d", 1500)
    with open(os.path.join(inner, "bottom.py"), "w", encoding="utf-8") as handle:
        handle.write(GOOD)
    inner = _nest(project / "pkgs", "p", 1200, package=True)  # module names 1,200 parts long
    with open(os.path.join(inner, "model.py"), "w", encoding="utf-8") as handle:
        handle.write(GOOD)
    findings = check(cli, project)
    assert [(f["code"], f["line"]) for f in by_path(findings, "bottom.py")] == [("CL102", GOOD_LINE)]
    assert [(f["code"], f["line"]) for f in by_path(findings, "model.py")] == [("CL102", GOOD_LINE)]
    assert_good_still_checked(findings)
