#!/bin/sh
# sevenn 0.13.0 for the compilelint first-contact calibration (torch 2.13.0 CPU already installed; never touched)
set -e
pip install --no-deps sevenn==0.13.0 braceexpand==0.1.7
