#!/bin/sh
# geomloss 0.3.1 for the zoo adapter (torch 2.13.0 CPU and numpy already installed; never pykeops)
set -e
pip install --no-deps geomloss==0.3.1
