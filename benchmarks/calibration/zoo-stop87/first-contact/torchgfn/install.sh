#!/bin/sh
# torchgfn 2.4.1; its dependencies (numpy, einops, tensordict, dill, torch_geometric,
# linear-attention-transformer) were already installed: nothing else installed.
pip install --no-deps torchgfn==2.4.1
