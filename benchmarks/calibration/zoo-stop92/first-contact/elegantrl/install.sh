#!/bin/sh
set -e
pip install --no-deps elegantrl==0.3.6
