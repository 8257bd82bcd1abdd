#!/bin/sh
# neurodiffeq 0.7.0 for the compilelint zoo (never touches torch)
set -e
pip install --no-deps neurodiffeq==0.7.0
pip install --no-deps seaborn==0.13.2
