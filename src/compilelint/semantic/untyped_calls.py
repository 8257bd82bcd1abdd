"""`obj.method(...)` on a local or parameter nothing types: which names may stand for a
project method. The project resolves such a call to the one family of project classes that
define `method` (index_many._family: overrides of one base's method, in the caller's package);
torchphysics' condition calls `x.track_coord_gradients()` on the `Points` its sampler returned.

A name that a tensor, an array, a builtin container or string, a module, an optimizer, a
distribution, a logger or a file answers is left alone: the receiver is likelier one of those
(`dist.sample()`, `opt.step()`, `parts.append(x)`) than the project's namesake."""

from __future__ import annotations

from compilelint.semantic.tensor_api import TENSOR_API

_BUILTIN_METHODS = frozenset(name for kind in (list, dict, str, set, frozenset, tuple, bytes, int, float, complex)
                             for name in dir(kind) if not name.startswith("_"))
_NDARRAY_METHODS = frozenset({
    "argpartition", "astype", "base", "byteswap", "choose", "compress", "conjugate", "copy", "ctypes", "dump",
    "dumps", "fill", "flags", "flat", "getfield", "partition", "searchsorted", "setfield", "setflags", "strides",
    "to_device", "tobytes", "tofile",
})
_MODULE_METHODS = frozenset({  # (and its `register_*` hooks: `project_method_name`)
    "add_module", "apply", "bfloat16", "buffers", "children", "compile", "cpu", "cuda", "double", "eval",
    "extra_repr", "float", "forward", "get_buffer", "get_extra_state", "get_parameter", "get_submodule", "half",
    "load_state_dict", "modules", "named_buffers", "named_children", "named_modules", "named_parameters",
    "parameters", "requires_grad_", "set_extra_state", "set_submodule", "share_memory", "state_dict", "to",
    "to_empty", "train", "type", "zero_grad",
})
# torch.distributions, torch.optim, logging, files, gym environments, scikit-learn and pandas objects
_OTHER_APIS = frozenset({
    "cdf", "entropy", "enumerate_support", "expand", "icdf", "log_prob", "mean", "mode", "perplexity", "rsample",
    "sample", "sample_n", "stddev", "variance", "add_param_group", "step", "debug", "info", "warning", "warn",
    "error", "exception", "critical", "log", "isEnabledFor", "setLevel", "addHandler", "removeHandler", "write",
    "read", "readline", "readlines", "flush", "close", "open",
    "seek", "tell", "reset", "render", "fit", "predict", "predict_proba", "transform", "fit_transform",
    "inverse_transform", "score", "groupby", "iterrows", "merge", "to_numpy", "to_dict", "to_list", "run",
    "start", "stop", "wait", "result", "submit", "send", "recv", "acquire", "release", "update", "get", "set",
})
_LEFT_ALONE = TENSOR_API | _BUILTIN_METHODS | _NDARRAY_METHODS | _MODULE_METHODS | _OTHER_APIS


def project_method_name(name: str) -> bool:
    """`name`, called on an untyped local, may be the project's own method."""
    return not name.startswith(("__", "register_")) and name not in _LEFT_ALONE
