#!/bin/sh
# torchquad 0.6.0 and its pure dependencies (loguru 0.7.3, numpy, scipy already installed); never torch.
set -e
pip install --no-deps torchquad==0.6.0
pip install --no-deps autoray==0.11.0
pip list | grep -i -E "^torch "   # must still be 2.13.0
