#!/bin/sh
# torch-uncertainty 0.13.0 (never torch; everything else it imports was already installed)
pip install --no-deps torch-uncertainty==0.13.0
