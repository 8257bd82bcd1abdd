#!/bin/sh
# torchjd 0.18.0 and the optional solvers its aggregators need (all --no-deps; torch untouched)
set -e
pip install --no-deps torchjd==0.18.0
pip install --no-deps quadprog==0.1.13 qpsolvers==4.8.1
pip install --no-deps cvxpy-base==1.9.3 qdldl==0.1.9.post1 sparsediffpy==0.6.1 clarabel==0.11.1 ecos==2.0.14
