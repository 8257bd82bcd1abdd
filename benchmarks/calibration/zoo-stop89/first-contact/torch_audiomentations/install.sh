#!/usr/bin/env bash
# torch_audiomentations 0.12.0 for the model zoo (first contact, stop 89); never touches torch
set -euo pipefail
python -m pip install --no-deps torch-audiomentations==0.12.0 julius==0.2.8 torch-pitch-shift==1.2.5 primePy==1.3
