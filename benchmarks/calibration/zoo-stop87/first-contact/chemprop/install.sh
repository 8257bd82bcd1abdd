#!/bin/sh
# chemprop 2.3.1 and its pure dependencies, each --no-deps (torch 2.13.0 CPU, lightning 2.6.6,
# numpy, pandas, scipy, scikit-learn, rich, dill, tabulate, psutil, torchmetrics already installed)
set -e
pip install --no-deps chemprop==2.3.1
pip install --no-deps rdkit==2026.3.6 cuik_molmaker_pin==2026.3.6
pip install --no-deps descriptastorus==2.8.0 multiprocess==0.70.19 astartes==1.3.3 configargparse==1.9.0
pip install --no-deps pandas-flavor==0.8.1
