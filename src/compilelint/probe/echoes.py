"""Which observed breaks are echoes of a break a finding explains (a part of `match`): Dynamo
logs one break again at the call that led to it, in the frames it could not resume in or that
an exception unwound, and in the constructions that code running eagerly compiled alone. The
finding that explains the break explains its echoes: counting them as breaks of their own (or
showing users them as findings of their own) would hide the one fix that removes them all.
Each observed break is a `match._Observed`: `rec` (its record), `target`, `loc`, `stack`,
`caller`, and the `explained` / `led_to` flags this module sets.
"""

from __future__ import annotations

from compilelint.probe.dynamo_text import (CANNOT_RESUME, FUNCTORCH, LIMIT_HIT, METACLASS_CALL,
                                            OBSERVED_EXCEPTION_GB, RECONSTRUCTION, UNINITIALIZED_GB,
                                            UNINITIALIZED_MODULE, UNRESUMABLE)
from compilelint.probe.source_spans import comprehension_home, enclosing_def, enclosing_loop, function_spans, with_body

DUPLICATE = "user stack suppressed due to duplicate graph break"  # torch._dynamo.symbolic_convert's words


def explain_echoes(observed: list) -> None:
    """Echoes of a break a finding explains, in the same run. Dynamo reports a break it met
    inlining a call it cannot resume inside (a function behind `functools.cache`, one a
    context-manager decorator wraps, a `with` block) once more at the call, in a caller's
    frame: one of the ids logged at the first place, at a line of its user stacks (or, when
    Dynamo says the break duplicates one it logged, the stack suppressed). And a
    `with` whose body broke is logged as a step it could not take (`step_unsupported`). Before
    Python 3.12 a comprehension is a frame of its own: when the function holding it runs
    eagerly because of a break, Dynamo compiles the comprehension alone and cannot step its
    iterator (`Missing tp_iternext`). A break inside a call Dynamo cannot resume after is
    echoed at the call under another id, in its words for that: a method of an object the
    frame built (a reconstruction failure, GB0092; the break may have been logged first inside
    another call of the same function), a call inside a generator expression it was stepping
    (a cell it cannot read, GB0091), a function a `torch.func` transform traces (GB0149, at the
    transform's call or, after a break inside, at a later line of the function: deepinv's
    `torch.func.vjp` of a Radon transform, mace's `torch.vmap` of a function taking gradients).
    A module class built by code that runs
    eagerly (its caller's frame skipped, or the construction itself broke) has its `__init__`
    compiled as a frame of its own, which Dynamo refuses (an uninitialized module, GB0119), and
    so is a metaclass's `__call__`, whose `super().__call__()` Dynamo cannot trace there (GB0006;
    torchsde's solvers, built in `sdeint` after its solver loop broke): the break in the
    caller's function or in a call it makes (asteroid-filterbanks' `misi`), or inside the construction (also one a finding only led to: a flagged
    `Metric()` whose break is in torchmetrics), explains it. The finding that explains the
    break explains its echoes."""
    places, builders, resumed_never = _places(observed)
    for o in observed:
        if o.explained or not o.loc or o.rec.kind != "graph_break":
            continue
        if _built_alone(o):
            continue  # (below, once the echoes here are explained: a builder's break may be one)
        if o.rec.reason.startswith("Missing tp_iternext"):
            home = comprehension_home(o.loc[0], o.loc[1])
            o.explained = bool(home) and any(run == o.target and any(p == o.loc[0] and ln in home
                                                                     for p, ln in ((path, line), *stack))
                                             for (run, path, line), (_, stack) in places.items())
        elif o.rec.gb_id:
            # Dynamo marks a break it already logged at the same place, seen again from another
            # frame (a submodule's break echoed at its call in the parent): the same break
            duplicate = DUPLICATE in (o.rec.detail or "")
            # a break inside a call Dynamo cannot resume after (a method of an object the frame
            # built, a generator it was stepping): logged at the call, under another id
            unresumable = any(w in f"{o.rec.reason} {o.rec.detail or ''}" for w in (*UNRESUMABLE, FUNCTORCH))
            # (or met again, unlogged as a duplicate, inside another call of the same function:
            # pyro's `SplineCoupling._inverse` calls `_inv_call` of the lower spline, an
            # attribute, which breaks and resumes, then of the upper one, which it built)
            home = enclosing_def(*o.loc) if RECONSTRUCTION in o.rec.reason or FUNCTORCH in o.rec.reason else None
            o.explained = any(run == o.target and (path, line) != o.loc
                              and ((o.rec.gb_id in ids and (o.loc in stack or duplicate))
                                   or (unresumable and (o.loc in stack or _through(stack, o.loc[0], home))))
                              for (run, path, line), (ids, stack) in places.items())
        elif o.rec.reason == "step_unsupported":
            body = with_body(o.loc[0], o.loc[1])
            loop = enclosing_loop(o.loc[0], o.loc[1])
            # a `with` whose body broke; or the loop a resume function compiled up to, then
            # ran eagerly, for a break in its body it cannot resume from
            o.explained = body is not None and any(run == o.target and path == o.loc[0] and line in body
                                                   for run, path, line in places) \
                or loop is not None and any(run == o.target and path == o.loc[0] and line in loop
                                            for run, path, line in resumed_never)
    # the frame skip Dynamo logs where an echo stopped it is the echo's too; and a function
    # that breaks runs as frames of its own, compiled again for each instance it meets until
    # the recompile limit: that skip is the explained break's, inside the function
    echoed = {(o.target, o.loc) for o in observed if o.explained and o.rec.kind == "graph_break"}
    # a module's `__init__` skipped alone (GB0119, no break logged: a class built through a
    # dict, each base's `__init__` in turn) while its builder runs eagerly: the builder's
    # break explains it, and each `super().__init__` it runs in turn (outermost first)
    # (an echo explained above, a reconstruction failure in the builder, counts too)
    builders = _places(observed)[1]
    for o in observed:
        if not o.explained and o.loc and o.rec.kind == "graph_break" and _built_alone(o):
            o.explained = _builder_broke(o, builders)
            if o.explained:
                echoed.add((o.target, o.loc))
    built = sorted((o for o in observed if not o.explained and o.rec.kind == "frame_skip" and o.loc
                    and o.rec.gb_id == UNINITIALIZED_GB and o.caller is not None), key=lambda o: len(o.rec.stack))
    for o in built:
        o.explained = (o.target, o.caller) in echoed or _builder_broke(o, builders)
        if o.explained:
            echoed.add((o.target, o.loc))
    for o in observed:
        if o.explained or o.rec.kind != "frame_skip" or not o.loc:
            continue
        if (o.target, o.loc) in echoed:
            o.explained = True
        elif LIMIT_HIT in o.rec.reason and o.rec.function:
            spans = [span for span in function_spans(o.loc[0], o.rec.function) if o.loc[1] in span]
            o.explained = any(run == o.target and path == o.loc[0] and any(line in span for span in spans)
                              for run, (path, line) in echoed)
    _explain_unwound(observed)


def _explain_unwound(observed: list) -> None:
    """An exception raised while tracing that no handler catches (GB0088) skips the frame it
    was raised in and, as each enclosing function then runs eagerly and is compiled alone,
    every frame it passes through on the way out: a frame skip whose line is on the user
    stack of an explained break, or of a deeper skip explained so, is that break's."""
    below = [(run, stack) for (run, _, _), (_, stack) in _places(observed)[0].items()]
    skips = sorted((o for o in observed if not o.explained and o.loc and o.rec.kind == "frame_skip"
                    and o.rec.gb_id == OBSERVED_EXCEPTION_GB), key=lambda o: -len(o.rec.stack))
    for o in skips:  # deepest first
        o.explained = any(run == o.target and o.loc in stack for run, stack in below)
        if o.explained:
            below.append((o.target, o.stack))


def _places(observed: list):
    """Where the explained graph breaks were met, per run: (run, file, line) -> (ids, stack
    lines); the same with the breaks a finding only led to (the construction a flagged
    `Metric()` ran: a module built there explains its `__init__` refused as a frame of its
    own); and the places of those Dynamo could not resume after."""
    places: dict[tuple, tuple[set, set]] = {}
    builders: dict[tuple, tuple[set, set]] = {}
    resumed_never: set[tuple] = set()
    for o in observed:
        if (o.explained or o.led_to) and o.loc and o.rec.kind == "graph_break":
            for table in ((places, builders) if o.explained else (builders,)):
                ids, stack = table.setdefault((o.target, *o.loc), (set(), set()))
                ids.add(o.rec.gb_id)
                stack.update(o.stack)
            if o.explained and o.rec.reason.startswith(CANNOT_RESUME):
                resumed_never.add((o.target, *o.loc))
    return places, builders, resumed_never


def _through(stack: set, path: str, home) -> bool:
    """A user stack passes through the function `home` (`enclosing_def`) of file `path`."""
    return home is not None and home[1] > 0 and any(p == path and enclosing_def(p, ln) == home for p, ln in stack)


def _built_alone(o) -> bool:
    """A break of a construction's frame compiled on its own, which only code running eagerly
    makes: a module's `__init__` (GB0119), a metaclass's `__call__` (GB0006)."""
    return o.rec.reason.startswith(UNINITIALIZED_MODULE) or METACLASS_CALL in o.rec.reason


def _builder_broke(o, places: dict[tuple, tuple[set, set]]) -> bool:
    """An explained break of the run in the function that built the module (`o.caller`'s), in
    a call that function makes (the function on its stack: asteroid's `misi`, whose loop calls
    a helper that breaks, then builds a `Decoder` eagerly), or inside the construction (the
    caller on its stack)."""
    if o.caller is None:
        return False
    builder = enclosing_def(*o.caller)
    return any(run == o.target and (o.caller in stack or enclosing_def(path, line) == builder
                                    or _through(stack, o.caller[0], builder))
               for (run, path, line), (_, stack) in places.items())
