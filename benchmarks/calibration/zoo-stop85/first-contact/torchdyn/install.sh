#!/bin/sh
# torchdyn 1.0.6 (its imported dependencies torchsde 0.2.6, torchcde 0.2.5, pytorch-lightning 2.6.6,
# attrs 26.1.0, scipy, numpy, scikit-learn, matplotlib were already installed; torch untouched)
pip install --no-deps torchdyn==1.0.6
