#!/bin/sh
set -e
pip install --no-deps torch-kmeans==0.2.0
