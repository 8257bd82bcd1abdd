#!/bin/sh
# pina-mathlab 0.3.2.post2610; its deps (lightning 2.6.6, torch-geometric 2.8.1, matplotlib 3.11.2) were already installed
pip install --no-deps pina-mathlab==0.3.2.post2610
