#!/bin/sh
# ctgan 0.12.1 and its pure dependencies, never torch (torch 2.13.0 CPU already installed).
set -e
pip install --no-deps ctgan==0.12.1
pip install --no-deps rdt==1.18.2
pip install --no-deps Faker==37.12.0
# already installed and used: numpy 2.4.6, pandas 3.0.6, scipy 1.17.1, scikit-learn 1.9.1, tqdm 4.70.1,
# python-dateutil 2.9.0.post0 (Faker declares tzdata; not installed, not needed to import)
