#!/bin/sh
# torch_ecg 0.0.33 and the pure dependencies it imports at module level (never torch)
set -e
pip install --no-deps torch-ecg==0.0.33
pip install --no-deps biosppy==2.2.4
pip install --no-deps peakutils==1.3.5
pip install --no-deps bib-lookup==0.1.4
pip install --no-deps feedparser==6.0.14 feedparser-sgmllib==2.1.0
pip install --no-deps beautifulsoup4==4.15.0 soupsieve==4.1.4
pip install --no-deps pybtex==0.26.1 latexcodec==3.0.1
pip install --no-deps deprecated==1.3.1 deprecate-kwargs==0.1.1 easydict==1.14
pip install --no-deps wfdb==4.3.1
pip install --no-deps tensorboardX==2.6.5
pip install --no-deps edfio==0.4.18
