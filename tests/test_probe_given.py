"""Conditional findings against what a probe run passed and built: a finding that holds
only when the caller passes an argument (`given:`, probe.entry_args) or only when an
attribute was built as a tensor (`isinstance:self.X`, probe.attr_facts) is
`condition-not-met` on a target that did not, and confirmed by Dynamo on one that did.
Real static pass, real probe runs, through the CLI as a user runs `check --probe`."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from helpers import check_probe as probe_check
from helpers import check_probe_package

pytest.importorskip("torch")

from compilelint.probe.attr_facts import attribute_facts, attribute_met  # noqa: E402
from compilelint.probe.entry_args import entry_arguments, given_met  # noqa: E402

FIXTURE = Path(__file__).resolve().parents[1] / "fixtures" / "probe" / "given_targets.py"


def check_probe(tmp_path: Path, targets: list[str], codes=("CL150", "CL102")) -> list[dict]:
    return [f for f in probe_check(tmp_path, FIXTURE, targets) if f["code"] in codes]


def test_unpassed_argument_leaves_the_finding_unjudged(tmp_path):
    found = [f for f in check_probe(tmp_path, ["plain", "wrapped"]) if f["scope"] == "Looped.forward"]
    assert {f["code"] for f in found} == {"CL150", "CL102"}
    for f in found:
        assert f["when"] == ["given:early_exit"]
        assert f["evidence"]["status"] == "condition-not-met", f["evidence"]
        assert "passes `early_exit`" in f["evidence"]["note"]


def test_a_target_that_passes_it_confirms_the_finding(tmp_path):
    found = [f for f in check_probe(tmp_path, ["plain", "exits"]) if f["scope"] == "Looped.forward"]
    assert found and all(f["evidence"]["status"] == "confirmed" for f in found), found


def test_a_loop_in_a_called_module_is_judged_by_what_that_module_was_passed(tmp_path):
    # the break under `if perturb:` sits in a module the run called from inside another: the
    # eager pass saw what that module's forward was passed (probe.call_args), never `perturb`
    (loop,) = [f for f in check_probe(tmp_path, ["encoded"], codes=("CL150",)) if f["scope"] == "Perturbed.forward"]
    assert loop["when"] == ["given:perturb"]
    assert loop["evidence"]["status"] == "condition-not-met", loop["evidence"]
    assert loop["evidence"]["unmet"] == ["given:perturb"]


def test_a_loop_whose_body_did_not_run_is_not_judged(tmp_path):
    # a float input empties the loop's tuple: the `for` line ran, the `.item()` inside did not
    found = {f["code"]: f for f in check_probe(tmp_path, ["checked"], codes=("CL150", "CL103"))
             if f["scope"] == "Checked.forward"}
    assert set(found) == {"CL150", "CL103"}
    assert found["CL103"]["evidence"]["status"] == "not-reached"
    assert found["CL150"]["evidence"]["status"] == "not-reached", found["CL150"]["evidence"]
    assert "did not" in found["CL150"]["evidence"]["note"]


def test_entry_arguments_bind_the_real_calls():
    import torch

    sys.path.insert(0, str(FIXTURE.parent))
    import given_targets

    model, args = given_targets.plain()
    entry = entry_arguments(model, [(args, {}), (args, {"early_exit": 0})])
    assert entry["qualname"] == "Looped.forward" and entry["file"] == str(FIXTURE)
    assert entry["params"]["early_exit"] == ["passed", "not_none"]  # passed, not None, but falsy
    assert given_met("given:early_exit", entry["params"]) is False
    assert given_met("given:early_exit!=None", entry["params"]) is True
    assert given_met("given:self.norm|early_exit", entry["params"]) is None
    # `~None` (semantic.defaulted): left None is met; a value passed may or may not be a tensor
    assert given_met("given:early_exit~None", entry["params"]) is None
    assert given_met("given:early_exit~None", {"early_exit": []}) is True
    assert given_met("given:early_exit~None", {"early_exit": ["passed"]}) is True  # passed None
    wrapped, args = given_targets.wrapped()
    assert entry_arguments(wrapped, [(args, {"early_exit": True})])["params"]["early_exit"] == \
        ["passed", "not_none", "truthy"]
    assert entry_arguments(torch.nn.Linear(2, 2), [((1, 2, 3), {})]) is None  # cannot bind: no facts

    class Loud:
        def __bool__(self):
            raise AssertionError("the probe must not run the user's __bool__")

    facts = entry_arguments(model, [(args, {"early_exit": Loud()}), (args, {"early_exit": torch.zeros(1)})])
    # given, never evaluated (and the tensor needs no grad, and is another object than `x`)
    assert facts["params"]["early_exit"] == ["passed", "not_none", "truthy", "nograd", "other:x"]


def labelled_finding(tmp_path: Path, targets: list[str], code: str, scope: str, when: list[str]) -> dict:
    """The one `code` finding in `scope`, after the runs of `targets`; its label must be `when`."""
    (found,) = [f for f in check_probe(tmp_path, targets, codes=(code,)) if f["scope"] == scope]
    assert found["when"] == when, found
    return found


def crop_finding(tmp_path: Path, targets: list[str]) -> dict:
    found = labelled_finding(tmp_path, targets, "CL102", "Crop.forward", ["isinstance:self.ratio"])
    assert "`self.ratio` is a tensor" in found["message"]
    return found


def test_an_attribute_built_otherwise_leaves_the_finding_unjudged(tmp_path):
    found = crop_finding(tmp_path, ["crop_tuple"])
    assert found["evidence"]["status"] == "condition-not-met", found["evidence"]


def test_an_attribute_built_as_a_tensor_confirms_it(tmp_path):
    found = crop_finding(tmp_path, ["crop_tuple", "crop_tensor"])
    assert found["evidence"]["status"] == "confirmed", found["evidence"]


def test_attribute_facts_follow_the_class_lineage():
    sys.path.insert(0, str(FIXTURE.parent))
    import given_targets

    model, _ = given_targets.crop_tuple()
    facts = attribute_facts(given_targets.PassThrough(model))
    crop = facts[f"{FIXTURE}:Crop"]
    assert crop["ratio"] == ["truthy"] and crop["training"] == ["truthy"]
    assert facts[f"{FIXTURE}:PassThrough"]["net"] == ["truthy"]  # a submodule is set
    assert attribute_met("isinstance:self.ratio", crop) is False
    assert attribute_met("given:self.ratio", crop) is True
    assert attribute_met("given:self.missing", crop) is None  # the run does not say
    assert attribute_met("training", crop) is None


def adapter_finding(tmp_path: Path, targets: list[str]) -> dict:
    return labelled_finding(tmp_path, targets, "CL132", "Adapted.forward", ["set:self.adapters"])


def test_a_loop_over_a_container_built_empty_leaves_its_finding_unjudged(tmp_path):
    found = adapter_finding(tmp_path, ["adapted_none"])
    assert found["evidence"]["status"] == "condition-not-met", found["evidence"]


def test_a_loop_over_a_filled_container_confirms_it(tmp_path):
    found = adapter_finding(tmp_path, ["adapted_none", "adapted"])
    assert found["evidence"]["status"] == "confirmed", found["evidence"]


def test_private_attributes_of_the_project_are_facts_and_module_bookkeeping_is_not():
    # botorch's `if not self._log and (acqval < 0).any()` holds only when `_log` is unset:
    # a run whose instance set it does not test the finding
    import torch

    class Weighted(torch.nn.Module):
        _log: bool = False  # botorch's base class; qLogNEI's sets it True

        def __init__(self):
            super().__init__()
            self._constraints = None
            self.eta = 1e-3

        def forward(self, x):
            return x

    class LogWeighted(Weighted):
        _log = True

    facts = attribute_facts(LogWeighted())
    assert len(facts) == 2  # one entry per project class on the MRO
    for held in facts.values():
        assert held["_log"] == ["truthy"] and held["_constraints"] == ["none"] and held["eta"] == ["truthy"]
        assert not {"_parameters", "_forward_hooks", "_modules", "forward"} & set(held)
        assert attribute_met("unset:self._log", held) is False
        assert attribute_met("set:self._log", held) is True
    (plain,) = [held for key, held in attribute_facts(Weighted()).items()]
    assert attribute_met("unset:self._log", plain) is True

    def neg_value(x):  # a loss around the module, as `optimize_acqf` minimises -acqf(X)
        return -model(x).sum()

    model = LogWeighted()
    neg_value.__wrapped__ = model
    assert attribute_facts(neg_value) == attribute_facts(model)


def dithered_finding(tmp_path: Path, targets: list[str]) -> dict:
    # `self.rng = rng` with `rng=None`: set or not by whoever builds the object, so the label
    # stays on the finding for the run to judge
    return labelled_finding(tmp_path, targets, "CL119", "Dithered.forward", ["given:self.rng"])


def test_an_attribute_left_none_by_its_constructor_leaves_the_finding_unjudged(tmp_path):
    found = dithered_finding(tmp_path, ["dithered_global"])
    assert found["evidence"]["status"] == "condition-not-met", found["evidence"]


def test_an_object_built_with_the_attribute_confirms_it(tmp_path):
    found = dithered_finding(tmp_path, ["dithered_global", "dithered_seeded"])
    assert found["evidence"]["status"] == "confirmed", found["evidence"]


def auc_finding(tmp_path: Path, targets: list[str]) -> dict:
    # every compiled call passes the caller's own `self.max_fpr`: the label is that attribute's
    return labelled_finding(tmp_path, targets, "CL102", "partial_auc", ["set:given_targets:PartialAUC.max_fpr"])


def test_an_argument_the_caller_takes_from_its_attribute_is_judged_on_its_class(tmp_path):
    found = auc_finding(tmp_path, ["auc_full"])
    assert found["evidence"]["status"] == "condition-not-met", found["evidence"]


def test_an_object_built_with_that_attribute_confirms_it(tmp_path):
    found = auc_finding(tmp_path, ["auc_full", "auc_partial"])
    assert found["evidence"]["status"] == "confirmed", found["evidence"]


def clipped_finding(tmp_path: Path, targets: list[str]) -> dict:
    # two callers (a module's `self.max_fpr`, another's argument): the label stays the helper's own
    return labelled_finding(tmp_path, targets, "CL102", "clipped_auc", ["given:max_fpr!=None"])


def test_a_helper_s_label_is_judged_by_what_its_calls_were_passed(tmp_path):
    """Dynamo inlines `clipped_auc` unrun; the eager pass after the captures reads its
    arguments (probe.call_args): never a `max_fpr`, so the `or` on a tensor was not tested."""
    found = clipped_finding(tmp_path, ["clipped_full"])
    assert found["evidence"]["status"] == "condition-not-met", found["evidence"]
    assert found["evidence"]["unmet"] == ["given:max_fpr!=None"]


def test_a_run_whose_calls_pass_it_confirms_the_helper_s_finding(tmp_path):
    found = clipped_finding(tmp_path, ["clipped_full", "clipped_partial"])
    assert found["evidence"]["status"] == "confirmed", found["evidence"]


def test_call_arguments_reads_each_user_function_s_parameters():
    import torch

    sys.path.insert(0, str(FIXTURE.parent))
    try:
        import given_targets as g
    finally:
        sys.path.remove(str(FIXTURE.parent))
    from compilelint.probe.call_args import call_arguments, function_key

    model, args = g.clipped_partial()
    facts = call_arguments(model, [(args, {})], torch.no_grad)
    helper = facts[function_key(g.__file__, "clipped_auc")]
    assert helper["max_fpr"] == ["not_none", "truthy"] and helper["fpr"] == ["not_none", "truthy", "nograd"]
    assert facts[function_key(g.__file__, "ClippedAUC.forward")]["self"] == ["not_none", "truthy"]
    assert call_arguments(model, [((torch.rand(6),), {})], torch.no_grad) == {}  # the pass raised
    model, args = g.clipped_full()
    facts = call_arguments(model, [(args, {})], torch.no_grad)
    assert facts[function_key(g.__file__, "clipped_auc")]["max_fpr"] == []  # None: neither given nor truthy


def positions_finding(tmp_path: Path, targets: list[str]) -> dict:
    return labelled_finding(tmp_path, targets, "CL132", "Potential.forward", ["nograd:data[positions]"])


def test_turning_on_grad_the_caller_already_turned_on_is_not_judged(tmp_path):
    """Every call handed in positions that require grad: `requires_grad_(True)` changed
    nothing, so Dynamo's silence says nothing of the input it would break on."""
    found = positions_finding(tmp_path, ["positions_with_grad"])
    assert "does not already require grad" in found["message"]
    assert found["evidence"]["status"] == "condition-not-met", found["evidence"]


def test_positions_without_grad_confirm_the_requires_grad_finding(tmp_path):
    found = positions_finding(tmp_path, ["positions_with_grad", "positions_plain"])
    assert found["evidence"]["status"] == "confirmed", found["evidence"]


def test_value_facts_say_whether_tensors_require_grad():
    import torch

    from compilelint.probe.entry_args import nograd_met, value_facts

    plain, tracked = torch.zeros(2), torch.zeros(2, requires_grad=True)
    assert value_facts(tracked)[-1] == "grad" and value_facts(plain)[-1] == "nograd"
    facts = value_facts({"positions": tracked, "cell": plain, "n": 3})
    assert facts[-2:] == ["[positions]grad", "[cell]nograd"]
    assert nograd_met("nograd:data[positions]", {"data": facts}) is False
    assert nograd_met("nograd:data[cell]", {"data": facts}) is True
    assert nograd_met("nograd:data[species]", {"data": facts}) is None  # not a tensor of the run
    assert nograd_met("nograd:x", {"data": facts}) is None

    class Batch:  # a graph batch whose `data["positions"]` reads its attribute (mace's), not a dict
        def __init__(self):
            self.positions, self.node_attrs = tracked, plain

        def keys(self):
            raise AssertionError("the probe must not run the user's keys()")

        def __getitem__(self, key):
            raise AssertionError("the probe must not run the user's __getitem__")

    assert value_facts(Batch())[-2:] == ["[positions]grad", "[node_attrs]nograd"]


@pytest.mark.parametrize("target, status", [("unweighted", "condition-not-met"), ("weighted", "confirmed")])
def test_a_label_in_a_scripted_function_is_judged_by_what_its_calls_passed(tmp_path, target, status):
    # TorchScript runs `_midpoint` without a Python frame: the eager pass swaps in its Python
    # original, as Dynamo traces it, so the profile hook sees `posweight`
    scripted = FIXTURE.parent / "scripted_targets.py"
    (found,) = [f for f in probe_check(tmp_path, scripted, [target]) if f["scope"] == "_midpoint"]
    assert found["code"] == "CL102" and found["when"] == ["given:posweight"], found
    assert found["evidence"]["status"] == status, found["evidence"]


POSTERIOR = '''
import torch


class Posterior:
    """A plain object around a density network (sbi's `DirectPosterior`)."""

    def __init__(self, net, default_x=None):
        self.net = net
        self.default_x = default_x

    def log_prob(self, theta, x):
        theta = torch.atleast_2d(theta)
        is_new_x = self.default_x is None or (x != self.default_x).any()
        if is_new_x:
            return self.net(theta).sum()
        return self.net(theta).sum() * 2
'''

POSTERIOR_TARGETS = '''
import torch
from postlib import Posterior


def left_unset():
    return Posterior(torch.nn.Linear(2, 1)).log_prob, (torch.randn(3, 2), torch.randn(2))


def with_default():
    posterior = Posterior(torch.nn.Linear(2, 1), default_x=torch.zeros(2))
    return posterior.log_prob, (torch.randn(3, 2), torch.ones(2))
'''


def posterior_finding(tmp_path: Path, targets: list[str]) -> dict:
    """`if is_new_x:` on a flag bound to `self.default_x is None or <tensor>`: a tensor only when
    the object holds a default (semantic.guards), which the run's plain object says (probe.attr_facts)."""
    files = {"__init__.py": "from .posterior import Posterior\n", "posterior.py": POSTERIOR}
    (found,) = [f for f in check_probe_package(tmp_path, "postlib", files, POSTERIOR_TARGETS, targets)
                if f["code"] == "CL102"]
    assert found["when"] == ["given:self.default_x", "api"] and found["scope"] == "Posterior.log_prob", found
    return found


def test_a_plain_object_built_without_the_attribute_leaves_the_finding_unjudged(tmp_path):
    found = posterior_finding(tmp_path, ["left_unset"])
    assert found["evidence"]["status"] == "condition-not-met", found["evidence"]


def test_a_plain_object_built_with_the_attribute_confirms_it(tmp_path):
    found = posterior_finding(tmp_path, ["left_unset", "with_default"])
    assert found["evidence"]["status"] == "confirmed", found["evidence"]


def test_a_plain_objects_facts_are_its_attributes_and_its_modules():
    # d3rlpy's learners are plain objects whose `_modules` is a dataclass of their parts, not
    # nn.Module's table: their facts are read as attributes, and the modules they hold as modules
    import dataclasses

    import torch

    @dataclasses.dataclass(frozen=True)
    class Parts:
        policy: torch.nn.Module

    class Learner:
        def __init__(self):
            self._modules = Parts(torch.nn.Linear(2, 2))
            self.net = torch.nn.Sequential(torch.nn.Linear(2, 2))
            self.default_x = None

        def update(self, x):
            return self.net(x)

    facts = attribute_facts(Learner().update)
    (own,) = [held for key, held in facts.items() if key.endswith(":test_a_plain_objects_facts_are_its_attributes_"
                                                                   "and_its_modules.<locals>.Learner")]
    assert own == {"_modules": ["truthy"], "net": ["truthy"], "default_x": ["none"]}
    assert attribute_met("given:self.default_x", own) is False
    assert len(facts) == 1  # (torch's own classes, the held Sequential and Linear, say nothing)
    assert attribute_facts(torch.nn.Linear(2, 2).forward) == {}  # a module's method: its modules' facts

    class Slotted:  # no `__dict__`: nothing to read, and the run goes on
        __slots__ = ("net",)

        def update(self, x):
            return x

    assert attribute_facts(Slotted().update) == {}

    class Broken(torch.nn.Module):  # a module whose table is no mapping: skipped, the others kept
        def __init__(self):
            super().__init__()
            object.__setattr__(self, "_buffers", 3)

    assert attribute_facts(torch.nn.Sequential(Broken(), torch.nn.Linear(2, 2))) == {}


def clamped_finding(tmp_path: Path, targets: list[str]) -> dict:
    found = labelled_finding(tmp_path, targets, "CL103", "max_level", ["given:signed@tensor"])
    assert "(only when the caller passes `signed` a tensor)" in found["message"]
    return found


def test_a_number_where_the_helper_takes_a_tensor_leaves_the_finding_unjudged(tmp_path):
    """Every call passed `signed` a bool: Dynamo took the other branch of
    `bool(signed.item()) if isinstance(signed, Tensor) else signed` and never read a value."""
    found = clamped_finding(tmp_path, ["clamped_bool"])
    assert found["evidence"]["status"] == "condition-not-met", found["evidence"]
    assert found["evidence"]["unmet"] == ["given:signed@tensor"]


def test_a_tensor_passed_to_the_helper_confirms_it(tmp_path):
    found = clamped_finding(tmp_path, ["clamped_bool", "clamped_tensor"])
    assert found["evidence"]["status"] == "confirmed", found["evidence"]


def rows_finding(tmp_path: Path, targets: list[str]) -> dict:
    found = labelled_finding(tmp_path, targets, "CL119", "pick_rows", ["given:idx@ndarray"])
    assert "(only when the caller passes `idx` a NumPy array)" in found["message"]
    return found


def test_a_tensor_where_the_helper_tests_for_an_array_leaves_the_finding_unjudged(tmp_path):
    """Every call passed `idx` a tensor: `isinstance(idx, np.ndarray) and np.isscalar(idx)`
    stopped at the type test, and Dynamo never met `np.isscalar`."""
    found = rows_finding(tmp_path, ["rows_by_tensor"])
    assert found["evidence"]["status"] == "condition-not-met", found["evidence"]
    assert found["evidence"]["unmet"] == ["given:idx@ndarray"]


def test_an_array_passed_to_the_helper_confirms_it(tmp_path):
    found = rows_finding(tmp_path, ["rows_by_tensor", "rows_by_array"])
    assert found["evidence"]["status"] == "confirmed", found["evidence"]


def test_the_branch_for_what_is_no_tensor_is_met_by_calls_that_pass_none():
    """`given:data@plain` against the facts of real values: a list passed meets it; a tensor
    among what the calls passed leaves it unjudged (the facts are the calls' union)."""
    import torch

    from compilelint.probe.entry_args import value_facts

    assert given_met("given:data@plain", {"data": value_facts([0.5, 2.0])}) is True
    assert given_met("given:data@plain", {"data": value_facts(None)}) is True
    assert given_met("given:data@plain", {"data": value_facts(torch.ones(2))}) is None
    assert given_met("given:data@plain", {"other": value_facts(1.0)}) is None  # (not seen)
