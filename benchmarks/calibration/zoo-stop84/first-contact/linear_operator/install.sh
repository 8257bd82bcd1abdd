#!/bin/sh
# linear_operator 0.6.1 (declares torch, scipy). Never touches torch (2.13.0+cpu).
set -e
pip install --no-deps linear_operator==0.6.1 scipy==1.17.1
pip list | grep -E "^torch "
