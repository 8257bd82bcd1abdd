#!/bin/sh
# zennit 0.5.1 for the first-contact calibration (stop 90); never touches torch.
# click 8.4.0, numpy 2.4.6 and pillow 13.0.0 (zennit's other declared deps) were already installed;
# torchvision (declared) is held out and stubbed by the adapter instead.
set -e
pip install --no-deps zennit==0.5.1
