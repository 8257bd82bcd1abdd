#!/bin/sh
set -e
pip install --no-deps torchcfm==1.0.7
pip install --no-deps pot==0.9.7.post1
