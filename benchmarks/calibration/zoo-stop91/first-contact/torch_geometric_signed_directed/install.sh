#!/bin/sh
set -e
pip install --no-deps torch-geometric-signed-directed==1.2.0
