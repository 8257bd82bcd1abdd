#!/bin/sh
set -e
pip install --no-deps torchattacks==3.5.1
