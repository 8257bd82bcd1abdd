pip install --no-deps torchphysics==1.1.2
