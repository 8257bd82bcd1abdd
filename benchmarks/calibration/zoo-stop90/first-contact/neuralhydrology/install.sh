#!/bin/sh
# neuralhydrology 1.13.0 for the first-contact calibration (fc90); torch untouched
pip install --no-deps neuralhydrology==1.13.0
