#!/bin/sh
set -e
pip install --no-deps cebra==0.6.1
pip install --no-deps literate-dataclasses==0.0.6
