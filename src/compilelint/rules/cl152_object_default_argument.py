from compilelint.finding import OBJECT_DEFAULT
from compilelint.rules.base import Rule


class ObjectDefaultArgument(Rule):
    code = "CL152"
    name = "object-default-argument"
    summary = "builds an object whose `__init__` leaves a parameter to a default that is an object instance"
    message = ("`{callee}` defaults `{param}` to an object instance, and {how}: Dynamo cannot wrap such a default "
               "when it traces a constructor and breaks the graph (GB0116)")
    severity = "error"
    gb_id = "GB0116"
    breaks_graph = True
    project_phase = "compilelint.project_rules.cl152_defaults"
    help = ("Default the parameter to None and build the object in the body (`if noise_model is None: "
            "noise_model = ZeroNoise()`), or pass it at the call.")

    VALID = [
        """
import torch
import torch.nn as nn
class Noise(nn.Module):
    def forward(self, x):
        return x
class Physics(nn.Module):
    def __init__(self, noise_model=None, scale=2.0, device=torch.device("cpu")):
        super().__init__()
        self.noise_model = noise_model if noise_model is not None else Noise()  # built in the body: traced
        self.scale = scale
class Blur(Physics):
    def __init__(self, noise_model=Noise()):
        super().__init__(noise_model=noise_model)  # passes it: nothing left to a default
class M(nn.Module):
    def forward(self, x):
        physics = Physics()
        blur = Blur(noise_model=Noise())  # passed at the call
        return physics.noise_model(x) * physics.scale + blur.noise_model(x)
""",
        """
import torch
import torch.nn as nn
class Noise(nn.Module):
    def forward(self, x):
        return x
class Physics(nn.Module):
    def __init__(self, noise_model=Noise()):
        super().__init__()
        self.noise_model = noise_model
def helper(x, noise=Noise()):  # a plain function: Dynamo reads its defaults from the function
    return noise(x)
class M(nn.Module):
    def __init__(self):
        super().__init__()
        self.physics = Physics()  # built in __init__: not compiled
    def forward(self, x):
        return self.physics.noise_model(x) + helper(x)
""",
    ]
    INVALID = [
        """
import torch
import torch.nn as nn
class Noise(nn.Module):
    def forward(self, x):
        return x
class Physics(nn.Module):
    def __init__(self, noise_model=Noise(), device="cpu"):
        super().__init__()
        self.noise_model = noise_model
class Blur(Physics):
    def __init__(self, kernel, **kwargs):
        super().__init__(**kwargs)  # expect
        self.kernel = kernel
class Inpainting(Physics):
    pass
class M(nn.Module):
    def forward(self, x):
        blur = Blur(3, device="cpu")
        mask = Inpainting()  # expect
        return blur.noise_model(x) + mask.noise_model(x)
""",
    ]

    def visit_Call(self, node) -> None:
        index = self.ctx.constructor_call(node)
        if index is not None:  # which `__init__` runs and what it leaves to a default: the project decides
            self.report(node, needs=(f"{OBJECT_DEFAULT}{self.ctx.function.qualname}|{index}",))
