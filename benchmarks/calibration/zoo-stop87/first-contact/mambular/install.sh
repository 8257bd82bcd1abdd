#!/bin/sh
set -e
pip install --no-deps mambular==1.5.1
pip install --no-deps pretab==0.0.1
pip install --no-deps properscoring==0.1
