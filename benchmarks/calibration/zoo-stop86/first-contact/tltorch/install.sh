#!/bin/sh
# tensorly-torch 0.5.0 and the tensorly it imports (torch backend); numpy / scipy already there. Never torch.
set -e
pip install --no-deps tensorly-torch==0.5.0
pip install --no-deps tensorly==0.10.0
pip list | grep -E "^torch "   # still 2.13.0+cpu
