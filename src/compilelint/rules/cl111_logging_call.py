import libcst as cst

from compilelint.semantic.kinds import dotted
from compilelint.rules.base import Rule

LOG_METHODS = frozenset({
    "debug", "info", "warning", "warn", "error", "exception", "critical", "fatal", "log",
    "isEnabledFor", "warning_once", "info_once", "warning_advice",
})
FACTORIES = frozenset({"getLogger", "get_logger", "getChild", "Logger", "LoggerAdapter"})
# Names that, with nothing else known, almost always hold a logging.Logger.
LOGGER_NAMES = frozenset({"logger", "log", "LOGGER", "LOG", "_logger", "_log", "_LOGGER", "_LOG"})


class LoggingCall(Rule):
    code = "CL111"
    name = "logging-call"
    summary = "`logging.*` calls and logger methods"
    message = ("`{call}` in a compiled region: Dynamo does not trace logging calls (even when the "
               "level is off) and breaks the graph")
    severity = "error"
    gb_id = "GB0291"
    help = ("Move the log call out of the region, or make Dynamo skip it: add the method to "
           "`torch._dynamo.config.ignore_logging_functions` (e.g. `logging.Logger.info`), or put "
           "module functions like `logging.info` in `reorderable_logging_functions`.")
    breaks_graph = True

    VALID = [
        """
import logging
import torch
logger = logging.getLogger(__name__)
class M(torch.nn.Module):
    def __init__(self):
        super().__init__()
        logger.info("building")  # __init__ runs eagerly
    def forward(self, x):
        if not torch.compiler.is_compiling():
            logger.debug("shape %s", x.shape)
        return x
def train(model, x):
    logger.info("loss %s", model(x))  # not compiled
""",
        """
import torch
class MetricsLog:
    def info(self, *args):
        pass
class M(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.logger = MetricsLog()  # not a logging.Logger
        self.history = []
    def forward(self, x, log=None):
        self.logger.info("step")
        self.history.append(1)
        if log is not None:
            log.info("a parameter: its type is unknown")
        return x.log().exp()
class Child(M):
    def forward(self, x, log=None):
        self.logger.info("a base of this file set it: not a logging.Logger")
        return x
""",
    ]
    INVALID = [
        """
import logging
import torch
logger = logging.getLogger(__name__)
class M(torch.nn.Module):
    def forward(self, x):
        logger.warning("deprecated path")  # expect
        if logger.isEnabledFor(logging.DEBUG):  # expect
            logger.debug("x %s", x.shape)  # expect
        logging.info("module-level function")  # expect
        return x
""",
        """
import logging
import torch
from .utils import logger
class M(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.log = logging.getLogger("m")
    def forward(self, x):
        self.log.info("step")  # expect
        logger.warning_once("from another module")  # expect
        return x
""",
        """
import torch
from .base import Estimator  # (sets `self.logger = set_logger(...)` in its file)
class Affinity(Estimator, torch.nn.Module):
    def forward(self, x):
        self.logger.info("symmetrizing")  # expect
        return x + x.T
""",
    ]

    def __init__(self, walker) -> None:
        super().__init__(walker)
        self._module_loggers: set[str] = set()
        self._module_others: set[str] = set()
        self._local_loggers: dict[str, set[str]] = {}
        self._class_nodes: list[cst.ClassDef] = []
        self._class_attrs: dict[int, dict[str, bool]] = {}
        self._module: cst.Module | None = None

    def _is_factory(self, value: cst.BaseExpression) -> bool:
        if not isinstance(value, cst.Call):
            return False
        name = self.ctx.qualify(value.func) or dotted(value.func) or ""
        return name.rsplit(".", 1)[-1] in FACTORIES and ("log" in name.lower())

    # ---- bindings ----------------------------------------------------------------------

    def visit_Module(self, node: cst.Module) -> None:
        self._module = node  # (read when asked: an incremental walk splices the module's statements)

    def visit_ClassDef(self, node: cst.ClassDef) -> None:
        self._class_nodes.append(node)

    def leave_ClassDef(self, node: cst.ClassDef) -> None:
        self._class_nodes.pop()

    def visit_Assign(self, node: cst.Assign) -> None:
        factory = self._is_factory(node.value)
        for target in node.targets:
            if not isinstance(target.target, cst.Name):
                continue
            name = target.target.value
            if self.ctx.function is None:
                (self._module_loggers if factory else self._module_others).add(name)
            elif factory:
                self._local_loggers.setdefault(self.ctx.function.qualname, set()).add(name)

    def _self_attrs(self) -> dict[str, bool]:
        """attr -> True if some method of the class being walked assigns `self.attr = <logger
        factory>(...)`, False if it assigns something else."""
        return self._attrs_of(self._class_nodes[-1]) if self._class_nodes else {}

    def _attrs_of(self, cls: cst.ClassDef) -> dict[str, bool]:
        cached = self._class_attrs.get(id(cls))
        if cached is not None:
            return cached
        attrs: dict[str, bool] = {}
        rule = self

        class Finder(cst.CSTVisitor):
            def visit_ClassDef(self, node: cst.ClassDef) -> bool:
                return node is cls

            def visit_Assign(self, node: cst.Assign) -> None:
                for target in node.targets:
                    t = target.target
                    if isinstance(t, cst.Attribute) and isinstance(t.value, cst.Name) and t.value.value == "self":
                        attrs[t.attr.value] = attrs.get(t.attr.value, True) and rule._is_factory(node.value)

        cls.visit(Finder())
        self._class_attrs[id(cls)] = attrs
        return attrs

    # ---- calls -------------------------------------------------------------------------

    def _receiver_severity(self, receiver: cst.BaseExpression) -> str | None:
        if self._is_factory(receiver):
            return "error"  # logging.getLogger(__name__).info(...)
        if isinstance(receiver, cst.Name):
            name = receiver.value
            scope = self.ctx.function
            if scope is not None and name in scope.env:
                return "error" if name in self._local_loggers.get(scope.qualname, ()) else None
            if name in self._module_loggers:
                return "error"
            if name in self._module_others:
                return None
            if self.ctx.is_import(name):
                full = self.ctx.imports[name]
                if full.rsplit(".", 1)[-1] in LOGGER_NAMES:
                    return "warning"  # from .utils import logger
                return None
            return None
        if isinstance(receiver, cst.Attribute) and isinstance(receiver.value, cst.Name) \
                and receiver.value.value == "self":
            own, attr = self._self_attrs(), receiver.attr.value
            if attr in own:
                return "error" if own[attr] else None
            inherited = self._base_attrs(self._class_nodes[-1]) if self._class_nodes else {}
            if attr in inherited:  # a base of this file sets it: what it holds is known
                return "error" if inherited[attr] else None
            # set by a base class in another file (torchdr's `self.logger = set_logger(name)`)
            return "warning" if attr in LOGGER_NAMES else None
        return None

    def _base_attrs(self, cls: cst.ClassDef, depth: int = 0) -> dict[str, bool]:
        """What the class's bases defined in this file assign to `self.` attributes (the nearest
        base's first), as `_self_attrs` reads a class."""
        if depth > 8 or self._module is None:
            return {}
        classes = {s.name.value: s for s in self._module.body if isinstance(s, cst.ClassDef)}
        out: dict[str, bool] = {}
        for arg in cls.bases:
            base = classes.get(arg.value.value) if isinstance(arg.value, cst.Name) else None
            if base is None or base is cls:
                continue
            for attr, factory in {**self._base_attrs(base, depth + 1), **self._attrs_of(base)}.items():
                out.setdefault(attr, factory)
        return out

    def visit_Call(self, node: cst.Call) -> None:
        func = node.func
        if not isinstance(func, cst.Attribute) or func.attr.value not in LOG_METHODS:
            return
        qualified = self.ctx.qualify(func) or ""
        module, _, method = qualified.rpartition(".")
        if module == "logging" or module.endswith(".logging"):
            self.report(node, self.message.format(call=f"logging.{method}()"))
            return
        severity = self._receiver_severity(func.value)
        if severity is not None:
            receiver = dotted(func.value) or "logger"
            if len(receiver) > 30:
                receiver = "logger"
            self.report(node, self.message.format(call=f"{receiver}.{func.attr.value}()"), severity=severity)
