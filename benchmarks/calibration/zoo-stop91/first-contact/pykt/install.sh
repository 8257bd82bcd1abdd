#!/bin/sh
set -e
pip install --no-deps pykt-toolkit==0.0.38
