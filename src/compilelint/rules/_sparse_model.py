"""What CL153's model of a file holds (rules._sparse_flow fills it): what is sparse where, and
where each function first uses a sparse value."""

from __future__ import annotations

from dataclasses import dataclass, field

import libcst as cst

Labels = tuple  # `when` labels under which a value is sparse, () for always


@dataclass
class Use:
    """A function's first use of a sparse value on some path: the node to report, what it is."""

    node: cst.CSTNode
    qualname: str
    what: str
    holder: str
    when: Labels = ()
    # the `if`s around it (`self.training`...): the walk's own `when` says so for the file's
    # findings; the project phase, which reports without the walk, reads them here
    guards: Labels = ()


@dataclass
class Pass:
    """A call of a function the file does not define that hands it a sparse value."""

    node: cst.Call
    qualname: str  # the function making the call
    keys: tuple  # the positions and keywords of the sparse arguments


@dataclass
class FileSparse:
    functions: dict[str, cst.FunctionDef] = field(default_factory=dict)  # "f", "Cls.m"
    owner: dict[str, str] = field(default_factory=dict)  # qualname -> class name ("" for module level)
    members: dict[str, dict[str, str]] = field(default_factory=dict)  # class -> attr -> class built into it
    bases: dict[str, list[str]] = field(default_factory=dict)  # class -> its bases defined in the file
    attrs: dict[str, dict[str, Labels]] = field(default_factory=dict)  # class -> sparse attr -> labels
    params: dict[str, dict[str, Labels]] = field(default_factory=dict)  # qualname -> sparse param -> labels
    returns: set[str] = field(default_factory=set)  # functions returning a sparse tensor
    builds: set[str] = field(default_factory=set)  # of those, the ones returning one they build (the call breaks)
    consumes: dict[tuple[str, str], Labels | None] = field(default_factory=dict)  # (qualname, param)
    uses: dict[int, Use] = field(default_factory=dict)  # id(node) -> first use to report
    shadowed: set[int] = field(default_factory=set)  # id() of sparse products after a first use
    product_when: dict[int, Labels] = field(default_factory=dict)  # after one that holds in one mode
    imported: frozenset[str] = frozenset()  # names imported from the package that return a sparse tensor
    # id(call) -> the positions and keywords at which a call of a function the file does not
    # define passes a sparse value (CallEdge.sparse: the project phase follows it there)
    passes: dict[int, Pass] = field(default_factory=dict)

    def digest(self) -> tuple:
        """What the model decides, without the nodes: equal digests report the same."""
        return (tuple(sorted((c, tuple(sorted(a.items()))) for c, a in self.attrs.items())),
                tuple(sorted((q, tuple(sorted(p.items()))) for q, p in self.params.items())),
                tuple(sorted(self.returns)), tuple(sorted(self.builds)), tuple(sorted(self.consumes.items(), key=repr)),
                tuple(sorted((u.qualname, u.what, u.holder, u.when) for u in self.uses.values())),
                len(self.shadowed), tuple(sorted(self.product_when.values())), tuple(sorted(self.imported)),
                tuple(sorted((p.qualname, p.keys) for p in self.passes.values())))
