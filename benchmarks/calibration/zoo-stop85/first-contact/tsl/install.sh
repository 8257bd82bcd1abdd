#!/bin/sh
# tsl (torch-spatiotemporal) 0.9.5 for the compilelint zoo: never touches torch.
# Its other declared dependencies (einops, numpy, pandas, pytorch-lightning, PyYAML, scikit-learn,
# scipy, torchmetrics, tqdm) were already installed; `tables` is declared but never imported by
# what the adapter uses. torch_scatter / torch_sparse (compiled) are stand-ins in the adapter.
set -e
pip install --no-deps torch-spatiotemporal==0.9.5
