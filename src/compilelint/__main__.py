import os
import sys

# `python -m compilelint` puts the working directory first on sys.path, so a `click.py`
# or `json.py` in the (possibly untrusted) tree being checked would be imported, and run,
# instead of the real module. compilelint is already imported by now; nothing it imports
# lives in the working directory. (The `compilelint` console script never adds it.)
if sys.path and not getattr(sys.flags, "safe_path", False) and sys.path[0] in ("", os.getcwd()):
    del sys.path[0]

from compilelint.launch import main  # noqa: E402  (a `check` goes to a running daemon, if any)

if __name__ == "__main__":
    main()
