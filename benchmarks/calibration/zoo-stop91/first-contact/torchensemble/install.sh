pip install --no-deps torchensemble==0.2.0
