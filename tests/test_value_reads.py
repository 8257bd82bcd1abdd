"""What a value is, against Dynamo. A class a function defines is a class (its `forward` is a
method, compiled with the module: corpus `xf_nested_module_class_01`). A `torch.nn` class picked by
a computed name, `getattr(nn, rnn_type)(...)`, is an RNN when the call passes what only RNNs take
or fills an attribute named as one with what no cell takes (`xf_picked_rnn_01`), and not an
activation or a cell. A name bound to a legacy constructor's result, `torch.LongTensor([n])`, is a
tensor, not an object of a class `torch.LongTensor` (`xf_legacy_tensor_name_01`). A reduction's
named result (`torch.max(t, 0).values`) is a tensor, whose elements a `*` unpacks into sizes of
whatever the helper was handed (`xf_starred_size_tensor_01`). Sizes a comprehension builds from a
tensor's rows are tensors (`xf_element_list_sizes_01`), and a comprehension walking a tensor binds
its elements (`xf_comprehension_element_index_01`). Each file marks the lines Dynamo breaks at
`# BREAK`, and the check must report exactly those."""

import pytest
import torch

from compilelint.probe.observe import observe
from helpers import break_marks, imported, package_findings

NESTED = '''
import torch
from torch import nn


def build(width):
    class Scorer(nn.Module):
        def __init__(self):
            super().__init__()
            self.lin = nn.Linear(width, 1)
            self.scale = 2.0

        def forward(self, x):
            if width > 2:
                x = x + 1
            if self.scale > 1:
                x = x * self.scale
            if self.lin(x).sum() > 0:  # BREAK
                x = x * 2
            return x

    return Scorer()


class Model(nn.Module):
    def __init__(self):
        super().__init__()
        self.scorer = build(4)

    def forward(self, x):
        return self.scorer(x)
'''

PICKED = '''
import torch
from torch import nn


class Picked(nn.Module):
    def __init__(self, rnn_type, cell_type, activation):
        super().__init__()
        self.rnn = getattr(nn, rnn_type)(4, 8, batch_first=True, dropout=0.0)
        self.rnn_cell = getattr(nn, cell_type)(8, 8)
        self.act = getattr(nn, activation)()

    def forward(self, x):
        h = self.act(x[:, 0, :4].repeat(1, 2))
        h = self.rnn_cell(h, h)
        out, _ = self.rnn(x)  # BREAK
        return out[:, -1] + h


class Model(nn.Module):
    def __init__(self):
        super().__init__()
        self.picked = Picked("GRU", "GRUCell", "Tanh")

    def forward(self, x):
        return self.picked(x)
'''

LEGACY = '''
import torch
from torch import nn


class Model(nn.Module):
    def forward(self, x, counts=None):
        if counts is None:
            counts = torch.LongTensor([x.shape[1]] * x.shape[0])
        if counts.shape[0] != x.shape[0]:
            raise ValueError("one count per row")
        if counts.max() == 0:  # BREAK
            return x.mean(1)
        return x.sum(1)
'''


@pytest.mark.parametrize("name, text, shape", [("nested", NESTED, (2, 4)), ("picked", PICKED, (2, 3, 4)),
                                               ("legacy", LEGACY, (2, 3))])
def test_the_check_reports_where_dynamo_breaks(tmp_path, name, text, shape):
    files = {"model.py": text}
    assert package_findings(tmp_path, f"{name}_pkg", files) == break_marks(files)
    with imported(tmp_path, f"{name}_pkg.model") as mod:
        torch.manual_seed(0)
        obs = observe(mod.Model(), [((torch.randn(*shape),), {})], backend="eager", recapture=False)
        dynamo = {("model.py", b.line) for b in obs.capture.breaks if (b.file or "").endswith("model.py")}
    assert dynamo == break_marks(files)


STARRED = '''
import torch
from torch import nn


def expand_then_cat(tensors, dim=-1):
    shapes = [t.shape for t in tensors]
    widest = torch.max(torch.tensor(shapes), 0).values
    widest[dim] = -1
    first, second = tensors
    return torch.cat([first.expand(*widest), second], dim=dim)  # BREAK


def expand_ints(tensors, dim=-1):
    widest = [max(sizes) for sizes in zip(*(t.shape for t in tensors))]
    widest[dim] = -1
    first, second = tensors
    return torch.cat([first.expand(*widest), second], dim=dim)


class Model(nn.Module):
    def forward(self, x):
        u = x[..., :2] * 2
        return expand_ints([x[:1], u]) + 0, expand_then_cat([x[:1], u])
'''


def test_a_tensor_unpacked_into_sizes_breaks_whatever_the_receiver_is_known_as(tmp_path):
    """`first.expand(*widest)`, `first` an element of a list the helper is handed and `widest`
    a reduction's named result (`.values`): each element of the tensor is a size Python reads
    (tsl's `expand_then_cat`; corpus `xf_starred_size_tensor_01`); Python ints do not break."""
    files = {"model.py": STARRED}
    assert package_findings(tmp_path, "starred_pkg", files) == break_marks(files)
    with imported(tmp_path, "starred_pkg.model") as mod:
        obs = observe(mod.Model(), [((torch.randn(2, 4, 3),), {})], backend="eager", recapture=False)
        dynamo = {("model.py", b.line) for b in obs.capture.breaks if (b.file or "").endswith("model.py")}
    assert dynamo == break_marks(files)


ELEMENTS = '''
import torch
from torch import nn


class Model(nn.Module):
    def forward(self, features, image_sizes: torch.Tensor, counts: list[int]):
        split_sizes = [(h // 2) * (w // 2) for h, w in image_sizes]
        chunks = torch.split(features, split_sizes)  # BREAK
        spans = [n * 2 for n in counts]
        pieces = torch.split(features, spans)
        return chunks[0].sum() + pieces[0].sum()
'''


def test_sizes_a_comprehension_builds_from_a_tensors_rows_are_tensors(tmp_path):
    """`[(h // 2) * (w // 2) for h, w in image_sizes]`, `image_sizes` a tensor: each size is a
    0-d tensor Python reads (transformers' VLM patch mergers; corpus `xf_element_list_sizes_01`);
    the same comprehension over a list of ints gives ints."""
    files = {"model.py": ELEMENTS}
    assert package_findings(tmp_path, "elements_pkg", files) == break_marks(files)
    with imported(tmp_path, "elements_pkg.model") as mod:
        args = (torch.randn(6, 4), torch.tensor([[4, 4], [2, 4]]), [1, 2])
        obs = observe(mod.Model(), [(args, {})], backend="eager", recapture=False)
        dynamo = {("model.py", b.line) for b in obs.capture.breaks if (b.file or "").endswith("model.py")}
    assert dynamo == break_marks(files)


PICKS = '''
import itertools

import torch
from torch import nn


class Model(nn.Module):
    def __init__(self):
        super().__init__()
        self.register_buffer("perms", torch.tensor(list(itertools.permutations(range(2)))))

    def forward(self, loss_set):
        min_loss, best = torch.min(loss_set, dim=1)
        gathered = self.perms[best]
        rows = torch.tensor(list(itertools.permutations(range(2))))
        by_row = torch.stack([loss_set[:, row] for row in rows], dim=1)
        scaled = torch.stack([loss_set[0] * m for m in best], dim=0) + by_row.sum()
        picked = torch.stack([self.perms[m] for m in best], dim=0)  # BREAK
        ends = best + 1
        last = torch.stack([loss_set[i, n - 1] for i, n in enumerate(ends)])  # BREAK
        return min_loss.sum() + scaled.sum() + last.sum(), gathered, picked
'''


def test_a_comprehension_walking_a_tensor_indexes_with_its_elements(tmp_path):
    """`[self.perms[m] for m in best]` indexes with 0-d tensors, as the `for` loop it stands for
    (asteroid's PIT reordering; corpus `xf_comprehension_element_index_01`); a gather with the
    whole tensor, with each row of a tensor made of Python rows, or elements used as numbers, do
    not break."""
    files = {"model.py": PICKS}
    assert package_findings(tmp_path, "picks_pkg", files) == break_marks(files)
    with imported(tmp_path, "picks_pkg.model") as mod:
        obs = observe(mod.Model(), [((torch.randn(3, 2),), {})], backend="eager", recapture=False)
        dynamo = {("model.py", b.line) for b in obs.capture.breaks if (b.file or "").endswith("model.py")}
    assert dynamo == break_marks(files)


REBOUND = '''
import torch
from torch import nn


class Model(nn.Module):
    def forward(self, features, image_sizes: torch.Tensor, pairs: list[tuple[int, int]]):
        image_sizes = [(size[0] // 2, size[1] // 2) for size in image_sizes]
        tokens = [h * w for h, w in image_sizes]
        chunks = features.split(tokens)  # BREAK
        pairs = [(a // 2, b // 2) for a, b in pairs]
        spans = [a * b for a, b in pairs]
        return chunks[0].sum() + features.split(spans)[0].sum()
'''


def test_pairs_a_function_rebinds_a_tensor_to_hold_tensors(tmp_path):
    """`image_sizes = [(s[0] // p, s[1] // p) for s in image_sizes]` with `image_sizes` a tensor,
    then `[h * w for h, w in image_sizes]`: sizes that are tensors (Mistral3's patch merger; corpus
    `xf_element_list_sizes_02`); the same over Python pairs gives ints."""
    files = {"model.py": REBOUND}
    assert package_findings(tmp_path, "rebound_pkg", files) == break_marks(files)
    with imported(tmp_path, "rebound_pkg.model") as mod:
        args = (torch.randn(6, 4), torch.tensor([[4, 4], [2, 4]]), [(2, 2), (2, 4)])
        obs = observe(mod.Model(), [(args, {})], backend="eager", recapture=False)
        dynamo = {("model.py", b.line) for b in obs.capture.breaks if (b.file or "").endswith("model.py")}
    assert dynamo == break_marks(files)
