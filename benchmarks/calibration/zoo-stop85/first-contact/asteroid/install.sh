#!/bin/sh
# asteroid 0.7.0 for the calibration zoo; never pulls torch (all --no-deps)
set -e
pip install --no-deps asteroid==0.7.0
pip install --no-deps soundfile==0.13.1
pip install --no-deps torch-optimizer==0.1.0 pytorch-ranger==0.1.1
