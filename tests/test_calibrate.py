"""benchmarks/calibrate.py end to end on a generated mini package (transformers is not in CI).

The mini package's model breaks the graph at known lines, some only in one setting
(training, a padded mask); a second model fails to build. The script captures each
(model, setting) through the probe in a forked process, runs `compilelint check` on the
package and classifies. What the static pass finds may change as the linter improves,
so the test checks Dynamo's side against the labels and the script's accounting against
the findings it reports, plus the findings the linter has always made."""

import argparse
import importlib.util
import json
import subprocess
import sys
import textwrap
import zlib

import pytest

from conftest import REPO

pytest.importorskip("torch")

MODEL = textwrap.dedent('''\
    import torch
    from torch import nn


    class Gate(nn.Module):
        def __init__(self):
            super().__init__()
            self.proj = nn.Linear(8, 8)
            self.rare = False

        def forward(self, x, attention_mask=None):
            h = self.proj(x)
            if h.sum() > 0:  # BREAK eval train padded
                h = h * 2
            if self.training:
                n = h.norm().item()  # BREAK train
                h = h / (n + 1)
            if attention_mask is not None:
                h = h * attention_mask[..., None]
                if attention_mask.min() == 0:  # BREAK padded
                    h = h + 1
            if self.rare:
                print("never")  # NOT-RUN
            return h
''')

SUITE = textwrap.dedent('''\
    import os
    import sys

    NAME = "minipkg"
    HERE = os.path.dirname(os.path.abspath(__file__))


    def version():
        return "1.0"


    def package_dir():
        return os.path.join(HERE, "minipkg")


    def models():
        return ["broken", "gate"]


    def warm_up():
        import torch  # noqa: F401


    def build(model, setting, chosen):
        if HERE not in sys.path:
            sys.path.insert(0, HERE)
        import torch
        from minipkg.model import Gate

        if model == "broken":
            raise RuntimeError("cannot build this one")
        torch.manual_seed(0)
        kwargs = {"x": torch.randn(2, 4, 8)}
        if setting == "padded":
            mask = torch.ones(2, 4)
            mask[0, -1] = 0
            kwargs["attention_mask"] = mask
        return Gate().train(setting == "train"), (), kwargs, {"class": "Gate"}
''')


def _labels(source: str) -> dict[int, str]:
    return {i: line.split("# ", 1)[1] for i, line in enumerate(source.splitlines(), 1) if "# BREAK" in line
            or "# NOT-RUN" in line}


def _run(tmp_path, out, *extra):
    cmd = [sys.executable, str(REPO / "benchmarks" / "calibrate.py"), "--suite", str(tmp_path / "suite.py"),
           "--cache", str(tmp_path / "cache"), "--jobs", "1", "--timeout", "120", "--out", str(out), *extra]
    result = subprocess.run(cmd, capture_output=True, text=True, timeout=600, cwd=tmp_path)
    assert result.returncode == 0, result.stderr[-3000:]
    return result, json.loads(out.read_text())


def test_calibrate_end_to_end_on_a_mini_package(tmp_path):
    (tmp_path / "minipkg").mkdir()
    (tmp_path / "minipkg" / "__init__.py").write_text("")
    (tmp_path / "minipkg" / "model.py").write_text(MODEL)
    (tmp_path / "suite.py").write_text(SUITE)
    (tmp_path / "pyproject.toml").write_text("[tool.compilelint]\n")
    labels = _labels(MODEL)
    first, doc = _run(tmp_path, tmp_path / "before.json")

    assert doc["versions"]["minipkg"] == "1.0" and doc["versions"]["torch"]
    assert doc["models"]["capture"] == {"requested": 2, "cached": 0, "captured": 2, "not_started": 0}
    # the model that does not build is skipped in every setting, with its reason
    broken = doc["models"]["skipped"]["broken"]
    assert set(broken) == {"eval", "train", "padded"}
    assert "cannot build this one" in broken["eval"] and broken["train"].startswith("eval did not run")
    assert doc["models"]["runs_ok"] == {"eval": 1, "train": 1, "padded": 1}

    # Dynamo's side: a break at each labelled line, in exactly the settings it names
    seen: dict[int, set[str]] = {}
    for b in doc["breaks"]:
        assert b["path"] == "minipkg/model.py" and b["stack"], b
        seen.setdefault(b["line"], set()).update(run.split("[")[1].rstrip("]") for run in b["runs"])
    expected = {line: set(label.split()[1:]) for line, label in labels.items() if label.startswith("BREAK")}
    assert {line: seen.get(line, set()) for line in expected} == expected

    # the findings the linter has always made: the tensor branch (confirmed in every
    # setting) and the print it never reaches: behind `if self.rare:`, which every run's
    # model held False, so the run says why (probe.attr_facts), not only that it was not reached
    findings = {(f["line"], f["code"]): f for f in doc["findings"]}
    branch = next(line for line, label in labels.items() if label == "BREAK eval train padded")
    never = next(line for line, label in labels.items() if label == "NOT-RUN")
    assert findings[(branch, "CL102")]["verdict"] == "confirmed"
    assert set(findings[(branch, "CL102")]["runs"]["confirmed"]) == {"gate[eval]", "gate[train]", "gate[padded]"}
    assert findings[(never, "CL110")]["when"] == ["set:self.rare"]
    assert findings[(never, "CL110")]["verdict"] == "condition-not-met"
    # every verdict agrees with the labels: a finding on a breaking line is confirmed;
    # elsewhere it is not
    for (line, code), f in findings.items():
        assert (f["verdict"] == "confirmed") == (line in expected), f

    # the accounting: a break is found iff a finding spans its line; the rates follow
    for b in doc["breaks"]:
        spans = [f for f in doc["findings"] if f["line"] <= b["line"] <= (f["end_line"] or f["line"])]
        assert b["found"] == bool(spans), b
    overall = doc["summary"]["overall"]
    found = sum(b["found"] for b in doc["breaks"])
    assert overall["breaks"] == len(doc["breaks"]) == len(expected)
    assert overall["recall"] == round(found / len(doc["breaks"]), 4)
    confirmed = sum(f["verdict"] == "confirmed" for f in doc["findings"])
    judged = confirmed + sum(f["verdict"] == "not-reproduced" for f in doc["findings"])
    assert overall["precision"] == round(confirmed / judged, 4)
    assert f"recall {overall['recall']:.2f}" in first.stdout and "OVERALL" in first.stdout
    for line in expected:
        if not any(b["found"] for b in doc["breaks"] if b["line"] == line):
            assert f"minipkg/model.py:{line}" in first.stdout  # listed as missed

    # again: the captures come from the cache; an unknown model name is reported, not fatal
    # (and the static pass can come from another src/ folder: a worktree of an older commit)
    second, again = _run(tmp_path, tmp_path / "after.json", "--models", "gate,broken,nope",
                         "--linter-src", str(REPO / "src"))
    assert "unknown model 'nope'" in second.stderr
    assert again["versions"]["linter"]["compilelint_file"] == str(REPO / "src" / "compilelint" / "__init__.py")
    assert f"compilelint from {REPO / 'src'}" in second.stderr
    assert again["models"]["capture"] == {"requested": 2, "cached": 2, "captured": 0, "not_started": 0}
    assert again["summary"] == doc["summary"] and again["findings"] == doc["findings"]


def _calibrate_module():
    spec = importlib.util.spec_from_file_location("_calibrate_under_test", REPO / "benchmarks" / "calibrate.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def test_plan_puts_included_models_first_then_a_fixed_shuffle(tmp_path):
    cal = _calibrate_module()
    names = [f"m{i}" for i in range(12)]
    (tmp_path / "plan.json").write_text(json.dumps(names))
    ns = {"suite": "x", "models": None, "include": "m7,nope", "limit": 4}
    suite = type("S", (), {"NAME": "x"})
    got = cal.plan_models(argparse.Namespace(**ns), suite, tmp_path)
    rest = sorted((n for n in names if n != "m7"), key=lambda n: zlib.crc32(n.encode()))
    assert got == ["m7", *rest[:3]]
    assert cal.plan_models(argparse.Namespace(**{**ns, "limit": 0}), suite, tmp_path) == ["m7", *rest]


def test_shrink_config_keeps_per_stage_heads_divisible():
    """Swin's num_heads is a tuple per stage: the tiny width must stay divisible by each,
    and the rotary fitting must not divide by a tuple (the bug that skipped Swin and
    Grounding DINO)."""
    pytest.importorskip("transformers")
    from transformers import SwinConfig

    cal = _calibrate_module()
    cfg = SwinConfig()
    cal._shrink_config(cfg)
    dims = [cfg.embed_dim * 2 ** i for i in range(len(cfg.depths))]
    assert len(cfg.num_heads) == len(cfg.depths)
    assert all(d % h == 0 for d, h in zip(dims, cfg.num_heads))


@pytest.mark.parametrize("model_type, modality", [
    ("llava", "pixel_values"), ("qwen3_vl", "pixel_values"), ("audioflamingo3", "input_features")])
def test_multimodal_models_get_an_image_or_a_clip_and_its_tokens(model_type, modality):
    """The sweep builds a VLM with an image and as many image tokens as the vision tower
    makes features (LLaVA: counted by running the tower; Qwen-VL: a patch grid), an audio
    LLM with a clip and its audio tokens, so that path runs: the forward checks that tokens
    and features match."""
    pytest.importorskip("transformers")
    import torch

    cal = _calibrate_module()
    model, _, kwargs, info = cal.TransformersSuite.build(model_type, "eval", None)
    assert info["variant"] == "all" and modality in kwargs
    modalities = cal._modalities()
    token = modalities.image_token(model.config) if modality == "pixel_values" else modalities.audio_token(model.config)
    assert int((kwargs["input_ids"] == token).sum()) > 0
    with torch.no_grad():
        model(**kwargs)
