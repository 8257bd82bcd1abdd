#!/bin/sh
set -e
pip install --no-deps rwkv==0.8.32
