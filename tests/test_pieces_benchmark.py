"""benchmarks/pieces.py runs end to end (on the demo project; the corpora are not in CI)."""

import re
import subprocess
import sys

from conftest import REPO


def test_pieces_prints_every_row_with_real_numbers():
    result = subprocess.run([sys.executable, str(REPO / "benchmarks" / "pieces.py"), "--repeat", "1",
                             "--folder", str(REPO / "fixtures" / "demo" / "tinygpt")],
                            capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, result.stderr
    rows = [line for line in result.stdout.splitlines() if line.startswith("| ") and "---" not in line][1:]
    assert len(rows) == 7, result.stdout
    for row in rows:
        seconds, lines_per_s, ratio = (cell.strip() for cell in row.strip("|").split("|")[1:])
        assert float(seconds) >= 0 and int(lines_per_s.replace(",", "")) > 0 and float(ratio) >= 1.0
    # the parse is the unit; metadata providers cost more than compilelint's walk
    ratios = {row.split("|")[1].strip(): float(row.split("|")[4]) for row in rows}
    assert ratios["parse (libcst.parse_module)"] == 1.0
    scope = next(v for k, v in ratios.items() if k.startswith("ScopeProvider"))
    walk = next(v for k, v in ratios.items() if k.startswith("compilelint's walk"))
    assert scope > walk
    assert re.search(r"Corpus: .*tinygpt, \d+ files", result.stdout)
