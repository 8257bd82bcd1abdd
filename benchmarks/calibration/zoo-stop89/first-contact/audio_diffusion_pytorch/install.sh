#!/bin/sh
set -e
pip install --no-deps audio-diffusion-pytorch==0.1.3
pip install --no-deps audio-encoders-pytorch==0.0.22 einops-exts==0.0.4
