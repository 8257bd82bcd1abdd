#!/bin/sh
# torchdeq 0.1.0: its only declared dependencies are torch and numpy (both already installed)
pip install --no-deps torchdeq==0.1.0
