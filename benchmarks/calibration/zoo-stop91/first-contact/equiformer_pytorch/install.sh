#!/bin/sh
# equiformer-pytorch 0.5.4 and the one dependency not already installed (never torch)
set -e
pip install --no-deps equiformer-pytorch==0.5.4
pip install --no-deps taylor-series-linear-attention==0.2.0
# already installed, used as they are: einops 0.8.2, einx 0.4.3, beartype 0.22.9, filelock 4.3.2,
# opt_einsum 3.4.0, jaxtyping 0.3.11, rotary-embedding-torch 0.9.1
