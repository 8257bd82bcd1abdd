#!/bin/sh
set -e
pip install --no-deps hypll==0.1.1
