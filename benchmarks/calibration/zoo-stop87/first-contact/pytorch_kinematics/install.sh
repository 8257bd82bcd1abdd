#!/bin/sh
set -e
pip install --no-deps pytorch-kinematics==0.10.0
pip install --no-deps lxml==6.2.1 arm-pytorch-utilities==0.5.0 pytorch-seed==0.2.0
