"""e3nn: equivariant layers (tensor products, gates, norms, spherical harmonics, ...) on
small random irreps features, random weights.

    pip install --no-deps e3nn==0.6.0 opt_einsum_fx==0.1.4
    pip install opt_einsum==3.4.0      # (+ sympy, scipy)
"""

PACKAGE = "e3nn"

_IN, _OUT = "4x0e + 2x1o + 1x2e", "4x0e + 2x1o"


def _x(irreps=_IN, n=6):
    import torch
    from e3nn import o3

    return o3.Irreps(irreps).randn(n, -1)


def _mod(factory, *inputs):
    return lambda mode: (factory(), tuple(i() for i in inputs), {})


def _o3(name, *args, **kwargs):
    def build():
        from e3nn import o3

        return getattr(o3, name)(*args, **kwargs)

    return build


def _nn(name, *args, **kwargs):
    def build():
        from e3nn import nn

        return getattr(nn, name)(*args, **kwargs)

    return build


def _gate():
    import torch
    from e3nn import nn

    return nn.Gate("4x0e", [torch.relu], "2x0e", [torch.sigmoid], "1x1o + 1x2e")


def _points(mode):
    import torch
    from e3nn.nn.models.v2106.gate_points_networks import SimpleNetwork

    net = SimpleNetwork(irreps_in="1x0e", irreps_out="1x0e + 1x1o", max_radius=2.0, num_neighbors=3.0,
                        num_nodes=4.0, mul=4, layers=2, lmax=1, pool_nodes=True)
    return net, ({"pos": torch.randn(8, 3), "x": torch.randn(8, 1), "batch": torch.zeros(8, dtype=torch.long)},), {}


MODELS = {
    "Linear": _mod(_o3("Linear", _IN, _OUT), _x),
    "FullyConnectedTensorProduct": _mod(_o3("FullyConnectedTensorProduct", _IN, "1x0e + 1x1o", _OUT), _x,
                                        lambda: _x("1x0e + 1x1o")),
    "FullTensorProduct": _mod(_o3("FullTensorProduct", "2x0e + 1x1o", "1x1o"), lambda: _x("2x0e + 1x1o"),
                              lambda: _x("1x1o")),
    "ElementwiseTensorProduct": _mod(_o3("ElementwiseTensorProduct", "2x0e + 2x1o", "2x1o + 2x0e"),
                                     lambda: _x("2x0e + 2x1o"), lambda: _x("2x1o + 2x0e")),
    "TensorSquare": _mod(_o3("TensorSquare", "2x0e + 1x1o"), lambda: _x("2x0e + 1x1o")),
    "SphericalHarmonics": _mod(_o3("SphericalHarmonics", "0e + 1o + 2e", True, "component"), lambda: _x("1x1o")),
    "Norm": _mod(_o3("Norm", _IN), _x),
    "Gate": _mod(_gate, lambda: _x("4x0e + 2x0e + 1x1o + 1x2e")),
    "BatchNorm": _mod(_nn("BatchNorm", _IN), _x),
    "NormActivation": _mod(lambda: _nn("NormActivation", _IN, __import__("torch").sigmoid)(), _x),
    "FullyConnectedNet": _mod(lambda: _nn("FullyConnectedNet", [8, 16, 4], __import__("torch").relu)(),
                              lambda: __import__("torch").randn(6, 8)),
    "Extract": _mod(_nn("Extract", _IN, ["4x0e", "2x1o"], [(0,), (1,)]), _x),
    "Dropout": _mod(_nn("Dropout", _IN, 0.2), _x),
    "SimpleNetwork": _points,
}
