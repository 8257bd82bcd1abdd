"""Compiled regions and the walker's scoping, through the engine."""

from helpers import lint_snippet


def codes_by_line(findings):
    return {(f.line, f.code) for f in findings}


def test_decorator_calls_belong_to_the_definition_site_not_the_function(tmp_path):
    findings = lint_snippet(tmp_path, """
        import logging
        import torch
        logger = logging.getLogger(__name__)
        def hub(name):
            logger.warning("loading %s", name)
            return lambda f: f
        @hub("rope")
        def rope(x, n=print("default")):
            return x
        class M(torch.nn.Module):
            def forward(self, x):
                return rope(x)
    """)
    assert findings == []


def test_and_not_is_compiling_guard_is_eager_only(tmp_path):
    findings = lint_snippet(tmp_path, """
        import torch
        class M(torch.nn.Module):
            def forward(self, x, verbose=False):
                if verbose and not torch.compiler.is_compiling():
                    print("eager", x.sum().item())
                if torch.compiler.is_compiling() and verbose:
                    print("compiled")
                return x
    """)
    assert codes_by_line(findings) == {(7, "CL110")}


def test_mutating_the_module_a_compiled_wrapper_wraps(tmp_path):
    findings = lint_snippet(tmp_path, """
        import torch
        from torch import nn
        model = nn.Sequential(nn.Linear(2, 2))
        fast = torch.compile(model)
        def finetune():
            model.head = nn.Linear(2, 3)
            model(torch.randn(1, 2))
            fast.load_state_dict({})
    """)
    assert codes_by_line(findings) == {(6, "CL203"), (8, "CL301")}


def test_break_in_a_layer_called_from_a_loop_skips_the_calling_frame(tmp_path):
    findings = lint_snippet(tmp_path, """
        import torch
        from torch import nn
        class Layer(nn.Module):
            def forward(self, x):
                return x if x.sum() > 0 else -x
        class Model(nn.Module):
            def __init__(self):
                super().__init__()
                self.layers = nn.ModuleList([Layer() for _ in range(2)])
            def forward(self, x):
                for layer in self.layers:
                    x = layer(x)
                return x
    """)
    assert codes_by_line(findings) == {(5, "CL102"), (11, "CL150")}
