from compilelint.rules.base import Rule


class CachedPropertyRead(Rule):
    code = "CL147"
    name = "cached-property-read"
    summary = "reads a `functools.cached_property` in the compiled region (Python 3.11 and older)"
    message = ("`{read}` reads `{prop}`, a `functools.cached_property`: on Python 3.11 and older its getter "
               "takes an `RLock`, a context manager Dynamo cannot enter (GB0142), so the whole function runs "
               "eagerly the first time the value is not yet cached")
    severity = "error"
    gb_id = "GB0142"
    breaks_graph = True
    project_phase = "compilelint.project_rules.cl147_cached"
    help = ("Read the property once before the compiled call (in `__init__`, or before `torch.compile`) so the "
            "value is cached, or make it a plain `@property` or attribute; Python 3.12 and newer take no lock.")

    VALID = [
        """
import functools
import torch
class Tokenizer:
    def __init__(self, n):
        self.n = n
        self.eot = n - 1
    @property
    def begin(self):  # a plain property: Dynamo runs the getter
        return self.n + 1
class Head(torch.nn.Module):
    def __init__(self, tokenizer: Tokenizer):
        super().__init__()
        self.tokenizer = tokenizer
    def forward(self, x):
        return x[..., : self.tokenizer.begin] * self.tokenizer.eot
""",
        """
import functools
import torch
class Tokenizer:
    def __init__(self, n):
        self.n = n
    @functools.cached_property
    def begin(self):
        return self.n + 1
class Head(torch.nn.Module):
    def forward(self, x, tokenizer: Tokenizer):
        # handed over: the caller used it first, so the value is most often cached
        return x[..., : tokenizer.begin]
""",
    ]
    INVALID = [
        """
import functools
import torch
class Tokenizer:
    def __init__(self, n):
        self.n = n
    @functools.cached_property
    def begin(self):
        return self.n + 1
class Head(torch.nn.Module):
    def __init__(self, tokenizer: Tokenizer):
        super().__init__()
        self.tokenizer = tokenizer
    def forward(self, x):
        return x[..., : self.tokenizer.begin]  # expect
""",
        """
import functools
import torch
class Tokenizer:
    def __init__(self, n):
        self.n = n
    @functools.cached_property
    def begin(self):
        return self.n + 1
class Head(torch.nn.Module):
    def forward(self, x):
        tokenizer = Tokenizer(x.shape[-1] // 2)  # built here: nothing cached yet
        return x[..., : tokenizer.begin]  # expect
""",
    ]
