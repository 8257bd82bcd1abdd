"""EvoTorch 0.6.1: evolutionary search on tiny vectorized problems, as a user's compiled step runs
it; tiny (solution length 6, popsize 8-16), random initial populations, no download, no Ray
(``num_actors`` left at its default ``None``):

- one generation (``searcher.step()``) of SNES, XNES, CEM, PGPE (ClipUp and Adam), CMAES (full
  and separable), GeneticAlgorithm (SimulatedBinaryCrossOver + GaussianMutation; OnePointCrossOver
  + PolynomialMutation), Cosyne, SteadyStateGA and MAPElites (a 2-feature grid) on an
  ``evotorch.Problem`` whose torch objective is vectorized (sphere / Rastrigin); ``Problem.evaluate``
  of a ``SolutionBatch`` on its own;
- the functional algorithms (``algorithms.functional``): ``cem`` / ``pgpe`` ask-tell generations and
  the ``adam`` / ``clipup`` / ``sgd`` optimizers stepped with ``torch.func.grad`` of a ``@rowwise``
  objective, as the namespace's docs do;
- the distributions: ``SymmetricSeparableGaussian`` (PGPE), ``SeparableGaussian`` (SNES),
  ``ExpGaussian`` (XNES), ``ExpSeparableGaussian``: ``sample`` then ``compute_gradients`` then
  ``update_parameters``; ``make_functional_sampler`` / ``make_functional_grad_estimator``;
- ``operators.functional``: ``tournament``, ``simulated_binary_cross_over``, one / two / multi-point
  cross-over, ``cosyne_permutation``, ``utility``, ``pareto_utility``, ``combine`` + ``take_best``;
  the operator classes (GaussianMutation, PolynomialMutation, SimulatedBinaryCrossOver,
  TwoPointCrossOver, CosynePermutation) applied to a ``SolutionBatch``;
- ``evotorch.tools``: ``rank`` (each ranking method), ``clip_tensor`` / ``modify_tensor``,
  ``constraints`` (``violation``, ``penalty``, ``log_barrier``);
- neuroevolution: ``str_to_net`` networks (with the ``Clip``, ``Bin``, ``Slice``, ``Round``,
  ``Apply`` layers), ``RNN`` / ``LSTM`` / ``FeedForwardNet`` / ``StructuredControlNet`` /
  ``LocomotorNet`` layers, ``ModuleExpectingFlatParameters`` under ``vmap`` over a population,
  ``NEProblem`` (a ``network_eval_func``) and ``SupervisedNE`` evaluating a population,
  ``RunningNorm`` / ``ObsNormLayer``.

Eval: the outputs as the library returns them. Train: networks (the layers, parsed nets,
the flat-parameter module) through ``mean_loss_module``; the distributions' sample-and-gradient
pieces with their parameters as ``nn.Parameter`` (the samples are differentiable in them) through
``mean_loss_module``; the algorithms' generations and operators have no parameters and no loss, so
train runs the same step with gradients on. ``ExpGaussian``'s train loss runs forward, but a
``backward()`` through its samples fails eagerly (the library writes in place into a tensor autograd
saved); its ``d`` gradient and updated ``mu`` are returned detached.

    pip install --no-deps evotorch==0.6.1

``evotorch`` imports ``ray`` at the top of ``core`` and ``neproblem`` (``@ray.remote`` on a class,
``from ray.util import ActorPool``): ray is not installed, a stand-in module is put in
``sys.modules`` (``remote`` returns its class unchanged, the rest raise): nothing here uses actors.
gymnasium (needed by ``neuroevolution`` at import) and packaging, numpy, cma were already there;
pandas / matplotlib are imported in ``try`` blocks (logging). GymNE / VecGymNE left out: they need
an environment run episode by episode (numpy). PyCMAES left out (``cma`` is numpy).
"""

PACKAGE = "evotorch"

mean_loss_module = None  # set by ZooSuite
_L = 6
_POP = 8


def _stub_ray():
    import sys
    import types

    if "ray" in sys.modules:
        return
    ray = types.ModuleType("ray")
    ray.__path__ = []
    util = types.ModuleType("ray.util")

    def remote(*args, **kwargs):
        if len(args) == 1 and callable(args[0]) and not kwargs:
            return args[0]
        return lambda c: c

    def missing(*a, **k):
        raise ImportError("ray is not installed (a stand-in: evotorch imports it)")

    ray.remote = remote
    for n in ("get", "put", "init", "is_initialized", "kill", "available_resources"):
        setattr(ray, n, missing)
    ray.is_initialized = lambda: False
    ray.ObjectRef = type("ObjectRef", (), {})
    util.ActorPool = type("ActorPool", (), {"__init__": missing})
    ray.util = util
    sys.modules["ray"] = ray
    sys.modules["ray.util"] = util


def before_build():
    _stub_ray()


def warm_up():
    _stub_ray()
    import torch  # noqa: F401
    import evotorch  # noqa: F401
    import evotorch.neuroevolution  # noqa: F401


def _sphere(x):
    return (x**2).sum(dim=-1)


def _rastrigin(x):
    import math
    import torch

    return 10 * x.shape[-1] + (x**2 - 10 * torch.cos(2 * math.pi * x)).sum(dim=-1)


def _problem(fn=None, sense="min", bounded=False, **kw):
    from evotorch import Problem

    bounds = {"bounds": (-1.0, 1.0)} if bounded else {"initial_bounds": (-1.0, 1.0)}
    return Problem(sense, fn or _sphere, solution_length=_L, vectorized=True, **bounds, **kw)


def _nn():
    import torch

    return torch.nn


def _step_module(build):
    """One generation of a searcher: ``searcher.step()``, then its population / center."""

    nn = _nn()

    class Step(nn.Module):
        def __init__(self):
            super().__init__()
            self.searcher = build()

        def forward(self, dummy):
            self.searcher.step()
            out = [dummy.sum()]
            s = self.searcher
            pop = getattr(s, "population", None)
            if pop is not None:
                out.append(pop.values)
                out.append(pop.evals)
            center = s.status.get("center") if hasattr(s, "status") else None
            if center is not None:
                out.append(center)
            return tuple(out)

    return Step()


def _searcher(name):
    def make(mode):
        import torch
        import evotorch.algorithms as A
        from evotorch.operators import (
            GaussianMutation,
            OnePointCrossOver,
            PolynomialMutation,
            SimulatedBinaryCrossOver,
        )

        def build():
            if name == "SNES":
                return A.SNES(_problem(), stdev_init=0.5, popsize=_POP)
            if name == "XNES":
                return A.XNES(_problem(), stdev_init=0.5, popsize=_POP)
            if name == "CEM":
                return A.CEM(_problem(_rastrigin), stdev_init=0.5, popsize=_POP, parenthood_ratio=0.5)
            if name == "PGPE":
                return A.PGPE(_problem(), popsize=_POP, center_learning_rate=0.1, stdev_learning_rate=0.1,
                              stdev_init=0.5, optimizer="clipup", optimizer_config={"max_speed": 0.3})
            if name == "PGPE_adam":
                return A.PGPE(_problem(_rastrigin), popsize=_POP, center_learning_rate=0.01,
                              stdev_learning_rate=0.1, stdev_init=0.5, optimizer="adam", symmetric=True,
                              ranking_method="centered")
            if name == "CMAES":
                return A.CMAES(_problem(), stdev_init=0.5, popsize=_POP)
            if name == "CMAES_separable":
                return A.CMAES(_problem(), stdev_init=0.5, popsize=_POP, separable=True)
            if name == "GeneticAlgorithm":
                p = _problem(_rastrigin)
                return A.GeneticAlgorithm(p, popsize=_POP, operators=[
                    SimulatedBinaryCrossOver(p, tournament_size=4, eta=8),
                    GaussianMutation(p, stdev=0.1)])
            if name == "GeneticAlgorithm_onepoint":
                p = _problem(bounded=True)
                return A.GeneticAlgorithm(p, popsize=_POP, operators=[
                    OnePointCrossOver(p, tournament_size=4),
                    PolynomialMutation(p, eta=20.0)], elitist=False)
            if name == "SteadyStateGA":
                p = _problem()
                ga = A.SteadyStateGA(p, popsize=_POP)
                ga.use(SimulatedBinaryCrossOver(p, tournament_size=4, eta=8))
                ga.use(GaussianMutation(p, stdev=0.1))
                return ga
            if name == "Cosyne":
                return A.Cosyne(_problem(), popsize=_POP, tournament_size=4, mutation_stdev=0.3)
            if name == "MAPElites":
                def f(x):
                    fit = (x**2).sum(dim=-1)
                    return torch.stack([fit, x[:, 0], x[:, 1]], dim=-1)

                p = _problem(f, eval_data_length=2)
                grid = A.MAPElites.make_feature_grid(lower_bounds=[-1.0, -1.0], upper_bounds=[1.0, 1.0],
                                                     num_bins=3, dtype="float32")
                return A.MAPElites(p, operators=[GaussianMutation(p, stdev=0.1)], feature_grid=grid)
            raise KeyError(name)

        return _step_module(build), (torch.zeros(1),), {}

    return make


def _problem_evaluate(mode):
    import torch

    nn = _nn()

    class Evaluate(nn.Module):
        def __init__(self):
            super().__init__()
            self.problem = _problem(_rastrigin)

        def forward(self, values):
            batch = self.problem.generate_batch(values.shape[0])
            batch.set_values(values)
            self.problem.evaluate(batch)
            return batch.evals, batch.argsort(), batch.take_best(2).values

    return Evaluate(), (torch.rand(_POP, _L) * 2 - 1,), {}


# --- functional algorithms ---------------------------------------------------------------------


def _functional(name):
    def make(mode):
        import torch
        from evotorch.algorithms import functional as F
        from evotorch.decorators import rowwise
        from evotorch.algorithms.functional.misc import get_functional_optimizer

        @rowwise
        def f(x):
            return torch.sum(x**2)

        nn = _nn()

        class Functional(nn.Module):
            def forward(self, center):
                if name == "cem":
                    state = F.cem(center_init=center, stdev_init=1.0, parenthood_ratio=0.5, objective_sense="min",
                                  stdev_max_change=0.2)
                    sols = F.cem_ask(state, popsize=_POP)
                    state = F.cem_tell(state, sols, f(sols))
                    return state.center, state.stdev
                if name == "pgpe":
                    state = F.pgpe(center_init=center, center_learning_rate=0.1, stdev_learning_rate=0.1,
                                   objective_sense="min", ranking_method="centered", optimizer="clipup",
                                   optimizer_config={"max_speed": 0.2}, stdev_init=1.0, stdev_max_change=0.2)
                    sols = F.pgpe_ask(state, popsize=_POP)
                    state = F.pgpe_tell(state, sols, f(sols))
                    return state.optimizer_state.center, state.stdev
                if name in ("adam", "clipup", "sgd"):
                    init, ask, tell = get_functional_optimizer(name)
                    kw = {"max_speed": 0.2} if name == "clipup" else {}
                    state = init(center_init=center, center_learning_rate=0.01, **kw)
                    for _ in range(2):
                        c = ask(state)
                        state = tell(state, follow_grad=-torch.func.grad(f)(c))
                    return ask(state)
                if name == "cem_batched":
                    state = F.cem(center_init=center.expand(3, -1), stdev_init=1.0, parenthood_ratio=0.5,
                                  objective_sense="min")
                    sols = F.cem_ask(state, popsize=_POP)
                    state = F.cem_tell(state, sols, f(sols))
                    return state.center
                raise KeyError(name)

        return Functional(), (torch.randn(_L),), {}

    return make


# --- distributions -----------------------------------------------------------------------------


def _distribution(name):
    def make(mode):
        import torch
        import evotorch.distributions as D

        nn = _nn()

        class Dist(nn.Module):
            def __init__(self):
                super().__init__()
                self.mu = nn.Parameter(torch.randn(_L))
                self.sigma = nn.Parameter(torch.full((_L,), 0.5))

            def forward(self, dummy):
                if name == "ExpGaussian":
                    dist = D.ExpGaussian({"mu": self.mu, "sigma": torch.diag(self.sigma)}, solution_length=_L)
                else:
                    dist = getattr(D, name)({"mu": self.mu, "sigma": self.sigma}, solution_length=_L)
                samples = dist.sample(_POP)
                fitnesses = _sphere(samples) + dummy.sum()
                grads = dist.compute_gradients(samples, fitnesses, objective_sense="min",
                                               ranking_method="centered")
                if name == "ExpGaussian":  # XNES's natural gradients, in local coordinates
                    new = dist.update_parameters(grads, learning_rates={"d": 0.1, "M": 0.1})
                    return samples, grads["d"].detach(), new.parameters["mu"].detach()
                new = dist.update_parameters(grads, learning_rates={"mu": 0.1, "sigma": 0.1})
                return samples, grads["mu"], new.parameters["mu"]

        return (mean_loss_module()(Dist()) if mode == "train" else Dist()), (torch.zeros(1),), {}

    return make


def _functional_distribution(mode):
    import torch
    import evotorch.distributions as D

    nn = _nn()
    sampler = D.make_functional_sampler(D.SeparableGaussian, required_parameters=["mu", "sigma"])
    estimator = D.make_functional_grad_estimator(D.SeparableGaussian, required_parameters=["mu", "sigma"],
                                                 function=_sphere, objective_sense="min")

    class FunctionalDist(nn.Module):
        def __init__(self):
            super().__init__()
            self.mu = nn.Parameter(torch.randn(_L))
            self.sigma = nn.Parameter(torch.full((_L,), 0.5))

        def forward(self, dummy):
            samples = sampler(_POP, mu=self.mu, sigma=self.sigma)
            grads = estimator(_POP, mu=self.mu, sigma=self.sigma)
            return samples + dummy, grads["mu"], grads["sigma"]

    m = FunctionalDist()
    return (mean_loss_module()(m) if mode == "train" else m), (torch.zeros(1),), {}


# --- operators ---------------------------------------------------------------------------------


def _func_operator(name):
    def make(mode):
        import torch
        import evotorch.operators.functional as O

        nn = _nn()

        class Op(nn.Module):
            def forward(self, sols, evals):
                if name == "tournament":
                    return O.tournament(sols, evals, num_tournaments=_POP, tournament_size=3, objective_sense="min")
                if name == "simulated_binary_cross_over":
                    return O.simulated_binary_cross_over(sols, evals, eta=10.0, tournament_size=3,
                                                         objective_sense="min")
                if name == "one_point_cross_over":
                    return O.one_point_cross_over(sols, evals, tournament_size=3, objective_sense="min")
                if name == "two_point_cross_over":
                    return O.two_point_cross_over(sols, evals, tournament_size=3, objective_sense="min")
                if name == "multi_point_cross_over":
                    return O.multi_point_cross_over(sols, num_points=3)
                if name == "cosyne_permutation":
                    return O.cosyne_permutation(sols, evals, permute_all=False, objective_sense="min")
                if name == "utility":
                    return O.utility(evals, objective_sense="min", ranking_method="centered")
                if name == "pareto_utility":
                    e2 = torch.stack([evals, sols[:, 0]], dim=-1)
                    return O.pareto_utility(e2, objective_sense=["min", "max"])
                if name == "combine_take_best":
                    children = sols + 0.1 * torch.randn_like(sols)
                    values, ev = O.combine((sols, evals), (children, _sphere(children)))
                    return O.take_best(values, ev, _POP, objective_sense="min")
                raise KeyError(name)

        x = torch.rand(_POP, _L) * 2 - 1
        return Op(), (x, _sphere(x)), {}

    return make


def _class_operator(name):
    def make(mode):
        import torch
        import evotorch.operators as O

        nn = _nn()

        class Op(nn.Module):
            def __init__(self):
                super().__init__()
                self.problem = _problem(_rastrigin, bounded=(name == "PolynomialMutation"))
                p = self.problem
                self.op = {
                    "GaussianMutation": lambda: O.GaussianMutation(p, stdev=0.1),
                    "PolynomialMutation": lambda: O.PolynomialMutation(p, eta=20.0),
                    "SimulatedBinaryCrossOver": lambda: O.SimulatedBinaryCrossOver(p, tournament_size=3, eta=8),
                    "TwoPointCrossOver": lambda: O.TwoPointCrossOver(p, tournament_size=3),
                    "CosynePermutation": lambda: O.CosynePermutation(p, permute_all=True),
                }[name]()

            def forward(self, values):
                batch = self.problem.generate_batch(values.shape[0])
                batch.set_values(values)
                self.problem.evaluate(batch)
                out = self.op(batch)
                return out.values

        return Op(), (torch.rand(_POP, _L) * 2 - 1,), {}

    return make


# --- tools -------------------------------------------------------------------------------------


def _tools(name):
    def make(mode):
        import torch
        from evotorch import tools as T

        nn = _nn()

        class Tools(nn.Module):
            def forward(self, x, fit):
                if name == "rank":
                    return tuple(T.rank(fit, r, higher_is_better=False) for r in ("centered", "linear", "nes", "raw"))
                if name == "clip_modify":
                    a = T.clip_tensor(x, -0.5, 0.5)
                    b = T.modify_tensor(x, x + 0.3, max_change=0.1)
                    return a, b
                if name == "constraints":
                    g = x[:, 0] - 0.2
                    v = T.violation(g, ">=", 0.0)
                    p = T.penalty(g, ">=", 0.0, penalty_sign="+", linear=1.0, step=2.0, exp=2.0)
                    b = T.log_barrier(g, "<=", 1.0, penalty_sign="+")
                    return v, p, b
                raise KeyError(name)

        x = torch.rand(_POP, _L) * 2 - 1
        return Tools(), (x, _sphere(x)), {}

    return make


# --- neuroevolution ----------------------------------------------------------------------------


def _net(name):
    def make(mode):
        import torch
        from evotorch.neuroevolution.net import str_to_net
        from evotorch.neuroevolution.net import layers as Ly

        x = torch.randn(4, 4)
        if name == "str_to_net":
            net = str_to_net("Linear(obs_length, 8) >> Tanh() >> Linear(8, act_length)", obs_length=4, act_length=2)
        elif name == "str_to_net_layers":
            net = str_to_net("Linear(4, 8) >> Tanh() >> Linear(8, 4) >> Apply('*', 2.0) >> Clip(-1.0, 1.0)"
                             " >> Slice(0, 3)")
        elif name == "str_to_net_bin_round":
            net = str_to_net("Linear(4, 8) >> Bin(-1.0, 1.0) >> Linear(8, 3) >> Round(1)")
        elif name == "RNN":
            net = str_to_net("RNN(4, 8) >> Linear(8, 2)")
        elif name == "LSTM":
            net = Ly.LSTM(4, 8)
        elif name == "FeedForwardNet":
            net = Ly.FeedForwardNet(4, [(8, torch.tanh), (8, "relu", False), (2, None)])
        elif name == "StructuredControlNet":
            net = Ly.StructuredControlNet(in_features=4, out_features=2, num_layers=2, hidden_size=8,
                                          bias=True, nonlinearity="tanh")
        elif name == "LocomotorNet":
            net = Ly.LocomotorNet(in_features=4, out_features=2, num_sinusoids=4)
        else:
            raise KeyError(name)
        if name in ("RNN", "LSTM"):
            x = torch.randn(4)
        return (mean_loss_module()(net) if mode == "train" else net), (x,), {}

    return make


def _flat_parameters(mode):
    import torch
    from evotorch.neuroevolution.net import ModuleExpectingFlatParameters, count_parameters

    nn = _nn()
    net = nn.Sequential(nn.Linear(4, 8), nn.Tanh(), nn.Linear(8, 2))
    n = count_parameters(net)

    class FlatPop(nn.Module):
        def __init__(self):
            super().__init__()
            self.fnet = ModuleExpectingFlatParameters(net)
            self.params = nn.Parameter(torch.randn(_POP, n) * 0.1)

        def forward(self, x):
            return torch.func.vmap(self.fnet, in_dims=(0, None))(self.params, x)

    m = FlatPop()
    return (mean_loss_module()(m) if mode == "train" else m), (torch.randn(3, 4),), {}


def _neproblem(mode):
    import torch
    from evotorch.neuroevolution import NEProblem

    nn = _nn()
    data_x = torch.randn(16, 4)
    data_y = data_x.sum(dim=-1, keepdim=True)

    def eval_func(network):
        return torch.nn.functional.mse_loss(network(data_x), data_y)

    class NE(nn.Module):
        def __init__(self):
            super().__init__()
            self.problem = NEProblem("min", "Linear(4, 8) >> Tanh() >> Linear(8, 1)", eval_func,
                                     initial_bounds=(-0.5, 0.5))

        def forward(self, values):
            batch = self.problem.generate_batch(values.shape[0])
            batch.set_values(values)
            self.problem.evaluate(batch)
            net = self.problem.parameterize_net(batch[0].values)
            return batch.evals, net(data_x)

    m = NE()
    return m, (torch.randn(_POP, m.problem.solution_length) * 0.3,), {}


def _supervised_ne(mode):
    import torch
    from torch.utils.data import TensorDataset
    from evotorch.neuroevolution import SupervisedNE

    nn = _nn()
    data_x = torch.randn(32, 4)
    ds = TensorDataset(data_x, data_x.sum(dim=-1, keepdim=True))

    class SNE(nn.Module):
        def __init__(self):
            super().__init__()
            self.problem = SupervisedNE(ds, "Linear(4, 8) >> Tanh() >> Linear(8, 1)", nn.MSELoss(),
                                        minibatch_size=8, initial_bounds=(-0.5, 0.5))

        def forward(self, values):
            batch = self.problem.generate_batch(values.shape[0])
            batch.set_values(values)
            self.problem.evaluate(batch)
            return batch.evals

    m = SNE()
    return m, (torch.randn(_POP, m.problem.solution_length) * 0.3,), {}


def _running_norm(mode):
    import torch
    from evotorch.neuroevolution.net.runningnorm import RunningNorm

    nn = _nn()

    class RN(nn.Module):
        def __init__(self):
            super().__init__()
            self.rn = RunningNorm(shape=4, dtype="float32")
            self.rn.update(torch.randn(16, 4))
            self.net = nn.Linear(4, 2)

        def forward(self, x):
            self.rn.update(x)
            layer = self.rn.to_layer()
            return self.net(self.rn.normalize(x)), self.net(layer(x))

    m = RN()
    return (mean_loss_module()(m) if mode == "train" else m), (torch.randn(8, 4),), {}


MODELS = {}
for _n in ("SNES", "XNES", "CEM", "PGPE", "PGPE_adam", "CMAES", "CMAES_separable", "GeneticAlgorithm",
           "GeneticAlgorithm_onepoint", "SteadyStateGA", "Cosyne", "MAPElites"):
    MODELS[f"step_{_n}"] = _searcher(_n)
MODELS["Problem_evaluate"] = _problem_evaluate
for _n in ("cem", "pgpe", "adam", "clipup", "sgd", "cem_batched"):
    MODELS[f"functional_{_n}"] = _functional(_n)
for _n in ("SymmetricSeparableGaussian", "SeparableGaussian", "ExpGaussian", "ExpSeparableGaussian"):
    MODELS[f"dist_{_n}"] = _distribution(_n)
MODELS["dist_functional_sampler_grad"] = _functional_distribution
for _n in ("tournament", "simulated_binary_cross_over", "one_point_cross_over", "two_point_cross_over",
           "multi_point_cross_over", "cosyne_permutation", "utility", "pareto_utility", "combine_take_best"):
    MODELS[f"opf_{_n}"] = _func_operator(_n)
for _n in ("GaussianMutation", "PolynomialMutation", "SimulatedBinaryCrossOver", "TwoPointCrossOver",
           "CosynePermutation"):
    MODELS[f"op_{_n}"] = _class_operator(_n)
for _n in ("rank", "clip_modify", "constraints"):
    MODELS[f"tools_{_n}"] = _tools(_n)
for _n in ("str_to_net", "str_to_net_layers", "str_to_net_bin_round", "RNN", "LSTM", "FeedForwardNet",
           "StructuredControlNet", "LocomotorNet"):
    MODELS[f"net_{_n}"] = _net(_n)
MODELS["ModuleExpectingFlatParameters"] = _flat_parameters
MODELS["NEProblem_evaluate"] = _neproblem
MODELS["SupervisedNE_evaluate"] = _supervised_ne
MODELS["RunningNorm"] = _running_norm
