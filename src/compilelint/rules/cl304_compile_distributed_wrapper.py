import libcst as cst

from compilelint.semantic.kinds import dotted
from compilelint.rules._callsite import arg_value, has_star_kwargs, is_compile_call
from compilelint.rules.base import Rule

FSDP1 = frozenset({
    "torch.distributed.fsdp.FullyShardedDataParallel",
    "torch.distributed.fsdp.fully_sharded_data_parallel.FullyShardedDataParallel",
})


class CompileDistributedWrapper(Rule):
    code = "CL304"
    name = "compile-distributed-wrapper"
    summary = "compiling a DDP/FSDP wrapper where that is wrong"
    message = ("`torch.compile` with an FSDP (v1) wrapper built without `use_orig_params=True`: Dynamo only "
               "supports FSDP with use_orig_params=True, so nothing is compiled (2.4-2.6: an AssertionError)")
    severity = "error"
    gb_id = "GB0053"
    help = ("Build the wrapper with `FullyShardedDataParallel(model, use_orig_params=True, ...)` and compile "
           "it, or move to FSDP2 (`torch.distributed.fsdp.fully_shard`), which composes with torch.compile.")
    region_only = False

    VALID = [
        """
import torch
from torch.distributed.fsdp import FullyShardedDataParallel as FSDP
from torch.nn.parallel import DistributedDataParallel as DDP
def build(model, kwargs):
    sharded = FSDP(model, device_id=torch.device("cuda"), use_orig_params=True)
    a = torch.compile(sharded)
    b = torch.compile(DDP(model))  # DDP: supported (DDPOptimizer splits at buckets)
    c = DDP(torch.compile(model))
    d = torch.compile(FSDP(model, **kwargs))  # unknown options: not flagged
    e = FSDP(model)  # not compiled
    return a, b, c, d, e
""",
        """
import torch
from torch.distributed.fsdp import fully_shard
def build(model):
    for layer in model.layers:
        fully_shard(layer)
    fully_shard(model)
    return torch.compile(model)  # FSDP2
""",
    ]
    INVALID = [
        """
import torch
from torch.distributed.fsdp import FullyShardedDataParallel as FSDP
def build(model):
    sharded = FSDP(model, device_id=torch.device("cpu"), use_orig_params=False)
    return torch.compile(sharded)  # expect
""",
        """
import torch
import torch.distributed.fsdp as fsdp
def build(model):
    wrapped = fsdp.FullyShardedDataParallel(torch.compile(model))  # expect
    model2 = fsdp.FullyShardedDataParallel(Net())
    model2.compile(mode="max-autotune")  # expect
    return torch.compile(fsdp.FullyShardedDataParallel(Net(), sync_module_states=True))  # expect
""",
    ]

    def __init__(self, walker) -> None:
        super().__init__(walker)
        self._wrappers: dict[str, set[str]] = {}  # scope -> names holding an FSDP1 without orig params

    def _scope(self) -> str:
        return self.ctx.function.qualname if self.ctx.function else "<module>"

    def _fsdp_without_orig_params(self, node: cst.BaseExpression) -> bool:
        if isinstance(node, cst.Call):
            if (self.ctx.qualify(node.func) or "") not in FSDP1 or has_star_kwargs(node):
                return False
            value = arg_value(node, 99, "use_orig_params")
            return value is None or (isinstance(value, cst.Name) and value.value == "False")
        name = dotted(node)
        return name is not None and name in self._wrappers.get(self._scope(), ())

    def visit_Assign(self, node: cst.Assign) -> None:
        bad = self._fsdp_without_orig_params(node.value)
        if not bad and not self._wrappers.get(self._scope()):
            return
        for target in node.targets:
            name = dotted(target.target)
            if name is None:
                continue
            names = self._wrappers.setdefault(self._scope(), set())
            if bad:
                names.add(name)
            else:
                names.discard(name)

    def visit_Call(self, node: cst.Call) -> None:
        func = node.func
        qualified = self.ctx.qualify(func) or ""
        if qualified == "torch.compile" and node.args:
            if self._fsdp_without_orig_params(node.args[0].value):
                self.report(node)
            return
        if isinstance(func, cst.Attribute) and func.attr.value == "compile" \
                and not any(a.keyword is None for a in node.args) and self._fsdp_without_orig_params(func.value):
            self.report(node)
            return
        if qualified in FSDP1 and node.args and self._fsdp_without_orig_params(node):
            inner = node.args[0].value
            if is_compile_call(self.ctx, inner) or self.ctx.compiled_callable(inner) is not None:
                self.report(node, "an FSDP (v1) wrapper without `use_orig_params=True` around a compiled module: "
                                  "Dynamo refuses FSDP-managed modules built that way, so nothing is compiled "
                                  "(2.4-2.6: an AssertionError)")
