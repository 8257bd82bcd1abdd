#!/bin/sh
# nequip 0.19.1 (newest on the index) for the compilelint zoo; torch 2.13.0 (CPU) stays as it is.
# e3nn 0.6.0, ase, matscipy, lightning, torchmetrics, omegaconf, antlr4, pyyaml, tqdm, requests: already installed.
set -e
pip install --no-deps nequip==0.19.1 hydra-core==1.3.8
pip list 2>/dev/null | grep -E "^torch "
