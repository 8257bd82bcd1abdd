"""Parameters the function fills in when the caller leaves them None:

    def sequence_mask(lengths, maxlen=None):
        if maxlen is None:
            maxlen = lengths.max()
        return torch.arange(maxlen) < lengths[:, None]

After the `if`, `maxlen` is a tensor only on a call that left it None (or passed a tensor
itself): a finding that reads it as a tensor holds only on such calls. The walk labels it
`given:maxlen~None` (`finding.DEFAULTED`); the project phase checks the label against every
compiled call site (`project_rules.callsites`), so `sequence_mask(n, maxlen=x.shape[1])`
rules it out and `sequence_mask(n)` keeps it.
"""

from __future__ import annotations

import libcst as cst

from compilelint.finding import DEFAULTED
from compilelint.semantic.facts import compared_with_none, facts_of
from compilelint.semantic.kinds import Kind
from compilelint.traverse import iter_nodes


def _none_test(test: cst.BaseExpression) -> str | None:
    """NAME for `NAME is None` (or `None is NAME`)."""
    if isinstance(test, cst.Comparison) and len(test.comparisons) == 1 \
            and isinstance(test.comparisons[0].operator, cst.Is):
        tested = compared_with_none(test.left, test.comparisons[0].comparator)
        return tested.value if isinstance(tested, cst.Name) else None
    return None


class DefaultedParams:
    """Walker part: `defaulted_blocks` (id(`if NAME is None:` body) -> NAME), `defaulting`
    (the (scope, NAME) blocks being walked), `defaulted` (id(scope) -> names whose binding
    now is the one made in such a block) and `defaulted_seen` (those a rule read as tensors
    in the handler running now)."""

    def enter_If(self, node: cst.If) -> None:
        scope = self.function
        name = _none_test(node.test) if scope is not None else None
        if name is None or scope.env.get(name, Kind.UNKNOWN).tensorish:
            return  # (a parameter typed or taken as a tensor is one whatever the caller passes)
        facts = facts_of(scope)
        if facts is not None and facts.defaults.get(name) == "none":  # (a parameter defaulting to None)
            self.defaulted_blocks[id(node.body)] = name

    def enter_IndentedBlock(self, node: cst.IndentedBlock) -> None:
        name = self.defaulted_blocks.get(id(node))
        if name is not None:
            self.defaulting.append((id(self.function), name))

    def exit_IndentedBlock(self, node: cst.IndentedBlock) -> None:
        if self.defaulted_blocks.pop(id(node), None) is not None:
            self.defaulting.pop()

    enter_SimpleStatementSuite = enter_IndentedBlock  # `if maxlen is None: maxlen = ...` on one line
    exit_SimpleStatementSuite = exit_IndentedBlock

    def exit_Assign(self, node: cst.Assign) -> None:
        for target in node.targets:
            if isinstance(target.target, cst.Name):
                self._defaulted_bind(target.target.value)

    def exit_AnnAssign(self, node: cst.AnnAssign) -> None:
        if isinstance(node.target, cst.Name) and node.value is not None:
            self._defaulted_bind(node.target.value)

    def _defaulted_bind(self, name: str) -> None:
        scope = self.function
        if scope is None:
            return
        names = self.defaulted.setdefault(id(scope), set())
        if (id(scope), name) in self.defaulting and scope.env.get(name, Kind.UNKNOWN).tensorish:
            names.add(name)
        else:
            names.discard(name)

    def defaulted_read(self, scope, name: str, kind: Kind) -> Kind:
        """`kind` of `name` as `Bindings.name_kind` found it; notes a tensor that holds only
        when the caller left the parameter None."""
        if kind.tensorish and scope is self.function and name in self.defaulted.get(id(scope), ()):
            self.defaulted_seen.add(name)
        return kind

    def defaulted_label(self, node: cst.CSTNode) -> str | None:
        """The `given:` label of a finding at `node` whose tensor is such a parameter."""
        names = sorted(name for name in self.defaulted_seen
                       if any(isinstance(n, cst.Name) and n.value == name for n in iter_nodes(node)))
        return "given:" + "|".join(name + DEFAULTED for name in names) if names else None
