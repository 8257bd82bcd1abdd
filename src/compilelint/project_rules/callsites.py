"""Call-site facts: a finding behind `if profile:` in a callee holds only on calls that
pass `profile` (semantic.facts makes the `given:` labels; this decides them).

A label is checked against every compiled call site of the function (the region's call
edges that resolve to it): a site that passes the argument a value other than None (or
False, for a truthiness test) reaches the branch; one that leaves it to its default does
not; a site that passes `*seq` / `**mapping`, or a value the walk cannot tell, may. A root
(a module's forward, a compiled function) also has callers outside the project, who may
pass anything. So a label is
    no      no call site reaches the branch: the finding is dropped
    yes     some site passes the argument: the finding holds as it is (label removed)
    maybe   stays on the finding as a `when` condition ("only when the caller passes
            `profile`"); a test on `self.x` alone that the project cannot decide is dropped
            (attributes set from a config are everywhere: the condition would say little),
            and so is one on a parameter without a default (every call passes it)
A site that passes its own parameter on (`f(x, flag)`, CallEdge.forwards) is decided by
its own function's call sites, as far as the chain of such parameters goes.
"""

from __future__ import annotations

from compilelint.finding import (
    DEFAULTED, DISTINCT, GUESSED, LEFT_NONE, MASK, NDARRAY, NO_GRAD, PLAIN, TENSOR, on_class, on_self,
)
from compilelint.semantic.project import first_argument, passed

GIVEN = "given:"
SURE = frozenset({"tensor", "likely", "mask", "module", "true"})  # a value that is certainly not None / False
PLAIN_SPECS = frozenset({"set", "false", "true", "value", "module"})  # a value passed that is surely no tensor


def is_given(label: str) -> bool:
    return label.startswith(GIVEN)


def same_object(call, callee: str) -> bool:
    """The call runs a method on the caller's own object: `self.m()`, `super().m()`; not
    `self.block(x)`, a submodule's forward reached through a `self.` call."""
    return call is not None and call.kind in ("self", "super") and callee.rsplit(".", 1)[-1] == call.target


class CallSites:
    def __init__(self, index, region: set[str], compiled: set[str], roots: set[str] = frozenset()) -> None:
        self.index = index
        self.region_roots = roots  # where compiled code starts: reached in every mode
        self._modes: dict[str, tuple[str, ...]] | None = None
        self.compiled = compiled  # what torch.compile is given in the project: called from outside
        self.callers: dict[str, list[tuple[str, object]]] = {}  # callee -> [(caller, CallEdge)]
        # id(finding) -> the `given:` labels engine._decide_call_sites took off it because some
        # compiled call meets them: still decided per call where a break reaches a caller
        self.settled: dict[int, tuple[str, ...]] = {}
        self._kinds = None  # what makes the project's kind solver, once the region is final (use_kinds)
        guarded = []
        for key in region:
            for call in index.functions[key].calls:  # ("local": a nested function's definition)
                if call.when and any(is_given(label) for label in call.when):
                    guarded.append((key, call))
                for callee in index.callees(key, call):
                    if callee in region:
                        self.callers.setdefault(callee, []).append((key, call))
        self._decide_dead(guarded)

    def _decide_dead(self, guarded: list) -> None:
        self._guarded = guarded
        self._memo: dict[tuple[str, str], str] = {}
        self._foreign: set[str] | None = None  # attributes some file sets on other objects
        # id() of the call edges behind a branch none of their function's callers takes
        self.dead_edges = {id(call) for key, call in guarded if self.resolve(key, tuple(call.when)) is None}

    def use_kinds(self, make_solver) -> None:
        """Read a site's open argument specs (a call's result, an attribute) with the
        project's kind solver from now on (`make_solver()` builds it when first needed):
        findings are decided once the region is final."""
        if self._kinds is None:
            self._kinds = make_solver
            self._memo.clear()  # (verdicts the dead-edge pass reached without it)

    def within(self, region: set[str]) -> "CallSites":
        """The call sites of a smaller region (the region once dead edges are left out):
        the same as building them again, without walking every edge again."""
        sites = object.__new__(CallSites)
        sites.index, sites.region_roots, sites.compiled, sites._modes = \
            self.index, self.region_roots, self.compiled, None
        sites.callers, sites.settled, sites._kinds = {}, {}, None
        for callee, callers in self.callers.items():
            if callee in region:
                kept = [(key, call) for key, call in callers if key in region]
                if kept:
                    sites.callers[callee] = kept
        sites._decide_dead([(key, call) for key, call in self._guarded if key in region])
        return sites

    def modes(self, key: str) -> tuple[str, ...]:
        """The modes (`training`, ...) every compiled path to function `key` needs: a helper
        called only under `if self.training:` runs only in training. A root needs none."""
        if self._modes is None:
            self._modes = self._reach_modes()
        return self._modes.get(key, ())

    def _reach_modes(self) -> dict[str, tuple[str, ...]]:
        roots = self.region_roots
        reach: dict[str, tuple[str, ...]] = {key: () for key in roots}
        queue = list(roots)
        callees: dict[str, list[tuple[str, tuple[str, ...]]]] = {}
        for callee, sites in self.callers.items():
            for caller, call in sites:
                same_self = same_object(call, callee)  # `self.X` labels name the caller's object
                labels = tuple(label for label in call.when if not is_given(label) and (same_self or not on_self(label)))
                if callee == self.index.function_backward(self.index.resolve_call(caller, call)):
                    labels += ("training",)  # (a Function's backward: traced only when gradients flow)
                callees.setdefault(caller, []).append((callee, labels))
        while queue:  # labels only ever shrink (an intersection over callers): the queue empties
            caller = queue.pop()
            for callee, site in callees.get(caller, ()):
                if callee in roots:
                    continue
                through = reach[caller] + tuple(label for label in site if label not in reach[caller])
                held = reach.get(callee)
                narrowed = through if held is None else tuple(label for label in held if label in through)
                if narrowed != held:
                    reach[callee] = narrowed
                    queue.append(callee)
        return {key: labels for key, labels in reach.items() if labels}

    def skips(self, key: str, call) -> bool:
        """For `ProjectIndex.region`: whether a call edge never runs compiled."""
        return id(call) in self.dead_edges

    def resolve(self, key: str, when: tuple[str, ...]) -> tuple[str, ...] | None:
        """`when` of a finding in function `key` with its `given:` labels decided over all
        compiled call sites: None when no site reaches it."""
        if not any(is_given(label) for label in when):
            return when
        out = []
        for label in when:
            if is_given(label):
                verdict = self.decide(key, label)
                if verdict == "no":
                    return None
                if verdict == "yes" or (verdict == "maybe" and (
                        _any_required(label) or label.endswith((LEFT_NONE, DEFAULTED, GUESSED)))):
                    continue  # (a parameter every call passes: too common to report)
                # an attribute set somewhere but also left None (`self.rng = rng`, `rng=None`): kept,
                # the object decides (a probe run judges it on the instances it built); said once
                if verdict == "maybe" and _only_attributes(label) and all(
                        "set:" + alt in when for alt in label[len(GIVEN):].split("|")):
                    continue  # (`set:self.x` from the same test: truthy, so not None)
                label = self._on_caller_attribute(key, label) or label
            out.append(label)
        return tuple(out)

    def _on_caller_attribute(self, key: str, label: str) -> str | None:
        """`given:rng` (or `given:rng!=None`) of a function every compiled call that can reach
        the branch passes its caller's own `self.rng` (deepinv's `mc_div(..., self.rng)` in two
        SURE losses), as that attribute's label on the callers' common class,
        `set:pkg.mod:Cls.rng`, for a probe run to judge by what the instances held (set: truthy,
        which a non-None 0 is not; rare for what these hand on). None unless every such site
        passes the same attribute from objects of one class family."""
        alt = label[len(GIVEN):]
        if "|" in alt or alt.startswith(("*", "=", "self.")) or alt.endswith((LEFT_NONE, DEFAULTED)) \
                or key in self.compiled or key in self.region_roots:
            return None  # (a forward the user may compile and call with anything)
        name = alt.removesuffix("!=None")
        info = self.index.functions.get(key)
        sites = self.callers.get(key, ())
        if info is None or info.params is None or name not in info.params or not sites:
            return None
        attrs, owners = set(), []
        for caller, call in sites:
            if self.at_site(key, call, label, caller) == "no":
                continue  # (`max_fpr=None`: this site does not reach the branch)
            position = info.params.index(name) - first_argument(call, info)
            attr = next((a for k, a in call.attrs if k == name or k == position), None)
            owner = self.index.owner(caller)
            if attr is None or owner is None or attr == "training":
                return None  # (`perturb=self.training`: a mode, not the object's)
            attrs.add(attr)
            owners.append(owner)
        if len(attrs) != 1 or not owners:
            return None  # (no site left: decided elsewhere)
        # one class the callers' objects all are (a loss and its subclass: the base's attribute)
        common = next((c for c in self.index.lineage(owners[0])
                       if all(c in self.index.lineage(o) for o in owners[1:])), None)
        return on_class(f"set:self.{attrs.pop()}", common) if common else None

    def through(self, callee: str, call, when: tuple[str, ...], caller: str | None = None) -> tuple[str, ...] | None:
        """`when` of a break in `callee` as seen from one call site: None when this site
        never reaches it; otherwise the labels that still apply (a `given:` one the site
        decides is gone: it named the callee's parameters, which mean nothing to the caller;
        a label on the callee's own attributes, `set:self.debug`, is named on the callee's
        class instead, unless the call is `self.m()` on the same object)."""
        same_self = same_object(call, callee)
        if not any(is_given(label) or label.startswith(NO_GRAD) or (on_self(label) and not same_self)
                   for label in when):
            return when
        out = []
        for label in when:
            if label.startswith(NO_GRAD):
                continue  # (about what the caller hands in, unknown at its own callers: not a condition there)
            if is_given(label):
                if self.at_site(callee, call, label, caller) == "no":
                    return None
                if (passed_on := self._passed_on(callee, call, label)) and passed_on not in out:
                    out.append(passed_on)  # decided by the caller's own callers, each on its own
                continue
            if on_self(label) and not same_self:
                owner = self.index.owner(callee)
                if owner is not None and (named := on_class(label, owner)) not in out:
                    out.append(named)  # (the caller's `self` is another object)
                continue
            out.append(label)
        return tuple(out)

    def _passed_on(self, callee: str, call, label: str) -> str | None:
        """A label on a parameter the caller passes its own parameter to, as the caller's
        label: `given:num_nodes==None` in `maybe_num_nodes(edge_index, num_nodes)`, called with
        the caller's own `num_nodes=None`, is the caller's `given:num_nodes==None`; likewise
        `given:fill_value!=None` and `given:flag`. A break behind it then reaches only the
        caller's callers that pass what it needs, each decided on its own (PyG's
        `add_self_loops`, called with `num_nodes=x.size(0)` and no `fill_value`), not
        through a verdict over all of them. None when the label is no such parameter's."""
        alt = label[len(GIVEN):]
        info = self.index.functions.get(callee)
        if "|" in alt or alt.startswith(("*", "self.")) or not call.forwards or info is None or info.params is None:
            return None
        if DISTINCT in alt:  # both parameters passed on, as two of the caller's own
            pair = _forwarded_pair(call, info, alt)
            return f"{GIVEN}{pair[0]}{DISTINCT}{pair[1]}" if pair and pair[0] != pair[1] else None
        name, suffix = alt.removeprefix("="), ""
        for end in (LEFT_NONE, DEFAULTED, "!=None", TENSOR, PLAIN, GUESSED):
            if name.endswith(end):
                name, suffix = name.removesuffix(end), end
        forwarded = _forwarded_param(call, info, name)
        if forwarded is None:
            return None
        param, default = forwarded
        if (suffix in (LEFT_NONE, DEFAULTED) and default != "none") or (suffix == "!=None" and default == "falsy"):
            return None  # (never None there: the site's own verdict holds)
        return f"{GIVEN}{'=' if default == 'required' else ''}{param}{suffix}"

    def decide(self, key: str, label: str) -> str:
        memo = (key, label)
        found = self._memo.get(memo)
        if found is None:
            if _only_attributes(label):  # the class decides, whoever calls
                verdicts = {self.at_site(key, None, label)}
            else:
                self._memo[memo] = "maybe"  # (recursion through forwarded parameters: undecided)
                verdicts = {self.at_site(key, call, label, caller) for caller, call in self.callers.get(key, ())}
                if key in self.compiled or not verdicts:
                    verdicts.add("maybe")  # callers outside the project
            found = _strongest(verdicts)
            self._memo[memo] = found
        return found

    def at_site(self, callee: str, call, label: str, caller: str | None = None) -> str:
        """Whether one call site passes what `label` needs: "yes", "no" or "maybe"."""
        info = self.index.functions.get(callee)
        verdicts = []
        for alt in label[len(GIVEN):].split("|"):
            if alt.startswith("self."):
                verdicts.append(self.attribute(callee, alt[5:]))
            elif info is None or info.params is None or call.kind in ("local", "decorator"):
                verdicts.append("maybe")  # (a nested function may be called from anywhere its parent hands it)
            else:
                verdicts.append(self._alternative(info, call, alt, caller))
        return _strongest(verdicts)

    def attribute(self, key: str, attr: str) -> str:
        """"no" when `self.<attr>` is None in every instance a method `key` may run on: the
        class and its subclasses set it to None only, and no file sets `.attr` on another object."""
        memo = (key, "self." + attr)
        found = self._memo.get(memo)
        if found is None:
            found = self._memo[memo] = self._attribute(key, attr)
        return found

    def _attribute(self, key: str, attr: str) -> str:
        owner = self.index.owner(key)
        if owner is None or owner not in self.index.classes:
            return "maybe"
        if self._foreign is None:
            self._foreign = set()
            for summary in self.index.modules.values():
                self._foreign.update(summary.foreign_attrs)
        if attr in self._foreign or "*" in self._foreign:
            return "maybe"
        for cls in (owner, *self.index.subclasses(owner)):
            none = False
            for base in self.index.lineage(cls):
                info = self.index.classes[base]
                if attr in info.set_attrs or "*" in info.set_attrs:
                    return "maybe"
                none = none or attr in info.none_attrs
            if not none:
                return "maybe"  # set where the project cannot see (a base outside it)
        return "no"

    def _alternative(self, info, call, alt: str, caller: str | None) -> str:
        if DISTINCT in alt:
            return self._distinct(info, call, alt, caller)
        if alt.endswith(DEFAULTED):
            return self._defaulted(info, call, alt.removesuffix(DEFAULTED), caller)
        for suffix in (TENSOR, PLAIN, NDARRAY, GUESSED):
            if alt.endswith(suffix):
                return self._typed(info, call, alt.removesuffix(suffix), caller, suffix)
        if alt.endswith(MASK):
            return self._mask(info, call, alt.removesuffix(MASK), caller)
        if alt.endswith(LEFT_NONE):  # the site leaves NAME at None: the opposite of NAME!=None
            name = alt.removesuffix(LEFT_NONE)
            passes = self._alternative(info, call, name + "!=None", caller)
            if passes == "maybe" and _named_value(call, info, name):
                passes = "yes"
            return {"yes": "no", "no": "yes"}.get(passes, "maybe")
        required = alt.startswith("=")  # (no default: a call site that leaves it out is unseen)
        alt = alt.removeprefix("=")
        params = info.params
        offset = first_argument(call, info)
        keys = {key for key, _ in call.args}
        spread = "**" in keys
        if alt.startswith("**"):  # **kwargs[KEY]
            name = alt[alt.index("[") + 1:-1]
            spec = next((spec for key, spec in call.args if key == name), None)
            if spec is not None:
                return _value(spec, truthy=False)
            return "maybe" if spread else "no"
        if alt.startswith("*"):  # *args not empty
            count = len(params) - offset
            if any(isinstance(key, int) and key >= count for key in keys):
                return "yes"
            return "maybe" if "*" in keys else "no"
        truthy = not alt.endswith("!=None")
        name = alt if truthy else alt[:-6]
        spec = passed(call, info, name)
        if spec is not None:
            forwarded = self._forwarded(call, info, name, truthy, caller)
            return forwarded or _value(spec, truthy)
        if required or spread or ("*" in keys and name in params):
            return "maybe"
        return "no"  # left to its default, which skips the branch

    def _distinct(self, info, call, alt: str, caller: str | None) -> str:
        """`given:key!is:query` at one site: "no" where it passes one of its own parameters
        as both (`self.attn(src, src, src)`), the caller's own label where it passes two
        (decided by its callers), "maybe" otherwise (a site's specs are kinds, not objects)."""
        pair = _forwarded_pair(call, info, alt) if caller is not None else None
        if pair is None:
            return "maybe"
        return "no" if pair[0] == pair[1] else self.decide(caller, f"{GIVEN}{pair[0]}{DISTINCT}{pair[1]}")

    def _defaulted(self, info, call, name: str, caller: str | None) -> str:
        """Whether one site leaves `name` None or passes it a tensor (semantic.defaulted):
        "no" for a site that passes a plain value (`maxlen=x.shape[1]`)."""
        spec = passed(call, info, name)
        if spec is None:
            keys = {key for key, _ in call.args}
            return "maybe" if "**" in keys or ("*" in keys and name in info.params) else "yes"
        forwarded = _forwarded_param(call, info, name) if caller is not None else None
        if forwarded is not None:
            param, default = forwarded
            return self.decide(caller, f"{GIVEN}{param}{DEFAULTED}") if default == "none" else "maybe"
        if spec in ("none", "tensor", "likely", "mask"):
            return "yes"
        return "no" if spec in PLAIN_SPECS else "maybe"

    def _typed(self, info, call, name: str, caller: str | None, suffix: str) -> str:
        """Whether one site passes `name` what the label's test needs: a tensor (`TENSOR`: an
        `isinstance` test; `GUESSED`: a parameter the walk guesses is one) or a NumPy array
        (`NDARRAY`). "no" for a number, a bool, None, a module, or leaving it to its default (a
        literal: semantic.facts), and for an array also for a tensor (a tensor's `.numpy()` reads as one here: Dynamo holds it as a tensor,
        and CL105 reports the call); a parameter of its own passed on is decided by its own
        callers. `PLAIN` (no tensor) is the other way round."""
        spec = passed(call, info, name)
        if spec is None:
            keys = {key for key, _ in call.args}
            return "maybe" if "**" in keys or "*" in keys else "yes" if suffix == PLAIN else "no"
        if suffix == PLAIN and isinstance(spec, tuple) and self._kinds is not None and caller is not None \
                and self._kinds().spec_kind(caller.split(":", 1)[0], spec) in ("tensor", "likely"):
            return "no"  # (`ManifoldTensor(data=manifold.expmap(v), ...)`, a forward's input passed on)
        forwarded = _forwarded_param(call, info, name) if caller is not None else None
        if forwarded is not None:
            verdict = self.decide(caller, f"{GIVEN}{forwarded[0]}{suffix}")
            if not (verdict == "maybe" and suffix == PLAIN and spec in ("tensor", "likely", "mask")):
                return verdict  # (else a compiled forward's input, passed on: taken for a tensor)
        if spec in ("tensor", "likely", "mask"):
            return "no" if suffix in (NDARRAY, PLAIN) else "yes"
        if spec == "none" or spec in PLAIN_SPECS:
            return "yes" if suffix == PLAIN else "no"
        return "maybe"

    def _mask(self, info, call, name: str, caller: str | None) -> str:
        """Whether one site passes `name` a boolean mask (semantic.mask_values): "yes" only for
        one the walk saw is a mask; an index the walk cannot tell is no mask (most are ints or
        slices); a parameter of its own passed on is decided by its own callers."""
        if passed(call, info, name) is None:
            return "no"
        forwarded = _forwarded_param(call, info, name) if caller is not None else None
        if forwarded is not None:
            return self.decide(caller, f"{GIVEN}{forwarded[0]}{MASK}")
        return "yes" if passed(call, info, name) == "mask" else "no"

    def _forwarded(self, call, info, name: str, truthy: bool, caller: str | None) -> str | None:
        """The verdict of a site that passes its own parameter on (`f(x, flag)` in a
        function whose `flag=False` no caller of its own passes), decided over the caller's
        call sites; None when the argument is not one."""
        forwarded = _forwarded_param(call, info, name) if caller is not None else None
        if forwarded is None:
            return None
        param, default = forwarded
        if not truthy and default == "falsy":
            return "yes"  # (`0` / `False` is not None)
        label = ("=" if default == "required" else "") + param + ("" if truthy else "!=None")
        return self.decide(caller, GIVEN + label)


def _forwarded_param(call, info, name: str) -> tuple[str, str] | None:
    """(the caller's parameter, its default kind) when the call passes that parameter on,
    unchanged, as the callee's `name` (by keyword or position); None otherwise."""
    if not call.forwards:
        return None
    position = info.params.index(name) - first_argument(call, info) if name in info.params else None
    for key, param, default in call.forwards:
        if key == name or (position is not None and position >= 0 and key == position):
            return param, default
    return None



def _forwarded_pair(call, info, alt: str) -> tuple[str, str] | None:
    """The caller's own parameters a site passes on as the two of `NAME!is:OTHER`, each
    unchanged; None unless it passes both so."""
    pair = [_forwarded_param(call, info, name) for name in alt.split(DISTINCT)]
    return None if None in pair else (pair[0][0], pair[1][0])


def _named_value(call, info, name: str) -> bool:
    """The site names a None-defaulted argument with a value of its own (`dim_size=num_graphs`,
    not `None`, not its own parameter passed on): a caller writes that to give one, so the
    callee's `if dim_size is None:` branch (`int(index.max()) + 1`) is not the site's."""
    spec = passed(call, info, name)  # (a tuple: what another function decides, a parameter passed on, may be None)
    if isinstance(spec, tuple) and spec and all(leaf.startswith("f|") for leaf in spec):
        spec = "made"  # an attribute of what a factory built (`ctx.num_graphs`): a value the site names
    return isinstance(spec, str) and spec not in ("none", "optional") and _forwarded_param(call, info, name) is None


def _strongest(verdicts) -> str:
    return next((v for v in ("yes", "maybe") if v in verdicts), "no")


def _value(spec, truthy: bool) -> str:
    if spec == "none":
        return "no"
    if spec == "set":  # a number (semantic.calls._size): not None, maybe 0
        return "maybe" if truthy else "yes"
    if spec == "false":
        return "no" if truthy else "yes"
    return "yes" if spec in SURE else "maybe"


def _any_required(label: str) -> bool:
    return any(alt.startswith("=") for alt in label[len(GIVEN):].split("|"))


def _only_attributes(label: str) -> bool:
    return all(alt.startswith("self.") for alt in label[len(GIVEN):].split("|"))
