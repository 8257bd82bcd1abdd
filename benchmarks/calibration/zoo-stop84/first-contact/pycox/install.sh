#!/bin/sh
# pycox 0.3.0 for the compilelint first-contact measurement (torch 2.13.0+cpu already installed, never touched)
pip install --no-deps pycox==0.3.0 torchtuples==0.2.2
