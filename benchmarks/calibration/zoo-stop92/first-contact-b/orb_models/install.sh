#!/bin/sh
# orb-models 0.5.5 and its pure dependencies, --no-deps (torch 2.13.0 CPU, ase, scipy, numpy, tqdm already installed)
pip install --no-deps orb-models==0.5.5 dm-tree==0.1.8
