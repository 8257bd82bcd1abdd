#!/bin/sh
# pythae 0.1.2 for the first-contact calibration (fc86). torch 2.13.0 (CPU) already installed; never touched.
# Its other declared dependencies (cloudpickle, numpy, pydantic>=2, scikit-learn, scipy, tqdm,
# typing-extensions) are already installed; imageio is declared but never imported by the package.
pip install --no-deps pythae==0.1.2
