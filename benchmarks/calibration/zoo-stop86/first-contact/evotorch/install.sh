pip install --no-deps evotorch==0.6.1
