"""Knowledge from Dynamo, not from a library: one small compiled function per common call
(torch introspection, comparisons, NumPy, the standard library), each judged by Dynamo
(the probe's capture, backend "eager") and by the static pass; prints where they disagree.

    python benchmarks/knowledge_sweep.py            # the installed torch
    python benchmarks/knowledge_sweep.py --all      # every case, agreeing ones too

A disagreement is a candidate knowledge row (Dynamo breaks, no finding) or a false alarm
(a finding, no break); a row lands only with a corpus case confirmed on each release
(benchmarks/accuracy.py --only-labels). Results: benchmarks/RESULTS.md §24.
"""

from __future__ import annotations

import argparse
import importlib
import json
import os
import subprocess
import sys
import tempfile
import warnings

HEADER = """import collections, contextlib, copy, functools, hashlib, itertools, json, math, operator, os, pickle, random
import re, sys, threading, time, uuid, warnings, weakref
import numpy as np
try:
    import pandas as pd  # the pandas cases (a benchmark machine has it; CI may not)
except ImportError:
    pd = None
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch import distributions as D

torch.manual_seed(0)
ENC = nn.TransformerEncoder(nn.TransformerEncoderLayer(4, 2, 8, batch_first=True), 1).eval()
MHA = nn.MultiheadAttention(4, 2, batch_first=True).eval()
EMB_NORM = nn.Embedding(6, 4, max_norm=1.0)
SPECTRAL = nn.utils.spectral_norm(nn.Linear(4, 4))
WEIGHT_NORM = nn.utils.parametrizations.weight_norm(nn.Linear(4, 4))


@torch.jit.script
def JS(x):
    return x * 2


TRACED = torch.jit.trace(nn.Linear(4, 4), torch.randn(1, 4))


class Scaled(torch.autograd.Function):
    @staticmethod
    @torch.amp.custom_fwd(device_type="cpu")
    def forward(ctx, x):
        return x * 2

    @staticmethod
    @torch.autograd.function.once_differentiable
    @torch.amp.custom_bwd(device_type="cpu")
    def backward(ctx, grad):
        return grad * 2


@torch.compiler.disable
def DISABLED(x):
    return x * 2


@torch.fx.wrap
def FX_WRAPPED(x):
    return x * 2


class Ignored(nn.Module):
    @torch.jit.ignore
    def helper(self, x):
        return x * 2

    def forward(self, x):
        return self.helper(x)


IGNORED = Ignored()
SEQ = nn.Sequential(nn.Linear(4, 4), nn.ReLU(), nn.Linear(4, 4))
SOBOL = torch.quasirandom.SobolEngine(2, scramble=True, seed=0)
SPARSE = torch.eye(4).to_sparse_coo()  # an adjacency kept sparse (a module's buffer)
SPARSE_CSR = torch.eye(4).to_sparse_csr()
"""

# name -> statements (`; `-separated) that compute `y` from the input `x` (a float tensor of 4)
CASES = {
    "tracing_state": "y = x * 2 if torch._C._get_tracing_state() is None else x",
    "jit_is_tracing": "y = x * 2 if not torch.jit.is_tracing() else x",
    "jit_is_scripting": "y = x * 2 if not torch.jit.is_scripting() else x",
    "onnx_export": "y = x * 2 if not torch.onnx.is_in_onnx_export() else x",
    "fx_tracing": "y = x * 2 if not torch.fx._symbolic_trace.is_fx_tracing() else x",
    "cuda_available": "y = x * 2 if torch.cuda.is_available() else x",
    "manual_seed": "torch.manual_seed(0); y = x * 2",
    "get_rng_state": "s = torch.get_rng_state(); y = x * 2",
    "generator": "g = torch.Generator(); y = x * 2",
    "data_ptr": "y = x * (x.data_ptr() % 2)",
    "untyped_storage": "y = x * (x.untyped_storage().nbytes())",
    "storage_offset": "y = x * x.storage_offset()",
    "is_same_size": "y = x * 2 if x.is_same_size(x) else x",
    "autograd_grad": "z = x.detach().requires_grad_(); y = torch.autograd.grad((z * z).sum(), z, create_graph=True)[0]",
    "is_grad_enabled": "y = x * 2 if torch.is_grad_enabled() else x",
    "deterministic": "y = x * 2 if torch.are_deterministic_algorithms_enabled() else x",
    "dist_init": "y = x * 2 if torch.distributed.is_available() and torch.distributed.is_initialized() else x",
    "autocast_enabled": "y = x * 2 if torch.is_autocast_enabled() else x",
    "set_grad": "torch.set_grad_enabled(False); y = x * 2; torch.set_grad_enabled(True)",
    "assert_close": "torch.testing.assert_close(x, x); y = x * 2",
    "allclose": "y = x * 2 if torch.allclose(x, x) else x",
    "allclose_method": "y = x * 2 if x.allclose(x) else x",
    "equal_method": "y = x * 2 if x.equal(x) else x",
    "isclose_all": "y = x * 2 if torch.isclose(x, x).all() else x",
    "tensor_of_list": "y = torch.tensor([x.shape[0], 2]) + x.sum()",
    "tensor_of_tensors": "y = torch.tensor([x[0], x[1]])",
    "os_environ": "y = x * 2 if os.environ.get('FOO') else x",
    "os_getenv": "y = x * 2 if os.getenv('FOO') else x",
    "threading": "y = x * (threading.get_ident() % 2)",
    "uuid": "u = uuid.uuid4(); y = x",
    "hashlib": "h = hashlib.md5(b'a').hexdigest(); y = x",
    "json_dumps": "s = json.dumps({'a': 1}); y = x",
    "json_loads": "d = json.loads('{\"a\": 2}'); y = x * d['a']",
    "pickle_dumps": "s = pickle.dumps(3); y = x",
    "re_match": "y = x * 2 if re.match('a', 'abc') else x",
    "fstring_tensor": "s = f'{x}'; y = x",
    "weakref": "r = weakref.ref(x); y = x",
    "id_call": "y = x * (id(x) % 2)",
    "hash_tensor": "y = x * (hash(x) % 2)",
    "copy_copy": "y = copy.copy(x)",
    "math_funcs": "y = x * math.sqrt(2.0) * math.log(3.0)",
    "itertools_chain": "y = sum(itertools.chain([x], [x]))",
    "functools_reduce": "y = functools.reduce(lambda a, b: a + b, [x, x])",
    "deque": "d = collections.deque([x]); y = d.pop()",
    "np_prod_shape": "y = x * np.prod(x.shape)",
    "np_interp": "y = x * float(np.interp(0.5, [0.0, 1.0], [0.0, 10.0]))",
    "np_isin": "y = torch.as_tensor(np.isin(x.numpy(), np.array([0.0, 0.5])))",
    "np_polyval": "y = x + np.polynomial.polynomial.polyval(2.0, [1.0, 2.0])",
    "randperm": "y = x[torch.randperm(x.shape[0])]",
    "bernoulli": "y = x * torch.bernoulli(torch.full_like(x, 0.5))",
    "multinomial": "y = torch.multinomial(x.abs() + 0.1, 2)",
    "searchsorted": "y = torch.searchsorted(torch.tensor([0.0, 0.5]), x)",
    "unique_consecutive": "y = torch.unique_consecutive(x)",
    "bincount": "y = torch.bincount((x.abs() * 3).long())",
    "histc": "y = torch.histc(x, bins=4)",
    "masked_scatter": "y = x.masked_scatter(x > 0, x)",
    "index_put_bool": "y = x.clone(); y[y > 0] = 0",
    "lstsq": "y = torch.linalg.lstsq(torch.eye(2) + 1, x[:2, None]).solution",
    "linalg_eigh": "y = torch.linalg.eigh(x[:2, None] @ x[None, :2])[0]",
    "isnan_any_if": "y = x if torch.isnan(x).any() else x * 2",
    "is_nonzero": "y = x * 2 if x.sum().is_nonzero() else x",
    "storage_offset_slice": "y = x[x.storage_offset():]",
    "checkpoint": "y = torch.utils.checkpoint.checkpoint(torch.sin, x, use_reentrant=False)",
    "nn_init": "w = torch.empty(2, 2); torch.nn.init.xavier_uniform_(w); y = x * w.sum()",
    "one_hot_no_classes": "y = torch.nn.functional.one_hot((x * 3).long())",
    "one_hot_classes": "y = torch.nn.functional.one_hot((x * 3).long(), 4)",
    "zeros_of_sum": "y = torch.zeros(int(x.sum() * 0) + 2)",
    "arange_tensor_end": "y = torch.arange((x.abs().sum() * 0 + 3).long())",
    "histogram": "y = torch.histogram(x, bins=4).hist",
    "quantile": "y = torch.quantile(x, 0.5)",
    "matrix_rank": "y = x * torch.linalg.matrix_rank(torch.eye(3))",
    "pinv": "y = torch.linalg.pinv(x[:2, None] @ x[None, :2])",
    "svd": "y = torch.linalg.svd(x[:2, None] @ x[None, :2]).S",
    "lobpcg": "y = torch.lobpcg(torch.eye(4) * 2 + 1, k=1)[0]",
    "tensor_apply_": "y = x.clone().apply_(lambda v: v * 2)",
    "tensor_map_": "y = x.clone().map_(x, lambda a, b: a + b)",
    "contains": "y = x * 2 if 0.5 in x else x",
    "nonzero_tuple": "y = x[torch.nonzero(x > 0.5, as_tuple=True)]",
    "argwhere": "y = torch.argwhere(x > 0.5)",
    "resize_": "y = x.clone().resize_(2)",
    "set_": "y = torch.empty(0).set_(x)",
    "data_assign": "z = x.clone(); z.data = x * 2; y = z",
    "cartesian_prod": "y = torch.cartesian_prod(x, x)",
    "combinations": "y = torch.combinations(x)",
    "block_diag": "y = torch.block_diag(*[x[:2, None], x[2:, None]])",
    "ctc_like_cumsum": "y = torch.cumsum(x, 0)",
    "embedding_bag": "y = torch.nn.functional.embedding_bag(torch.tensor([0, 1]), x[:, None].expand(4, 2), torch.tensor([0]))",
    "kthvalue": "y = torch.kthvalue(x, 2).values",
    "unique_counts": "y = torch.unique(x, return_counts=True)[1]",
    "tensor_split_tensor": "y = torch.tensor_split(x, torch.tensor([1, 3]))[0]",
    "split_sizes_tolist": "y = torch.split(x, (x.abs() * 0 + 2).long().tolist())[0]",
    "grad_attr": "y = x * 2 if x.grad is None else x",
    "version_attr": "y = x * x._version",
    "retain_grad": "z = x * 2; y = z",
    "tensor_iter": "y = sum(v for v in x)",
    "len_tensor": "y = x * len(x)",
    "int_shape": "y = x * int(x.shape[0])",
    "float_of_numel": "y = x * float(x.numel())",
    "sys_getsizeof": "y = x * sys.getsizeof(1)",
    "os_path": "y = x * 2 if os.path.exists('/tmp') else x",
    "time_perf": "t = time.perf_counter(); y = x",
    "random_seed": "random.seed(0); y = x",
    "np_seed": "np.random.seed(0); y = x",
    "torch_seed": "torch.seed(); y = x",
    "cuda_seed": "torch.cuda.manual_seed_all(0); y = x",
    # builtins on tensors
    "builtin_max": "y = max(x, x * 2)",
    "builtin_max_scalar": "y = x * max(x.sum(), 1.0)",
    "builtin_any": "y = x * 2 if any(x > 0.5) else x",
    "builtin_sorted": "y = torch.stack(sorted(x))",
    "builtin_list": "y = torch.stack(list(x))",
    "builtin_str_dtype": "y = x * 2 if str(x.dtype) == 'torch.float32' else x",
    "builtin_type_call": "y = x.type(torch.float64)",
    "tensor_type_str": "y = x * 2 if x.type() == 'torch.FloatTensor' else x",
    "getattr_torch": "y = getattr(torch, 'relu')(x)",
    # context managers and global settings
    "ctx_no_grad": "y = x * 2",
    "ctx_inference_mode": "y = x * 2",
    "ctx_fork_rng": "y = x * 2",
    "ctx_nullcontext": "y = x * 2",
    "ctx_catch_warnings": "y = x * 2",
    "set_default_dtype": "torch.set_default_dtype(torch.float32); y = x",
    "set_printoptions": "torch.set_printoptions(precision=3); y = x",
    "allow_tf32": "torch.backends.cuda.matmul.allow_tf32 = True; y = x",
    "pin_memory": "y = x.pin_memory() if torch.cuda.is_available() else x.share_memory_()",
    # distributions
    "normal_rsample": "y = D.Normal(x, torch.ones_like(x)).rsample()",
    "categorical_sample": "y = D.Categorical(logits=x).sample()",
    "bernoulli_sample": "y = D.Bernoulli(probs=x.sigmoid()).sample()",
    "kl_normal": "y = D.kl_divergence(D.Normal(x, 1.0), D.Normal(0.0, 1.0))",
    "gumbel_softmax": "y = F.gumbel_softmax(x, hard=True)",
    "validate_args": "y = D.Normal(x, torch.ones_like(x), validate_args=True).log_prob(x)",
    # library modules
    "transformer_encoder_eval_mask": "y = ENC(x.view(1, 1, 4), src_key_padding_mask=torch.zeros(1, 1, dtype=torch.bool))",
    "transformer_encoder_eval": "y = ENC(x.view(1, 1, 4))",
    "mha_eval": "y = MHA(x.view(1, 1, 4), x.view(1, 1, 4), x.view(1, 1, 4), need_weights=False)[0]",
    "embedding_max_norm": "y = EMB_NORM((x * 5).long())",
    "spectral_norm": "y = SPECTRAL(x)",
    "weight_norm": "y = WEIGHT_NORM(x)",
    "interpolate_scale_tensor": "y = F.interpolate(x.view(1, 1, 4), scale_factor=float(x.shape[0]) / 2)",
    "pad_list": "y = F.pad(x, [1, 1])",
    # vision and loss code
    "grid_sample": "g = F.affine_grid(torch.eye(2, 3)[None], [1, 1, 2, 2], align_corners=False); y = F.grid_sample(x.view(1, 1, 2, 2), g, align_corners=False)",
    "interpolate_antialias": "y = F.interpolate(x.view(1, 1, 2, 2), size=(1, 1), mode='bilinear', antialias=True)",
    "unfold": "y = F.unfold(x.view(1, 1, 2, 2), kernel_size=1)",
    "roll_fftshift": "y = torch.fft.fftshift(torch.roll(x, 1))",
    "meshgrid": "a, b = torch.meshgrid(x, x, indexing='ij'); y = a + b",
    "linspace_tensor_steps": "y = torch.linspace(0, 1, steps=int(x.shape[0]))",
    "topk_k_tensor": "y = x.topk(int(x.new_tensor(2).item())).values",
    "ctc_loss": "lp = x.view(2, 1, 2).log_softmax(-1); y = F.ctc_loss(lp, torch.tensor([[1]]), torch.tensor([2]), torch.tensor([1]))",
    "cross_entropy_smooth": "y = F.cross_entropy(x.view(2, 2), torch.tensor([0, 1]), ignore_index=-100, label_smoothing=0.1)",
    "bce_pos_weight": "y = F.binary_cross_entropy_with_logits(x, torch.ones_like(x), pos_weight=torch.ones_like(x))",
    "kl_div": "y = F.kl_div(x.log_softmax(0), x.softmax(0), reduction='batchmean')",
    "nms_loop": "order = x.argsort(descending=True); keep = []; keep.append(order[0]); y = torch.stack(keep)",
    "while_numel": "order = x.argsort(); y = x; while order.numel() > 2:\n    order = order[1:]",
    "scatter_reduce": "y = torch.zeros(2).scatter_reduce(0, torch.tensor([0, 1, 0, 1]), x, reduce='amax')",
    "index_add": "y = torch.zeros(2).index_add_(0, torch.tensor([0, 1, 0, 1]), x)",
    "masked_fill": "y = x.masked_fill(x > 0.5, 0.0)",
    "finfo_eps": "y = x + torch.finfo(x.dtype).eps",
    "autocast_bf16": "y = x * 2",
    "categorical_entropy": "y = D.Categorical(probs=x.softmax(0)).entropy()",
    "normalize": "y = F.normalize(x, dim=0)",
    "embedding_padding": "y = F.embedding(torch.tensor([0, 1]), x.view(2, 2), padding_idx=0)",
    "sort_stable": "y = torch.sort(x, stable=True).values",
    "clamp_tensor": "y = x.clamp(min=x.mean())",
    "expand_list": "y = x.view(1, 4).expand(*[3, 4])",
    # scripting, tracing and wrappers
    "jit_script_fn": "y = JS(x)",
    "jit_traced_module": "y = TRACED(x.view(1, 4))",
    "jit_ignore_method": "y = IGNORED(x)",
    "custom_fwd_function": "y = Scaled.apply(x)",
    "compiler_disable_call": "y = DISABLED(x)",
    "fx_wrap_call": "y = FX_WRAPPED(x)",
    "partial_call": "y = functools.partial(torch.add, alpha=2)(x, x)",
    "vmap": "y = torch.vmap(torch.sin)(x)",
    "func_grad": "y = torch.func.grad(lambda v: v.sin().sum())(x)",
    "checkpoint_sequential": "y = torch.utils.checkpoint.checkpoint_sequential(SEQ, 2, x.view(1, 4), use_reentrant=False)",
    "dynamo_graph_break": "y = x * 2; torch._dynamo.graph_break()",
    # torch's Python modules Dynamo skips (trace_rules.MOD_SKIPLIST) and look-alikes it traces
    "sobol_engine": "e = torch.quasirandom.SobolEngine(2); y = x * e.draw(1).sum()",
    "sobol_held": "y = x * SOBOL.draw(1).sum()",
    "masked_tensor": "m = torch.masked.masked_tensor(x, x > 0.5); y = x * 2",
    "as_masked_tensor": "m = torch.masked.as_masked_tensor(x, x > 0.5); y = x * 2",
    "masked_sum": "y = x * torch.masked.sum(x, 0, mask=x > 0.5)",
    "lobpcg": "y = torch.lobpcg(torch.diag(x + 1), k=1)[0]",
    "svd_lowrank": "y = torch.svd_lowrank(x.view(2, 2), q=1)[0]",
    "autograd_jacobian": "y = torch.autograd.functional.jacobian(torch.sin, x)",
    "nested_tensor": "n = torch.nested.nested_tensor([x, x]); y = x * 2",
    "jit_fork": "y = torch.jit.wait(torch.jit.fork(torch.sin, x))",
    "result_type": "y = x.to(torch.result_type(x, 1.0))",
    "can_cast": "y = x * 2 if torch.can_cast(torch.float32, torch.float64) else x",
    "share_memory": "y = x.clone().share_memory_()",
    "in_tensor": "y = x * 2 if 0.5 in x else x",
    "hash_tensor": "y = x * (hash(x) % 2)",
    "is_pinned": "y = x * 2 if x.is_pinned() else x",
    "trunc_normal": "y = nn.init.trunc_normal_(x.clone())",
    # products with a sparse operand (knowledge.py's row: the frame first reads SPARSE there)
    "spmm": "y = torch.spmm(SPARSE, x.view(4, 1)).view(4)",
    "smm": "y = torch.smm(SPARSE, x.view(4, 1)).to_dense().view(4)",
    "hspmm": "y = torch.hspmm(SPARSE, x.view(4, 1)).to_dense().view(4)",
    "sspaddmm": "y = torch.sspaddmm(SPARSE, SPARSE, x.view(4, 1).expand(4, 4)).to_dense().sum(0)",
    "sparse_mm": "y = torch.sparse.mm(SPARSE, x.view(4, 1)).view(4)",
    "sparse_addmm": "y = torch.sparse.addmm(x.view(4, 1), SPARSE, x.view(4, 1)).view(4)",
    "sparse_sum": "y = x * torch.sparse.sum(SPARSE)",
    "sparse_softmax": "y = x * torch.sparse.softmax(SPARSE, 1).to_dense().sum()",
    "sparse_log_softmax": "y = x * torch.sparse.log_softmax(SPARSE, 1).to_dense().sum()",
    "sparse_sampled_addmm": "y = torch.sparse.sampled_addmm(SPARSE_CSR, x.view(4, 1).expand(4, 4), x.view(1, 4).expand(4, 4)).to_dense().sum(0)",
    "dense_mm_lookalike": "y = torch.mm(torch.eye(4), x.view(4, 1)).view(4)",
    # stop 54: more of what model code calls
    "sorted_dict_items": "d = {'a': x, 'b': x * 2}; y = sum(v for _, v in sorted(d.items()))",
    "functional_call": "y = torch.func.functional_call(SEQ, dict(SEQ.named_parameters()), (x.view(1, 4),))",
    "cdist": "y = torch.cdist(x.view(1, 4, 1), x.view(1, 4, 1)).sum(-1).view(4)",
    "unique_dim": "y = torch.unique(x.view(2, 2), dim=0).sum() + x",
    "repeat_interleave_tensor": "y = torch.repeat_interleave(x, torch.tensor([1, 2, 1, 1]))",
    "np_asarray_tensor": "y = x * float(np.asarray(x).sum())",
    "from_numpy": "y = x + torch.from_numpy(np.ones(4, dtype=np.float32))",
    "register_hook": "z = x.detach().requires_grad_(); z.register_hook(lambda g: g * 2); y = z * 2",
    "stft": "y = torch.stft(x.repeat(4), n_fft=4, return_complex=True).abs().sum() + x",
    "set_num_threads": "torch.set_num_threads(1); y = x * 2",
    "get_num_threads": "y = x * torch.get_num_threads()",
    "set_detect_anomaly": "torch.autograd.set_detect_anomaly(False); y = x * 2",
    "cholesky_ex_info": "L, info = torch.linalg.cholesky_ex(torch.eye(4)); y = x * 2 if info == 0 else x",
    "view_as_complex": "y = torch.view_as_real(torch.view_as_complex(x.view(2, 2))).view(4)",
    "autograd_jacobian_lambda": "y = torch.autograd.functional.jacobian(lambda v: v.sin(), x).sum(0)",
    "trunc_normal_inplace": "z = torch.empty_like(x); nn.init.trunc_normal_(z); y = x + z",
    # pandas (knowledge.py's `pandas.*` row): on Dynamo's third-party skip list
    "pandas_dataframe": "df = pd.DataFrame({'a': [1, 2]}); y = x * 2",
    "pandas_series": "s = pd.Series([1.0, 2.0]); y = x * 2",
    "pandas_isna": "y = x * 2 if not pd.isna(1.0) else x",
    "pandas_concat": "df = pd.concat([pd.DataFrame({'a': [1]}), pd.DataFrame({'a': [2]})]); y = x * 2",
}


# cases whose body runs inside a `with` block
CONTEXTS = {
    "ctx_no_grad": "torch.no_grad()",
    "ctx_inference_mode": "torch.inference_mode()",
    "ctx_fork_rng": "torch.random.fork_rng()",
    "ctx_nullcontext": "contextlib.nullcontext()",
    "ctx_catch_warnings": "warnings.catch_warnings()",
    "autocast_bf16": "torch.autocast(device_type='cpu', dtype=torch.bfloat16)",
}


def write_module(folder: str) -> tuple[str, dict[str, range]]:
    lines = HEADER.splitlines() + ["", ""]
    spans: dict[str, range] = {}
    for name, body in CASES.items():
        lines += ["@torch.compile(backend=\"eager\")", f"def f_{name}(x: torch.Tensor):"]
        first = len(lines) + 1
        # (a statement may carry its own block: "while ...:\n        body", indented to match)
        statements = [row for stmt in body.split("; ") for row in stmt.split("\n")]
        if name in CONTEXTS:
            lines += [f"    with {CONTEXTS[name]}:"] + ["        " + stmt for stmt in statements]
        else:
            lines += ["    " + stmt for stmt in statements]
        spans[name] = range(first, len(lines) + 1)
        lines += ["    return y", "", ""]
    path = os.path.join(folder, "sweep_cases.py")
    with open(path, "w", encoding="utf-8") as fh:
        fh.write("\n".join(lines) + "\n")
    return path, spans


def dynamo(path: str) -> dict[str, list[tuple[int, str]] | str]:
    import torch

    from compilelint.probe.capture import capture

    sys.path.insert(0, os.path.dirname(path))
    mod = importlib.import_module("sweep_cases")
    out = {}
    for name in CASES:
        fn = getattr(mod, f"f_{name}")
        fn = getattr(fn, "_torchdynamo_orig_callable", fn)
        try:
            fn(torch.rand(4))
        except Exception as exc:  # a case that fails eagerly says nothing about Dynamo
            out[name] = f"fails eagerly: {type(exc).__name__}: {exc}"
            continue
        res = capture(fn, (torch.rand(4),))
        out[name] = sorted({(b.line, b.gb_id or b.kind) for b in res.breaks
                            if b.kind == "graph_break" and b.file == path})
    return out


def linter(path: str) -> list[tuple[int, str]]:
    proc = subprocess.run([sys.executable, "-m", "compilelint", "check", path, "--no-cache", "--format", "json",
                           "--exit-zero"], capture_output=True, text=True, check=True, cwd=os.path.dirname(path))
    doc = json.loads(proc.stdout)
    findings = doc if isinstance(doc, list) else doc["findings"]
    return [(f["line"], f["code"]) for f in findings]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--all", action="store_true", help="print agreeing cases too")
    args = parser.parse_args()
    warnings.filterwarnings("ignore")  # Dynamo's advice on each untraceable builtin
    import torch

    with tempfile.TemporaryDirectory() as folder:
        with open(os.path.join(folder, "pyproject.toml"), "w") as fh:
            fh.write("[tool.compilelint]\nroots = \"explicit\"\n")
        path, spans = write_module(folder)
        found = linter(path)
        breaks = dynamo(path)
    agree = 0
    print(f"torch {torch.__version__}: {len(CASES)} calls, each in its own compiled function")
    for name, span in spans.items():
        if isinstance(breaks[name], str):
            print(f"  {'CASE ERROR':11s} {name:22s} {breaks[name][:80]}")
            continue
        # graph-break rules only: CL2xx predict recompiles, CL3xx misuse of the compile API
        codes = sorted({code for line, code in found if line in span and code.startswith("CL1")})
        ids = sorted({gb for line, gb in breaks[name] if line in span})
        same = bool(codes) == bool(ids)
        agree += same
        if args.all or not same:
            verdict = "agree" if same else ("MISSED" if ids else "FALSE ALARM")
            print(f"  {verdict:11s} {name:22s} linter {','.join(codes) or '-':12s} Dynamo {','.join(ids) or '-'}")
    judged = sum(not isinstance(result, str) for result in breaks.values())
    print(f"agree on {agree} of {judged} (cases that fail eagerly left out)")


if __name__ == "__main__":
    main()
