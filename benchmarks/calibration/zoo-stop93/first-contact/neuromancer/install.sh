#!/bin/sh
set -e
pip install --no-deps neuromancer==1.5.6
pip install --no-deps plum-dispatch==1.7.3 pydot==1.4.2 pyts==0.13.0
