#!/bin/sh
set -e
pip install --no-deps torchdr==0.5
