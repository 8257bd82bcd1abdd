#!/bin/sh
# pypose 0.9.5: pure Python; needs torch (installed, never touched), packaging (installed).
pip install --no-deps pypose==0.9.5
