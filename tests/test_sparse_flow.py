"""CL153 against Dynamo, mode by mode: where a frame holding a sparse tensor first uses it.
Each test checks a module statically, runs it under Dynamo (backend="eager") in the mode
the findings' `when` labels name, and asserts the lines agree: a callee that only returns
what it is given in eval (`if not self.training: return x`) makes the call break only in
training; an attribute built sparse under `if self.sparse_feature:` breaks only when the
flag is set."""

import pytest
import torch

from compilelint.probe.observe import observe
from helpers import imported, write_package

GRAPH = '''
import torch
import torch.nn as nn


class EdgeDropout(nn.Module):
    def __init__(self, p=0.3):
        super().__init__()
        self.keep = 1 - p

    def forward(self, x):
        if not self.training:
            return x
        return x.coalesce() * (1.0 / self.keep)


class Encoder(nn.Module):
    def __init__(self, n, dim):
        super().__init__()
        self.drop = EdgeDropout()
        self.weight = nn.Parameter(torch.randn(n, dim))

    def forward(self, feats):
        scale = self.weight.norm()
        feats = self.drop(feats)
        return torch.sparse.mm(feats, self.weight) / scale


class Recommender(nn.Module):
    def __init__(self, n=6, dim=4, sparse_feature=True):
        super().__init__()
        self.encoder = Encoder(n, dim)
        self.sparse_feature = sparse_feature
        if self.sparse_feature:
            index = torch.arange(n).repeat(2, 1)
            self.features = torch.sparse_coo_tensor(index, torch.ones(n), (n, n))
        else:
            self.features = torch.eye(n)

    def forward(self, users):
        emb = self.encoder(self.features)
        return emb[users]
'''


def _static(tmp_path):
    from compilelint import config as config_mod
    from compilelint.engine import check

    pkg = write_package(tmp_path, "recsys", {"model.py": GRAPH})
    settings = config_mod.load(start=str(tmp_path), select=["CL153", "CL119"])
    return pkg, check([str(pkg)], settings).findings


def _holds(when, training, flag):
    for label in when:
        if label == "training" and not training or label == "eval" and training:
            return False
        if label == "set:self.sparse_feature" and not flag:
            return False
    return True


def _dynamo_lines(tmp_path, training, flag):
    with imported(tmp_path, "recsys.model") as mod:
        model = mod.Recommender(sparse_feature=flag).train(training)
        obs = observe(model, [((torch.tensor([0, 2]),), {})], backend="eager", recapture=False)
        return {b.line for b in obs.capture.breaks if (b.file or "").endswith("model.py")}


@pytest.mark.parametrize("training", [True, False], ids=["train", "eval"])
def test_each_mode_breaks_where_the_findings_that_hold_in_it_say(tmp_path, training):
    _, findings = _static(tmp_path)
    static = {f.line for f in findings if _holds(f.when, training, True)}
    assert static == _dynamo_lines(tmp_path, training, True)


def test_an_attribute_built_sparse_under_a_flag_breaks_only_with_the_flag(tmp_path):
    _, findings = _static(tmp_path)
    use = next(f for f in findings if f.line == 41)
    assert use.code == "CL153" and use.when == ("set:self.sparse_feature",)
    assert 41 in _dynamo_lines(tmp_path, False, True)
    # built dense: the model's forward hands a plain tensor on (the encoder's own frame, which
    # takes any tensor it is given as sparse, is not judged by the flag: a limit of the rule)
    assert 41 not in _dynamo_lines(tmp_path, False, False)


def test_the_labels_say_what_decides(tmp_path):
    _, findings = _static(tmp_path)
    by_line = {f.line: (f.code, f.when) for f in findings}
    # the dropout's `return x` (its own frame, eval), its `coalesce()` (training)
    assert by_line[13] == ("CL153", ("eval",))
    assert by_line[14] == ("CL153", ("training",))
    # the encoder hands the sparse features to the dropout, which looks at them in training;
    # in eval the sparse product after it is the frame's first use
    assert by_line[25] == ("CL153", ("training",))
    assert by_line[26] == ("CL119", ("eval",))


# Across files: the sparse matrices come from a module of the package that builds them (ptwt's
# `construct_strided_conv_matrix`, torch-harmonics' `_get_psi`); the file that uses them names no
# sparse builder at all.
MATRICES = '''
import torch


def band(n, shift):
    rows = torch.arange(n)
    index = torch.stack([rows, (rows + shift) % n])
    return torch.sparse_coo_tensor(index, torch.ones(n), (n, n)).coalesce()


def both(n):
    return torch.cat([band(n, 0), band(n, 1)])


def dense_band(n):
    return torch.eye(n)
'''

TRANSFORMS = '''
import torch.nn as nn

from .matrices import band, both, dense_band


class Analysis(nn.Module):
    def forward(self, x):
        lo = band(x.shape[0], 0)
        hi = band(x.shape[0], 1)  # BREAK: lo is held across a call that breaks
        return lo @ x + hi @ x


class Kept(nn.Module):
    def __init__(self, n=4):
        super().__init__()
        self.psi = band(n, 0)
        self.eye = dense_band(n)

    def forward(self, x):
        y = self.eye @ x
        return self.psi.to(x.device) @ y  # BREAK: the sparse attribute, first read


class Stacked(nn.Module):
    def forward(self, x):
        both_bands = both(x.shape[0])
        scale = 0.5
        return x * scale, both_bands  # BREAK: the tuple hands out the sparse join


class Dense(nn.Module):
    def forward(self, x, adj):
        eye = dense_band(x.shape[0])
        if adj.is_sparse:
            adj = band(x.shape[0], 1)  # (a sparse input only: the caller's to say)
        return eye @ x + adj @ x
'''


def _cross_file(tmp_path):
    from compilelint import config as config_mod
    from compilelint.engine import check

    write_package(tmp_path, "wavelets", {"matrices.py": MATRICES, "transforms.py": TRANSFORMS})
    settings = config_mod.load(start=str(tmp_path), select=["CL153"])
    found = check([str(tmp_path / "wavelets")], settings).findings
    return sorted(f.line for f in found if f.path.endswith("transforms.py"))


def test_sparse_values_returned_by_another_module_of_the_package_break_where_dynamo_says(tmp_path):
    static = _cross_file(tmp_path)
    assert static == [i for i, text in enumerate(TRANSFORMS.splitlines(), 1) if "# BREAK" in text]
    lines = set()
    with imported(tmp_path, "wavelets.transforms") as mod:
        x = torch.randn(4, 3)
        for model, args in ((mod.Analysis(), (x,)), (mod.Kept(), (x,)), (mod.Stacked(), (x,)),
                            (mod.Dense(), (x, torch.eye(4)))):
            obs = observe(model, [(args, {})], backend="eager", recapture=False)
            lines |= {b.line for b in obs.capture.breaks if (b.file or "").endswith("transforms.py")}
    assert lines == set(static)


def test_the_cache_follows_the_module_that_builds_the_sparse_tensors(tmp_path):
    # transforms.py's findings depend on matrices.py: a cached analysis must not outlive an edit
    # there (cache.entry_key hashes sparse_sources.sparse_on)
    import json
    import subprocess
    import sys

    write_package(tmp_path, "wavelets", {"matrices.py": MATRICES, "transforms.py": TRANSFORMS})

    def lines():
        out = subprocess.run([sys.executable, "-m", "compilelint", "check", "wavelets", "--select", "CL153",
                              "--output-format", "json"], cwd=tmp_path, capture_output=True, text=True)
        return sorted(f["line"] for f in json.loads(out.stdout)["findings"] if f["path"].endswith("transforms.py"))

    before = lines()
    assert len(before) == 3
    source = (tmp_path / "wavelets" / "matrices.py").read_text()
    (tmp_path / "wavelets" / "matrices.py").write_text(
        source.replace("torch.sparse_coo_tensor(index, torch.ones(n), (n, n)).coalesce()", "torch.eye(n)[index[0]]"))
    assert lines() == []
