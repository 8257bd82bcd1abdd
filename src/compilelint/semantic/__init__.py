"""The semantic model of one file, built in one walk, that rules read as `self.ctx`.

Parts, one job each: `imports` (qualified names), `classes` (bases, what `self.x`
holds), `bindings` (functions, parameters, what each name holds), `kinds` + `infer` (the
kind lattice and an expression's kind), `guards` (code that never runs compiled, and the
`when` of a branch), `loops`, `compiled` (compiled names and roots), `calls` (call
edges with argument kinds), `factories` (what a factory's result is), `entries` (methods user code calls with tensors), `ndarrays`; `walker` runs them and the rules; `project`
resolves across files what one file leaves open.

What a rule may ask (read-only):
  ctx.qualify(expr)          "torch.nn.functional.relu" for `F.relu`, None if unknown
  ctx.is_import(name)        the name is an import, not shadowed locally
  ctx.kind(expr)             Kind: TENSOR, LIKELY, VALUE, MODULE or UNKNOWN
  ctx.self_attr_kind(attr)   Kind of `self.<attr>` in the current method
  ctx.function               FunctionScope (qualname, class_name, params, loops,
                             is_forward, node) or None at module level
  ctx.loops                  loops around the current node, innermost last
  ctx.compiled_state(expr) / ctx.compiled_callable(expr)
  ctx.compiling_guard(test)  True / False / None for `is_compiling()` tests
  ctx.ndarray_names()        local names bound to NumPy arrays
  ctx.element_class(expr), ctx.class_table, ctx.settings
and report through `Rule.report`.
"""
