#!/bin/sh
# graph-pes 1.0.2 and the pure dependencies it imports, each --no-deps (torch 2.13.0 untouched).
# Already present and left as they are: ase 3.29.0, numpy, rich, pytorch-lightning 2.6.6,
# torchmetrics 1.9.0, scikit-learn, e3nn 0.6.0 (graph-pes pins 0.4.4; not downgraded), opt-einsum-fx, pyyaml.
set -e
pip install --no-deps graph-pes==1.0.2
pip install --no-deps vesin==0.6.2 load-atoms==0.3.10 locache==4.0.2 data2objects==0.1.0 dacite==1.9.2
