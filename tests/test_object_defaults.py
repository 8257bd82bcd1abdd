"""CL152 across files and releases: the `__init__` with the object default lives in another
file than the call that builds the object; `**kwargs` hand-offs are followed to the calls
that build it; before torch 2.13 a call that passes the object breaks too (Dynamo wraps
every default of a traced constructor there: corpus `clean_xf_object_default_01`'s
`[torch < 2.13]` label, confirmed on 2.11.0)."""

from compilelint import config as config_mod
from compilelint.engine import check
from helpers import write_package

BASE = '''
import torch.nn as nn


class ZeroNoise(nn.Module):
    def forward(self, x):
        return x


class Physics(nn.Module):
    def __init__(self, noise_model=ZeroNoise(), scale=1.0):
        super().__init__()
        self.noise_model = noise_model
        self.scale = scale


class Blur(Physics):
    def __init__(self, kernel, **kwargs):
        super().__init__(**kwargs)
        self.kernel = kernel
'''

USER = '''
import torch.nn as nn

from pkg.physics import Blur, Physics, ZeroNoise


class Deblur(nn.Module):
    def forward(self, y):
        given = Physics(noise_model=ZeroNoise())
        left = Blur(y, scale=2.0)
        return given.noise_model(y) + left.noise_model(y)
'''


def _project(tmp_path, user=USER):
    return write_package(tmp_path, "pkg", {"physics.py": BASE, "model.py": user})


def _hits(tmp_path, pkg, target_torch):
    settings = config_mod.load(start=str(tmp_path), select=["CL152"], target_torch=target_torch)
    return sorted((f.path.rsplit("/", 1)[-1], f.line) for f in check([str(pkg)], settings).findings)


def test_the_call_that_leaves_the_object_out_breaks_through_the_kwargs_hand_off(tmp_path):
    pkg = _project(tmp_path)
    # `Blur(y, scale=2.0)` gives no noise_model: its `super().__init__(**kwargs)` leaves it out;
    # `Physics(noise_model=ZeroNoise())` passes it
    assert _hits(tmp_path, pkg, "2.13") == [("physics.py", 19)]


def test_a_caller_that_passes_the_keyword_through_kwargs_is_left_alone(tmp_path):
    pkg = _project(tmp_path, USER.replace("Blur(y, scale=2.0)", "Blur(y, noise_model=ZeroNoise())"))
    assert _hits(tmp_path, pkg, "2.13") == []


def test_before_2_13_every_call_of_such_a_constructor_breaks(tmp_path):
    pkg = _project(tmp_path, USER.replace("Blur(y, scale=2.0)", "Blur(y, noise_model=ZeroNoise())"))
    assert _hits(tmp_path, pkg, "2.11") == [("model.py", 9), ("physics.py", 19)]
