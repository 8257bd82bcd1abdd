#!/bin/sh
# labml_nn 0.5.1 calibration adapter: install lines, in order (torch 2.13.0+cpu already installed, untouched).
# (Run first, then replaced: `pip install --no-deps labml-nn==0.5.1 labml==0.5.3`; labml 0.5.3 lacks
#  tracker.debug, which labml_nn.transformers.mha calls, so labml was pinned back to 0.4.168.)
set -e
pip install --no-deps labml-nn==0.5.1 labml==0.4.168
pip install --no-deps gitpython==3.1.45 gitdb==4.0.12 smmap==5.0.2
pip list 2>/dev/null | grep -i "^torch "
