#!/bin/sh
# torchcvnn 0.10.0 for the zoo (torch 2.13.0 CPU already installed; never touch it)
pip install --no-deps torchcvnn==0.10.0
