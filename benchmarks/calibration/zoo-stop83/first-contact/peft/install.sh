#!/bin/sh
# peft 0.21.2 on the installed torch 2.13.0 (CPU); nothing pulls torch.
set -e
pip install --no-deps peft==0.21.2
pip install --no-deps transformers==4.57.6 tokenizers==0.22.2 accelerate==1.16.0
# already installed and used (not reinstalled): huggingface-hub 0.36.0, safetensors 0.8.0, regex 2026.5.9,
# numpy, packaging, psutil, PyYAML, tqdm, filelock, requests, fsspec
