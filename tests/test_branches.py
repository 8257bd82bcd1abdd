"""Names an `if` binds (semantic.branches): what each path leaves, merged after the `if`.
Each case pairs with a corpus case Dynamo confirms (xf_branch_keeps_tensor_01,
clean_branch_replaced_tensor_01)."""

from helpers import lint_snippet


def _lines(findings):
    return sorted(f.line for f in findings if f.code == "CL102")


def test_a_tensor_a_path_keeps_stays_a_tensor(tmp_path):
    findings = lint_snippet(tmp_path, """
        import torch
        class M(torch.nn.Module):
            def forward(self, x: torch.Tensor, dt: float = 0.5):
                accept = x.abs().max() <= 1
                if dt > 10.0:
                    accept = False
                if accept:
                    return x
                return -x
    """)
    assert _lines(findings) == [7]


def test_no_falling_through_path_keeps_the_tensor(tmp_path):
    findings = lint_snippet(tmp_path, """
        import torch
        class M(torch.nn.Module):
            def forward(self, x: torch.Tensor, fixed: bool = True):
                total = x.sum()
                if fixed:
                    total = 1.0
                else:
                    total = 2.0
                limit = x.max()
                if fixed:
                    limit = 0.5
                else:
                    return x
                if total > 0.5 and limit > 0.1:
                    return x * 2
                return x
    """)
    assert _lines(findings) == []


def test_skipping_an_isinstance_check_means_no_tensor(tmp_path):
    findings = lint_snippet(tmp_path, """
        import torch
        def count(n):
            if isinstance(n, torch.Tensor):
                n = int(n.shape[0])
            if n > 2:
                return 2
            return 1
        class M(torch.nn.Module):
            def forward(self, x: torch.Tensor):
                return x * count(x)
    """)
    assert _lines(findings) == []


def test_an_isinstance_and_a_condition_does_not_narrow_the_skipping_path(tmp_path):
    findings = lint_snippet(tmp_path, """
        import torch
        def count(n):
            if isinstance(n, torch.Tensor) and n.dim() != 1:
                raise ValueError("one dimension")
            if n.sum() > 2:
                return 2
            return 1
        class M(torch.nn.Module):
            def forward(self, x: torch.Tensor):
                return x * count(x)
    """)
    assert _lines(findings) == [5]

