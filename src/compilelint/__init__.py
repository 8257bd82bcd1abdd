"""compilelint: find torch.compile graph breaks, recompiles and compile-API misuse."""

__version__ = "0.1.0"
