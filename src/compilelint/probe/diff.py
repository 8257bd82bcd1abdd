"""What changed between two probe runs: `compilelint probe diff OLD.json NEW.json`.

Two probe JSON reports (sweeps or plain `--format json` ones: the same ``targets``
section) are compared target by target: the breaks fixed and the breaks new, the
graph break / recompile / frame skip counts, the speedup of the best timed mode and
the worth-it verdict — what a torch release or a commit changed. A break is the same
break on both sides when its kind, file, function and Dynamo's graph-break id (or
reason, before torch 2.8 had ids) agree: the line may move between two commits. No
torch here.
"""

from __future__ import annotations

import json
from collections import Counter
from typing import Any

KINDS = ("graph_break", "recompile", "frame_skip")
KIND_LABEL = {"graph_break": "graph break", "recompile": "recompile", "frame_skip": "frame skip"}


def break_key(b: dict[str, Any]) -> tuple:
    reason = (b.get("reason") or "").strip().splitlines()[:1]
    # a recompile's reason names the guard that failed: its identity; a break's id is stabler
    what = b.get("gb_id") if b.get("kind") != "recompile" and b.get("gb_id") else (reason[0] if reason else "")
    return (b.get("kind"), b.get("path"), b.get("function"), what)


def _speedup(t: dict[str, Any]) -> float | None:
    verdict = t.get("worth_it") or {}
    value = verdict.get("speedup")
    if isinstance(value, (int, float)):
        return float(value)
    speeds = [m.get("speedup") for m in ((t.get("timing") or {}).get("modes") or [])]
    speeds = [s for s in speeds if isinstance(s, (int, float))]
    return max(speeds) if speeds else None


def _verdict(t: dict[str, Any]) -> str | None:
    return (t.get("worth_it") or {}).get("verdict")


def _pair_targets(old: list[dict], new: list[dict]) -> list[tuple[dict | None, dict | None]]:
    """Targets matched by spec, else by name (a sweep run from another folder); new order first."""
    def index(entries, field):
        return {e.get(field): e for e in entries}

    old_by_spec, old_by_name = index(old, "target"), index(old, "name")
    pairs, used = [], set()
    for t in new:
        o = old_by_spec.get(t.get("target"))
        if o is None or id(o) in used:
            o = old_by_name.get(t.get("name"))
        if o is not None and id(o) in used:
            o = None
        if o is not None:
            used.add(id(o))
        pairs.append((o, t))
    pairs += [(o, None) for o in old if id(o) not in used]
    return pairs


def compare_target(old: dict | None, new: dict | None) -> dict[str, Any]:
    side = new or old or {}
    entry: dict[str, Any] = {"name": side.get("name"), "target": side.get("target")}
    if old is None or new is None:
        entry["change"] = "added" if old is None else "removed"
        entry["status"] = [old and old.get("status"), new and new.get("status")]
        return entry
    ob, nb = old.get("breaks") or [], new.get("breaks") or []
    old_keys, new_keys = Counter(map(break_key, ob)), Counter(map(break_key, nb))
    gone, came = old_keys - new_keys, new_keys - old_keys

    def pick(breaks, wanted: Counter) -> list[dict]:
        wanted, out = Counter(wanted), []
        for b in breaks:
            k = break_key(b)
            if wanted[k] > 0:
                wanted[k] -= 1
                out.append(b)
        return out

    entry["status"] = [old.get("status"), new.get("status")]
    entry["breaks_fixed"] = pick(ob, gone)
    entry["breaks_new"] = pick(nb, came)
    entry["counts"] = {k: [(old.get("counts") or {}).get(k, 0), (new.get("counts") or {}).get(k, 0)] for k in KINDS}
    entry["graph_count"] = [old.get("graph_count"), new.get("graph_count")]
    so, sn = _speedup(old), _speedup(new)
    entry["speedup"] = [so, sn]
    entry["speedup_change"] = round(sn / so - 1.0, 4) if so and sn else None
    entry["verdict"] = [_verdict(old), _verdict(new)]
    entry["torch_version"] = [old.get("torch_version"), new.get("torch_version")]
    changed = (entry["breaks_fixed"] or entry["breaks_new"] or entry["status"][0] != entry["status"][1]
               or any(a != b for a, b in entry["counts"].values()) or entry["verdict"][0] != entry["verdict"][1])
    entry["change"] = "changed" if changed else "same"
    return entry


def _torch_versions(doc: dict[str, Any]) -> list[str]:
    return sorted({t["torch_version"] for t in doc.get("targets") or [] if t.get("torch_version")})


def compare(old_doc: dict[str, Any], new_doc: dict[str, Any], old_name: str = "OLD",
            new_name: str = "NEW") -> dict[str, Any]:
    """The diff of two probe reports, as `--format json` prints it."""
    targets = [compare_target(o, n) for o, n in _pair_targets(old_doc.get("targets") or [],
                                                             new_doc.get("targets") or [])]
    both = [t for t in targets if t["change"] in ("changed", "same")]
    return {
        "old": {"file": old_name, "torch": _torch_versions(old_doc)},
        "new": {"file": new_name, "torch": _torch_versions(new_doc)},
        "summary": {
            "targets": len(targets),
            "changed": sum(1 for t in targets if t["change"] == "changed"),
            "added": sum(1 for t in targets if t["change"] == "added"),
            "removed": sum(1 for t in targets if t["change"] == "removed"),
            "breaks_fixed": sum(len(t["breaks_fixed"]) for t in both),
            "breaks_new": sum(len(t["breaks_new"]) for t in both),
            "newly_failing": sum(1 for t in both if t["status"] == ["ok", "failed"]),
            "newly_ok": sum(1 for t in both if t["status"] == ["failed", "ok"]),
            "verdict_changes": sum(1 for t in both if t["verdict"][0] != t["verdict"][1]),
        },
        "targets": targets,
    }


def regressed(diff: dict[str, Any]) -> bool:
    """New breaks, or a target that used to run and now fails: what a CI gate stops on."""
    return bool(diff["summary"]["breaks_new"] or diff["summary"]["newly_failing"])


def render_json(diff: dict[str, Any]) -> str:
    return json.dumps(diff, indent=2) + "\n"


def _describe(b: dict[str, Any]) -> str:
    where = f"{b.get('path')}:{b.get('line')}" if b.get("path") else "?"
    reason = (b.get("reason") or "").strip().splitlines()
    ident = f"{b['gb_id']} " if b.get("gb_id") else ""
    return f"{KIND_LABEL.get(b.get('kind'), b.get('kind'))} at {where}: {ident}{reason[0][:100] if reason else ''}"


def _speed(x: float | None) -> str:
    return "—" if x is None else f"{x:.2f}×"


def render_text(diff: dict[str, Any]) -> str:
    def side(s):
        return f"{s['file']}" + (f" (torch {', '.join(s['torch'])})" if s["torch"] else "")

    lines = [f"probe diff: {side(diff['old'])} → {side(diff['new'])}", ""]
    for t in diff["targets"]:
        if t["change"] in ("added", "removed"):
            where = "new" if t["change"] == "added" else "old"
            lines.append(f"{t['name']}: only in the {where} run ({t['status'][0] or t['status'][1]})")
            continue
        if t["change"] == "same":
            lines.append(f"{t['name']}: unchanged")
            continue
        lines.append(f"{t['name']}:")
        if t["status"][0] != t["status"][1]:
            lines.append(f"  status {t['status'][0]} → {t['status'][1]}")
        for label, key in (("fixed", "breaks_fixed"), ("new", "breaks_new")):
            for b in t[key]:
                lines.append(f"  {label}: {_describe(b)}")
        counts = [f"{KIND_LABEL[k]}s {a} → {b}" for k, (a, b) in t["counts"].items() if a != b]
        if counts:
            lines.append("  " + "; ".join(counts))
        so, sn = t["speedup"]
        if so is not None or sn is not None:
            change = f" ({t['speedup_change']:+.0%})" if t["speedup_change"] is not None else ""
            lines.append(f"  speedup {_speed(so)} → {_speed(sn)}{change}")
        if t["verdict"][0] != t["verdict"][1]:
            lines.append(f"  verdict {t['verdict'][0] or 'not timed'} → {t['verdict'][1] or 'not timed'}")
    s = diff["summary"]
    lines += ["", (f"{s['targets']} target(s): {s['changed']} changed, {s['added']} only new, {s['removed']} only old; "
                   f"{s['breaks_fixed']} break(s) fixed, {s['breaks_new']} new; {s['newly_failing']} newly failing, "
                   f"{s['newly_ok']} newly ok; {s['verdict_changes']} verdict change(s)")]
    return "\n".join(lines) + "\n"
