#!/bin/sh
set -e
pip install --no-deps flowtorch==0.8
