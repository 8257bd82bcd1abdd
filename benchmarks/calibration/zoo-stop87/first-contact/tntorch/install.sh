#!/bin/sh
# tntorch 1.1.2 (declares numpy, scipy, torch>=1.11: numpy 2.4.6 and scipy 1.17.1 already installed; torch untouched)
pip install --no-deps tntorch==1.1.2
