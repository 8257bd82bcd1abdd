#!/bin/sh
# numpy 2.4.6 and scipy 1.17.1 (its other dependencies) were already installed; torch untouched.
pip install --no-deps pytorch-minimize==0.1.0
