#!/bin/sh
# hummingbird-ml 0.4.12 and the pure dependencies it imports at its top (never torch).
set -e
pip install --no-deps hummingbird-ml==0.4.12
pip install --no-deps onnxconverter-common==1.14.0 onnx==1.16.1
pip install --no-deps dill==0.4.1
pip list | grep -i "^torch "   # still 2.13.0+cpu
