"""Where a frame first reads an RNN module (CL119's helper): Dynamo refuses `nn.LSTM`/`GRU`/
`RNN` when the frame first touches it — `self.lstm.num_layers`, `isinstance(self.rnn, ...)`,
`lstm.input_size` of a parameter annotated `lstm: nn.LSTM` — so that read, not the call
after it, is where the graph breaks."""

import libcst as cst

from compilelint.rules._module_classes import callee_class, either_class, library_base
from compilelint.semantic.kinds import not_optional

WRAP_REFUSED = "GB0014"  # an RNN module: refused where the frame first reads it, not only called


def refused(entry) -> bool:
    return entry is not None and entry.form == "instance" and entry.gb_id == WRAP_REFUSED


class RnnReads:
    """Per function: the blocks each read of an RNN module so far was in, the parameters an
    RNN class annotates and the `self.` attributes an isinstance chain pins."""

    def __init__(self, ctx, known) -> None:
        self.ctx, self.known = ctx, known
        self._reads: list[dict[str, list[tuple[cst.CSTNode, ...]]]] = [{}]
        self.params: list[dict[str, str]] = [{}]  # parameter -> the RNN class annotating it
        self.tested: list[dict[str, tuple[str, ...]]] = [{}]  # `self.x` -> the classes an isinstance chain pins
        self.blocks: list[cst.CSTNode] = []  # the blocks (bodies) around the node walked
        self.holders = None  # the file's RNN holders (rules._rnn_walks.RnnHolders), set at the module

    def enter(self, node: cst.FunctionDef) -> None:
        self._reads.append({})
        self.params.append(self._annotated(node))
        self.tested.append({})

    def leave(self) -> None:
        self._reads.pop()
        self.params.pop()
        self.tested.pop()

    def _annotated(self, node: cst.FunctionDef) -> dict[str, str]:
        found = {}
        params = node.params
        for param in (*params.posonly_params, *params.params, *params.kwonly_params):
            if param.annotation is not None:
                cls = self.ctx.qualify(not_optional(param.annotation.annotation))
                if refused(self.known.get(cls)):
                    found[param.name.value] = cls
        return found

    def first_read(self, func: cst.BaseExpression) -> bool:
        """`self.x` (or an annotated parameter) not read before on every path here: no earlier
        read in this block or one around it (a read in the `if` branch does not cover the
        `elif` one)."""
        if isinstance(func, cst.Name) and func.value in self.params[-1]:
            key = "(parameter)" + func.value
        elif isinstance(func, cst.Attribute) and isinstance(func.value, cst.Name) and func.value.value == "self":
            key = func.attr.value
        else:
            return True
        here, reads = tuple(self.blocks), self._reads[-1].setdefault(key, [])
        if any(len(seen) <= len(here) and all(a is b for a, b in zip(seen, here)) for seen in reads):
            return False
        reads.append(here)
        return True

    def read(self, node: cst.Attribute):
        """(what, knowledge entry, when) when `node` is the frame's first read of an RNN module:
        `self.lstm.num_layers`, `self.rnn.flatten_parameters()`, `isinstance(self.rnn, nn.LSTM)`,
        `lstm.input_size` of an annotated parameter, `self.lstm_critic is not None` where
        `__init__` sets it to None or, under an `if`, to an LSTM (`when`: set:self.lstm_critic)."""
        scope, ctx, known = self.ctx.function, self.ctx, self.known
        if not (isinstance(node.value, cst.Name) and scope is not None):
            return None
        if node.value.value != "self":
            cls = self.params[-1].get(node.value.value)
            if cls is None or not self.first_read(node.value):
                return None
            what = f"reading `{node.value.value}.{node.attr.value}` of an `nn.{cls.rsplit('.', 1)[-1]}`"
            return what, known.get(cls), ()
        if not scope.class_name:
            return None
        classes, when = either_class(ctx, known, node, library_base(ctx, known, callee_class(ctx, known, node))), ()
        if known.get(classes[0]) is None:  # (`rnn: nn.Module`: what `if isinstance(...)` ... `else: raise` leaves)
            classes = [library_base(ctx, known, c) for c in self.tested[-1].get(node.attr.value, ())]
        if not classes and self.holders is not None \
                and (optional := self.holders.optional(ctx, known, scope.class_name, node.attr.value)):
            classes, when = [optional], (f"set:self.{node.attr.value}",)  # `None`, or an LSTM built under an `if`
        entries = [known.get(c) for c in classes]
        if not (entries and all(refused(e) for e in entries) and self.first_read(node)):
            return None
        what = f"reading `self.{node.attr.value}`, an " + " or ".join(f"`nn.{c.rsplit('.', 1)[-1]}`" for c in classes)
        return what + ",", entries[0], when
