"""Findings per 1,000 lines of modeling files whose models compile as one graph.

A modeling file = transformers/models/*/modeling_*.py. A run = (model, setting) captured ok.
A file qualifies ("one-graph") when at least one run executed a line of it and every run that
executed a line of it had no graph_break / frame_skip record and ran ok (strict variant: also
graph_count == 1). Counted findings: severity error or warning (notes left out)."""
import glob, json, os, re, sys, collections

CAP = sys.argv[1]          # captures/<key>/models
SRC = sys.argv[2]          # /work/tfsweep/src/transformers
STATIC = sys.argv[3]       # compilelint check JSON of SRC
INSTALLED = sys.argv[4]    # the path prefix the captures' transformers files carry
out_json = sys.argv[5] if len(sys.argv) > 5 else None

pat = re.compile(r"^models/[^/]+/modeling_[^/]+\.py$")
runs_by_file = collections.defaultdict(list)  # rel file -> [(run, one_graph, strict)]
for f in sorted(glob.glob(os.path.join(CAP, "*.json"))):
    e = json.load(open(f))
    for s, v in e["settings"].items():
        r = v.get("result")
        if v.get("skipped") or not r:
            continue
        cap = r.get("capture") or {}
        breaks = [b for b in cap.get("breaks", []) if b["kind"] in ("graph_break", "frame_skip")]
        ok = r.get("status") == "ok"
        one = ok and not breaks
        strict = one and cap.get("graph_count") == 1
        for path in (r.get("lines_run") or {}):
            if path.startswith(INSTALLED):
                rel = path[len(INSTALLED):].lstrip("/")
                if pat.match(rel):
                    runs_by_file[rel].append((f"{e['model']}[{s}]", one, strict))

static = json.load(open(STATIC))["findings"]
by_file = collections.defaultdict(list)
for fd in static:
    p = os.path.normpath(fd["path"] if os.path.isabs(fd["path"]) else os.path.join(os.path.dirname(SRC), fd["path"]))
    if p.startswith(SRC + "/"):
        by_file[p[len(SRC) + 1:]].append(fd)

def lines(rel):
    with open(os.path.join(SRC, rel), encoding="utf-8") as fh:
        return sum(1 for _ in fh)

all_modeling = sorted(os.path.relpath(p, SRC) for p in glob.glob(os.path.join(SRC, "models/*/modeling_*.py")))
res = {}
for variant, idx in (("one_graph", 1), ("strict_graph_count_1", 2)):
    files = [f for f, rs in runs_by_file.items() if rs and all(x[idx] for x in rs)]
    n_lines = sum(lines(f) for f in files)
    fds = [fd for f in files for fd in by_file.get(f, []) if fd["severity"] in ("error", "warning")]
    per_code = collections.Counter(fd["code"] for fd in fds)
    res[variant] = {"files": len(files), "lines": n_lines, "findings_error_warning": len(fds),
                    "per_1000_lines": round(1000 * len(fds) / n_lines, 3) if n_lines else None,
                    "errors": sum(fd["severity"] == "error" for fd in fds),
                    "warnings": sum(fd["severity"] == "warning" for fd in fds),
                    "per_code": dict(per_code.most_common()),
                    "files_with_findings": sorted({f for f in files if any(fd["severity"] in ("error", "warning") for fd in by_file.get(f, []))}),
                    "findings": [{k: fd[k] for k in ("path", "line", "code", "severity", "message", "when")} for fd in fds]}
# context
ran = [f for f, rs in runs_by_file.items() if rs]
ran_lines = sum(lines(f) for f in ran)
ran_fds = [fd for f in ran for fd in by_file.get(f, []) if fd["severity"] in ("error", "warning")]
all_lines = sum(lines(f) for f in all_modeling)
all_fds = [fd for f in all_modeling for fd in by_file.get(f, []) if fd["severity"] in ("error", "warning")]
res["context"] = {
    "modeling_files_in_package": len(all_modeling), "their_lines": all_lines, "their_findings": len(all_fds),
    "per_1000_all_modeling": round(1000 * len(all_fds) / all_lines, 3),
    "modeling_files_a_run_executed": len(ran), "their_lines_ran": ran_lines, "their_findings_ran": len(ran_fds),
    "per_1000_executed_modeling": round(1000 * len(ran_fds) / ran_lines, 3),
    "modeling_files_with_a_breaking_run": len(ran) - res["one_graph"]["files"]}
for k, v in res.items():
    print(k, {kk: vv for kk, vv in v.items() if kk not in ("findings", "files_with_findings")})
if out_json:
    json.dump(res, open(out_json, "w"), indent=1)
