#!/bin/sh
# imitation 1.0.1 for the calibration zoo: never touches torch (2.13.0 CPU stays).
# stable-baselines3 2.9.2, gymnasium 1.2.2, numpy, tqdm, rich, scikit-learn, matplotlib,
# tensorboard, cloudpickle were already installed; nothing else is needed by the models used.
set -e
pip install --no-deps imitation==1.0.1
pip list 2>/dev/null | grep -E '^torch ' # must still read 2.13.0
