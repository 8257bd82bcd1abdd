#!/bin/sh
# piq 0.8.0 for the calibration zoo (torch 2.13.0 CPU already installed; never torch / torchvision)
set -e
pip install --no-deps piq==0.8.0
