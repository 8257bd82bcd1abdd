"""The functions make_fixtures.py compiles: each makes Dynamo log one kind of record.

tests/test_dynamo_log_fixtures.py finds the lines it expects by their `# at:` markers.
The fixtures hold the line numbers they were made with: append new targets at the end,
never move the ones above (or make the fixtures again).
"""

import torch


def data_dependent_if(x):
    y = x * 2
    if y.sum() > 0:  # at:if (data-dependent branch)
        return y + 1
    return y - 1


def explicit_break(x):
    y = x + 1
    torch._dynamo.graph_break()  # at:explicit (explicit)
    return y * 2


def item(x):
    y = x * 2
    v = y.sum().item()  # at:item (Tensor.item)
    return y + v


def _helper(x):
    print("in helper")  # at:print (print, two user frames deep)
    return x


def calls_helper(x):
    return _helper(x + 1) * 2  # at:call (the call)


def break_in_loop(x):
    for i in range(3):  # at:loop (the loop)
        x = x + 1
        torch._dynamo.graph_break()  # at:loop-break (GB in a loop: a frame skip)
    return x


def scale(x, s):
    return x * s  # at:scale (recompiles once for a new float s, then s is dynamic)


def nonzero(x):
    y = x * 2
    return y.nonzero()  # at:nonzero (dynamic output shape)


def by_key(x, key):
    return x * len(key)  # at:by_key (a string argument: one recompile per new value, then the limit)
