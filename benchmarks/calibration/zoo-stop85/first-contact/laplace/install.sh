#!/bin/sh
set -e
pip install --no-deps laplace-torch==0.3
pip install --no-deps curvlinops-for-pytorch==3.0.1 backpack-for-pytorch==1.7.1 asdfghjkl==0.1a4 einconv==0.1.0
