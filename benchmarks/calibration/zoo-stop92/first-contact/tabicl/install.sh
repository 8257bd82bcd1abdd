#!/bin/sh
# tabicl 2.2.0 and its pure dependencies, never torch (all but tabicl were already installed at these versions)
pip install --no-deps tabicl==2.2.0 einops==0.8.2 huggingface-hub==0.36.0 psutil==7.2.2 scikit-learn==1.9.1 scipy==1.17.1 tqdm==4.70.1 threadpoolctl==3.8.0 joblib==1.6.0
