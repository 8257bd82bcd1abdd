#!/bin/sh
# blitz-bayesian-pytorch 0.2.8 (import name blitz); torch 2.13.0 (CPU) already installed, never touched
set -e
pip install --no-deps blitz-bayesian-pytorch==0.2.8
