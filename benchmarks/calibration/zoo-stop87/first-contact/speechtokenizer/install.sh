#!/bin/sh
# speechtokenizer 1.0.1 and the pure dependencies its top-level import pulls (never torch)
set -e
pip install --no-deps speechtokenizer==1.0.1
pip install --no-deps lion-pytorch==0.2.5
pip install --no-deps accelerate==1.15.0
# already there from other adapters: einops 0.8.2, numpy 2.4.6, scipy 1.17.1, beartype 0.22.9,
# tqdm 4.70.1, matplotlib 3.11.2, pyyaml 6.0.3, tensorboard 2.21.0, huggingface_hub 0.36.0,
# psutil 7.2.2, safetensors 0.8.0, packaging 26.4
# torchaudio: not installable against torch 2.13.0+cpu, stubbed by the adapter
