"""CL111 on a logger a base class of another file sets (`self.logger = set_logger(name)` in
torchdr's `base.py`, `self.logger.info(...)` in its affinities): the subclass's file never binds
the attribute, and a logger's name is what is left to go on (a warning, as for `from .utils import
logger`). A base in the same file that binds it to another object (a metrics log) is believed.
Checked against Dynamo."""

import pytest

from helpers import break_line, imported, package_findings, write_package

UTILS = """
    import logging


    def set_logger(name):
        logger = logging.getLogger(name)
        logger.setLevel(logging.WARNING)
        return logger
"""

BASE = """
    import torch

    from affin.utils import set_logger


    class Estimator(torch.nn.Module):
        def __init__(self):
            super().__init__()
            self.logger = set_logger(type(self).__name__)
"""

MODEL = """
    import torch

    from affin.base import Estimator


    class Metrics:
        def info(self, *args):
            return None


    class Logged(torch.nn.Module):
        def __init__(self):
            super().__init__()
            self.logger = Metrics()


    class Affinity(Estimator):
        def forward(self, x):
            y = x * 2
            self.logger.info("symmetrizing")  # BREAK
            return y + y.T


    class Quiet(Logged):
        def forward(self, x):
            y = x * 2
            self.logger.info("a metrics log")
            return y + 1
"""

FILES = {"__init__.py": "", "utils.py": UTILS, "base.py": BASE, "model.py": MODEL}


def test_a_logger_a_base_of_another_file_sets_is_reported(tmp_path):
    found = package_findings(tmp_path, "affin", FILES)
    assert {line for name, line in found if name == "model.py"} == {break_line(MODEL)}


def test_dynamo_breaks_at_the_logger_call_only(tmp_path):
    torch = pytest.importorskip("torch")
    from compilelint.probe.capture import capture

    write_package(tmp_path, "affin", FILES)
    with imported(tmp_path, "affin.model") as model:
        logged = capture(model.Affinity(), (torch.randn(3, 3),), backend="eager")
        quiet = capture(model.Quiet(), (torch.randn(3, 3),), backend="eager")
    assert break_line(MODEL) in {r.line for r in logged.breaks if r.file.endswith("model.py")}
    assert not [r for r in quiet.breaks if r.file.endswith("model.py")]
