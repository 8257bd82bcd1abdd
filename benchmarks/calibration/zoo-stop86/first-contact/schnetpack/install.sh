#!/bin/sh
# schnetpack 2.1.1 and the pure dependencies it imports that were missing (everything else it
# imports -- ase 3.29.0, h5py 3.16.0, matscipy 1.3.1, pytorch-lightning 2.6.6, torchmetrics 1.9.0,
# omegaconf 2.3.0, tqdm, rich, pyyaml, sympy, numpy, scipy, torch-ema 0.3 -- was already installed).
set -e
pip install --no-deps schnetpack==2.1.1
pip install --no-deps dirsync==2.2.6 fasteners==0.20
pip list 2>/dev/null | grep -E '^torch ' # must still be 2.13.0
