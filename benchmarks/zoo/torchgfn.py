"""torchgfn 2.4.1 (import ``gfn``): GFlowNets as its README / docs guides build them: an environment
from ``gfn.gym``, a preprocessor, ``gfn.utils.modules`` networks wrapped in estimators
(``DiscretePolicyEstimator``, ``ScalarEstimator``, the Box and diffusion estimators), a ``Sampler``
that rolls out trajectories, and a ``GFlowNet`` whose ``loss(env, training_samples)`` is the
training step's forward. Tiny (hidden 16, a batch of 4-8 trajectories), random weights, no download.

Each model samples its trajectories once at build time (``Sampler(pf).sample_trajectories(env,
n)``, outside the compiled call, as the training loop does before ``optimizer.zero_grad()``), turns
them into the loss's training samples (``gflownet.to_training_samples``: trajectories, transitions
or a states container) and then:

- train: ``gflownet.loss(env, samples)`` (``recalculate_all_logprobs=True``, the default, so the
  estimators run inside the loss), through a small module holding the GFlowNet and the env;
- eval: the estimators' forward on a batch of valid states of the sampled trajectories (the
  forward policy's logits / parameters, the backward policy's, the state flow's), as the sampler
  calls them each step.

Covered: HyperGrid with TB (the README: ``KHotPreprocessor``, a PB sharing PF's trunk), TB with
``Tabular`` modules (``EnumPreprocessor``), TB with a uniform constant PB (``OneHotPreprocessor``),
the regression losses (``HalfSquaredLoss``, ``ShiftedCoshLoss``, ``LinexLoss``), noisy layers,
layer norm / tanh MLPs, DB (MLP and tabular, and forward-looking DB), ModifiedDB, SubTB with six
weightings, FM, ZVar (``LogPartitionVarianceGFlowNet``), RTB / relative ZVar / Trust-PCL against a
frozen prior PF; ConditionalHyperGrid with conditional estimators (TB with a
``ConditionalLogZEstimator``, DB and SubTB with a ``ConditionalScalarEstimator``; conditions sampled
by the env); DiscreteEBM with TB, DB, SubTB, FM; Box (polar) with TB and DB (``BoxStateFlowModule``),
BoxCartesian with TB; BitSequence with an MLP, and with recurrent policies
(``RecurrentDiscretePolicyEstimator`` over an LSTM, a GRU, a transformer with learned or sinusoidal
positions; eval: one sampler step ``pf(states, carry)`` from ``init_carry``); PerfectBinaryTree and
SetAddition with TB; diffusion sampling (``DiffusionSampling`` target ``gmm2``, 4 steps) with
pinned-Brownian-motion estimators over ``DiffusionPISGradNetForward`` and the fixed or learned
(``DiffusionPISGradNetBackward``, and with learned variance) backward net, TB, and ``MLEDiffusion``
(train: its MLE loss on 8 samples of the target).

    pip install --no-deps torchgfn==2.4.1

``gfn`` needs torch, numpy, einops, tensordict, dill, torch_geometric and
linear-attention-transformer (its declared dependencies): all were already installed here
(numpy 2.4.6 although torchgfn declares ``numpy<2``: not changed, nothing used here failed).
Nothing stubbed. Hack: ``DiffusionPISGradNetBackward`` sets no ``input_dim`` (the forward net sets
``s_dim + 1``), which the estimator's default ``IdentityPreprocessor`` asserts on, so the adapter
sets ``pb_module.input_dim = s_dim + 1`` as the forward one does. The PerfectBinaryTree's one-hot
preprocessor is given the node count (15) and the node index (the env enumerates no states).
The first model of a process takes 2-10 s (imports, the first rollouts); later ones well under 1 s
except the recurrent / diffusion rollouts (~1-2 s).
Left out: GraphBuilding / ChipDesign / BayesianStructure (graph states over torch_geometric,
an external placement client), Line and NonAutoregressiveBitSequence (their estimators live in the
tutorials, not the package), LocalSearchSampler and replay buffers
(sampling / buffer bookkeeping outside the loss), optimizer steps.
"""

PACKAGE = "gfn"
DISTRIBUTION = "torchgfn"

mean_loss_module = None  # set by ZooSuite
_H = 16


def warm_up():
    import torch  # noqa: F401
    import gfn.gflownet  # noqa: F401
    import gfn.gym  # noqa: F401
    import gfn.estimators  # noqa: F401
    import gfn.samplers  # noqa: F401
    import gfn.utils.modules  # noqa: F401


def _classes():
    import torch

    class GFNLoss(torch.nn.Module):
        """The training step's forward: ``gflownet.loss(env, samples)``."""

        def __init__(self, gflownet, env):
            super().__init__()
            self.gflownet = gflownet
            self.env = env

        def forward(self, samples):
            return self.gflownet.loss(self.env, samples)

    class Estimators(torch.nn.Module):
        """The estimators' forward on a batch of states, as the sampler calls them."""

        def __init__(self, estimators):
            super().__init__()
            self.estimators = torch.nn.ModuleList(estimators)

        def forward(self, states):
            return tuple(e(states) for e in self.estimators)

    return GFNLoss, Estimators


def _finish(mode, gflownet, env, pf, estimators, n=4, states=None, **sample_kwargs):
    """Sample n trajectories with pf; train: the loss on them; eval: the estimators on states."""
    import torch
    from gfn.samplers import Sampler

    GFNLoss, Estimators = _classes()
    with torch.no_grad():
        trajectories = Sampler(pf).sample_trajectories(env, n=n, **sample_kwargs)
    if mode == "train":
        samples = gflownet.to_training_samples(trajectories)
        return GFNLoss(gflownet, env), (samples,), {}
    if states is None:
        states = trajectories.to_transitions().states  # valid, non-sink states
    return Estimators(estimators), (states,), {}


# --- HyperGrid -------------------------------------------------------------------------------

def _hypergrid(ndim=2, height=4):
    from gfn.gym import HyperGrid

    return HyperGrid(ndim=ndim, height=height, validate_modes=False)


def _grid_policies(env, preprocessor="khot", shared_trunk=True, uniform_pb=False, **mlp):
    from gfn.estimators import DiscretePolicyEstimator
    from gfn.preprocessors import EnumPreprocessor, KHotPreprocessor, OneHotPreprocessor
    from gfn.utils.modules import MLP, DiscreteUniform, Tabular

    if preprocessor == "khot":
        pre = KHotPreprocessor(height=env.height, ndim=env.ndim)
    elif preprocessor == "onehot":
        pre = OneHotPreprocessor(n_states=env.n_states, get_states_indices=env.get_states_indices)
    else:
        pre = EnumPreprocessor(get_states_indices=env.get_states_indices)
    if preprocessor == "enum":
        mpf = Tabular(env.n_states, env.n_actions)
        mpb = Tabular(env.n_states, env.n_actions - 1)
    else:
        mpf = MLP(pre.output_dim, env.n_actions, hidden_dim=_H, **mlp)
        if uniform_pb:
            mpb = DiscreteUniform(env.n_actions - 1)
        else:
            mpb = MLP(pre.output_dim, env.n_actions - 1, hidden_dim=_H,
                      trunk=mpf.trunk if shared_trunk else None, **mlp)
    pf = DiscretePolicyEstimator(mpf, env.n_actions, preprocessor=pre)
    pb = DiscretePolicyEstimator(mpb, env.n_actions, preprocessor=pre, is_backward=True)
    return pre, pf, pb


def _logF(pre, enum=False, env=None):
    from gfn.estimators import ScalarEstimator
    from gfn.utils.modules import MLP, Tabular

    module = Tabular(env.n_states, 1) if enum else MLP(pre.output_dim, 1, hidden_dim=_H)
    return ScalarEstimator(module, preprocessor=pre)


def _grid_tb(mode, preprocessor="khot", loss_fn=None, uniform_pb=False, **mlp):
    from gfn.gflownet import TBGFlowNet

    env = _hypergrid()
    _, pf, pb = _grid_policies(env, preprocessor, uniform_pb=uniform_pb, **mlp)
    kw = {} if loss_fn is None else {"loss_fn": loss_fn()}
    g = TBGFlowNet(pf=pf, pb=pb, init_logZ=0.0, constant_pb=uniform_pb, **kw)
    return _finish(mode, g, env, pf, [pf, pb])


def _grid_db(mode, forward_looking=False, preprocessor="khot"):
    from gfn.gflownet import DBGFlowNet

    env = _hypergrid()
    pre, pf, pb = _grid_policies(env, preprocessor)
    logF = _logF(pre, preprocessor == "enum", env)
    g = DBGFlowNet(pf=pf, pb=pb, logF=logF, forward_looking=forward_looking)
    return _finish(mode, g, env, pf, [pf, pb, logF])


def _grid_modified_db(mode):
    from gfn.gflownet import ModifiedDBGFlowNet

    env = _hypergrid()
    _, pf, pb = _grid_policies(env)
    g = ModifiedDBGFlowNet(pf=pf, pb=pb)
    return _finish(mode, g, env, pf, [pf, pb])


def _grid_subtb(mode, weighting="geometric_within"):
    from gfn.gflownet import SubTBGFlowNet

    env = _hypergrid()
    pre, pf, pb = _grid_policies(env)
    logF = _logF(pre)
    g = SubTBGFlowNet(pf=pf, pb=pb, logF=logF, weighting=weighting, lamda=0.9)
    return _finish(mode, g, env, pf, [pf, pb, logF])


def _grid_fm(mode):
    from gfn.estimators import DiscretePolicyEstimator
    from gfn.gflownet import FMGFlowNet
    from gfn.preprocessors import KHotPreprocessor
    from gfn.utils.modules import MLP

    env = _hypergrid()
    pre = KHotPreprocessor(height=env.height, ndim=env.ndim)
    logF = DiscretePolicyEstimator(MLP(pre.output_dim, env.n_actions, hidden_dim=_H),
                                   env.n_actions, preprocessor=pre)
    g = FMGFlowNet(logF, alpha=1.0)
    return _finish(mode, g, env, logF, [logF])


def _grid_zvar(mode):
    from gfn.gflownet import LogPartitionVarianceGFlowNet

    env = _hypergrid()
    _, pf, pb = _grid_policies(env)
    g = LogPartitionVarianceGFlowNet(pf=pf, pb=pb)
    return _finish(mode, g, env, pf, [pf, pb])


def _grid_relative(mode, kind="rtb"):
    from gfn.gflownet import (
        RelativeLogPartitionVarianceGFlowNet,
        RelativeTrajectoryBalanceGFlowNet,
        TrustPCLGFlowNet,
    )

    env = _hypergrid()
    _, pf, _pb = _grid_policies(env)
    _, prior, _ = _grid_policies(env)
    for p in prior.parameters():
        p.requires_grad_(False)
    if kind == "rtb":
        g = RelativeTrajectoryBalanceGFlowNet(pf=pf, prior_pf=prior, init_logZ=0.0, beta=1.0)
    elif kind == "rzvar":
        g = RelativeLogPartitionVarianceGFlowNet(pf=pf, prior_pf=prior, beta=1.0)
    else:
        g = TrustPCLGFlowNet(policy=pf, reference_policy=prior, alpha=1.0)
    return _finish(mode, g, env, pf, [pf, prior])


# --- DiscreteEBM -----------------------------------------------------------------------------

def _ebm(mode, loss="tb"):
    from gfn.estimators import DiscretePolicyEstimator
    from gfn.gflownet import DBGFlowNet, FMGFlowNet, SubTBGFlowNet, TBGFlowNet
    from gfn.gym import DiscreteEBM
    from gfn.preprocessors import IdentityPreprocessor
    from gfn.utils.modules import MLP

    env = DiscreteEBM(ndim=4)
    pre = IdentityPreprocessor(output_dim=env.state_shape[-1])
    mpf = MLP(pre.output_dim, env.n_actions, hidden_dim=_H)
    pf = DiscretePolicyEstimator(mpf, env.n_actions, preprocessor=pre)
    if loss == "fm":
        g = FMGFlowNet(pf)
        return _finish(mode, g, env, pf, [pf])
    mpb = MLP(pre.output_dim, env.n_actions - 1, hidden_dim=_H, trunk=mpf.trunk)
    pb = DiscretePolicyEstimator(mpb, env.n_actions, preprocessor=pre, is_backward=True)
    if loss == "tb":
        g = TBGFlowNet(pf=pf, pb=pb)
        return _finish(mode, g, env, pf, [pf, pb])
    logF = _logF(pre)
    g = (DBGFlowNet if loss == "db" else SubTBGFlowNet)(pf=pf, pb=pb, logF=logF)
    return _finish(mode, g, env, pf, [pf, pb, logF])


# --- Box -------------------------------------------------------------------------------------

def _box(mode, loss="tb"):
    import torch
    from gfn.estimators import ScalarEstimator
    from gfn.gflownet import DBGFlowNet, TBGFlowNet
    from gfn.gym import BoxPolar
    from gfn.gym.helpers.box_polar_utils import (
        BoxPBEstimator, BoxPBMLP, BoxPFEstimator, BoxPFMLP, BoxStateFlowModule,
    )

    env = BoxPolar(delta=0.25)
    pf_module = BoxPFMLP(hidden_dim=_H, n_hidden_layers=2, n_components_s0=2, n_components=2)
    pb_module = BoxPBMLP(hidden_dim=_H, n_hidden_layers=2, n_components=2,
                         trunk=pf_module.trunk)
    pf = BoxPFEstimator(env, pf_module, n_components_s0=2, n_components=2)
    pb = BoxPBEstimator(env, pb_module, n_components=2)
    if loss == "tb":
        g = TBGFlowNet(pf=pf, pb=pb, init_logZ=0.0)
        return _finish(mode, g, env, pf, [pf, pb])
    logF = ScalarEstimator(BoxStateFlowModule(logZ_value=torch.tensor(0.0), input_dim=2,
                                              output_dim=1, hidden_dim=_H, n_hidden_layers=2))
    g = DBGFlowNet(pf=pf, pb=pb, logF=logF)
    return _finish(mode, g, env, pf, [pf, pb, logF])


def _box_cartesian(mode):
    from gfn.gflownet import TBGFlowNet
    from gfn.gym import BoxCartesian
    from gfn.gym.helpers.box_cartesian_utils import (
        BoxCartesianPBEstimator, BoxCartesianPBMLP, BoxCartesianPFEstimator, BoxCartesianPFMLP,
    )

    env = BoxCartesian(delta=0.25)
    pf = BoxCartesianPFEstimator(env, BoxCartesianPFMLP(hidden_dim=_H, n_hidden_layers=2,
                                                        n_components=2), n_components=2)
    pb = BoxCartesianPBEstimator(env, BoxCartesianPBMLP(hidden_dim=_H, n_hidden_layers=2,
                                                        n_components=2), n_components=2)
    g = TBGFlowNet(pf=pf, pb=pb, init_logZ=0.0)
    return _finish(mode, g, env, pf, [pf, pb])


# --- sequences and trees ---------------------------------------------------------------------

def _bitseq(mode, policy="mlp"):
    from gfn.estimators import DiscretePolicyEstimator, RecurrentDiscretePolicyEstimator
    from gfn.gflownet import TBGFlowNet
    from gfn.gym import BitSequence
    from gfn.preprocessors import IdentityPreprocessor
    from gfn.utils.modules import (
        MLP, DiscreteUniform, RecurrentDiscreteSequenceModel, TransformerDiscreteSequenceModel,
    )

    env = BitSequence(word_size=2, seq_size=8, n_modes=2, temperature=1.0)
    if policy == "mlp":
        pf = DiscretePolicyEstimator(MLP(env.words_per_seq, env.n_actions, hidden_dim=_H),
                                     env.n_actions)
        pb = DiscretePolicyEstimator(MLP(env.words_per_seq, env.n_actions - 1, hidden_dim=_H),
                                     env.n_actions, is_backward=True)
        g = TBGFlowNet(pf=pf, pb=pb)
        return _finish(mode, g, env, pf, [pf, pb])
    if policy in ("lstm", "gru"):
        module = RecurrentDiscreteSequenceModel(vocab_size=env.n_actions, embedding_dim=_H,
                                                hidden_size=_H, num_layers=1, rnn_type=policy)
    else:
        module = TransformerDiscreteSequenceModel(
            vocab_size=env.n_actions, embedding_dim=_H, num_heads=2, ff_hidden_dim=_H,
            num_layers=1, max_position_embeddings=16,
            positional_embedding="sinusoidal" if policy == "transformer_sin" else "learned")
    pf = RecurrentDiscretePolicyEstimator(module, env.n_actions)
    pb = DiscretePolicyEstimator(DiscreteUniform(env.n_actions - 1), env.n_actions,
                                 preprocessor=IdentityPreprocessor(output_dim=env.words_per_seq),
                                 is_backward=True)
    g = TBGFlowNet(pf=pf, pb=pb, constant_pb=True)
    if mode == "train":
        return _finish(mode, g, env, pf, [pf])
    # eval: one sampler step of the recurrent policy, (states, carry) -> (logits, carry)
    import torch
    from gfn.samplers import Sampler

    with torch.no_grad():
        trajectories = Sampler(pf).sample_trajectories(env, n=4)
    return pf, (trajectories.states[2], pf.init_carry(4, torch.device("cpu"))), {}


def _tree(mode):
    import torch
    from gfn.estimators import DiscretePolicyEstimator
    from gfn.gflownet import TBGFlowNet
    from gfn.gym import PerfectBinaryTree
    from gfn.preprocessors import OneHotPreprocessor
    from gfn.utils.modules import MLP

    env = PerfectBinaryTree(reward_fn=lambda s: torch.ones(s.shape[0]), depth=3)
    n_states = 2 ** (3 + 1) - 1  # the nodes of a depth-3 tree, the state is the node index
    pre = OneHotPreprocessor(n_states=n_states, get_states_indices=lambda s: s.tensor.squeeze(-1))
    pf = DiscretePolicyEstimator(MLP(pre.output_dim, env.n_actions, hidden_dim=_H),
                                 env.n_actions, preprocessor=pre)
    pb = DiscretePolicyEstimator(MLP(pre.output_dim, env.n_actions - 1, hidden_dim=_H),
                                 env.n_actions, preprocessor=pre, is_backward=True)
    g = TBGFlowNet(pf=pf, pb=pb)
    return _finish(mode, g, env, pf, [pf, pb])


def _set_addition(mode):
    import torch
    from gfn.estimators import DiscretePolicyEstimator
    from gfn.gflownet import TBGFlowNet
    from gfn.gym import SetAddition
    from gfn.utils.modules import MLP

    env = SetAddition(n_items=4, max_items=3, reward_fn=lambda s: s.sum(-1).float() + 1.0)
    d = env.state_shape[-1]
    pf = DiscretePolicyEstimator(MLP(d, env.n_actions, hidden_dim=_H), env.n_actions)
    pb = DiscretePolicyEstimator(MLP(d, env.n_actions - 1, hidden_dim=_H), env.n_actions,
                                 is_backward=True)
    g = TBGFlowNet(pf=pf, pb=pb)
    return _finish(mode, g, env, pf, [pf, pb])


# --- diffusion -------------------------------------------------------------------------------

def _diffusion(mode, loss="tb"):
    from gfn.estimators import PinnedBrownianMotionBackward, PinnedBrownianMotionForward
    from gfn.gflownet import TBGFlowNet
    from gfn.gym.diffusion_sampling import DiffusionSampling
    from gfn.utils.modules import DiffusionFixedBackwardModule, DiffusionPISGradNetForward

    steps, sigma = 4, 2.0
    env = DiffusionSampling(target_str="gmm2", target_kwargs={"seed": 0},
                            num_discretization_steps=steps)
    s_dim = env.dim
    pf_module = DiffusionPISGradNetForward(s_dim=s_dim, harmonics_dim=8, t_emb_dim=8,
                                           s_emb_dim=8, hidden_dim=_H, joint_layers=1)
    pb_module = DiffusionFixedBackwardModule(s_dim=s_dim)
    pf = PinnedBrownianMotionForward(s_dim=s_dim, pf_module=pf_module, sigma=sigma,
                                     num_discretization_steps=steps)
    pb = PinnedBrownianMotionBackward(s_dim=s_dim, pb_module=pb_module, sigma=sigma,
                                      num_discretization_steps=steps)
    g = TBGFlowNet(pf=pf, pb=pb, init_logZ=0.0)
    return _finish(mode, g, env, pf, [pf, pb])


def _diffusion_variants(mode, kind="mle"):
    import torch
    from gfn.estimators import PinnedBrownianMotionBackward, PinnedBrownianMotionForward
    from gfn.gflownet import TBGFlowNet
    from gfn.gflownet.mle import MLEDiffusion
    from gfn.gym.diffusion_sampling import DiffusionSampling
    from gfn.utils.modules import DiffusionPISGradNetBackward, DiffusionPISGradNetForward

    steps, sigma = 4, 2.0
    env = DiffusionSampling(target_str="gmm2", target_kwargs={"seed": 0},
                            num_discretization_steps=steps)
    s_dim = env.dim
    learn = kind == "learned_variance"
    small = dict(harmonics_dim=8, t_emb_dim=8, s_emb_dim=8, hidden_dim=_H, joint_layers=1)
    pf_module = DiffusionPISGradNetForward(s_dim=s_dim, learn_variance=learn, **small)
    pb_module = DiffusionPISGradNetBackward(s_dim=s_dim, learn_variance=learn, **small)
    pb_module.input_dim = s_dim + 1  # as the forward net sets it (the backward one does not)
    nvar = 1 if learn else 0  # the nets learn one (isotropic) log-variance
    pf = PinnedBrownianMotionForward(s_dim=s_dim, pf_module=pf_module, sigma=sigma,
                                     num_discretization_steps=steps, n_variance_outputs=nvar)
    pb = PinnedBrownianMotionBackward(s_dim=s_dim, pb_module=pb_module, sigma=sigma,
                                      num_discretization_steps=steps, n_variance_outputs=nvar)
    if kind != "mle":
        g = TBGFlowNet(pf=pf, pb=pb, init_logZ=0.0)
        return _finish(mode, g, env, pf, [pf, pb])
    g = MLEDiffusion(pf=pf, pb=pb, num_steps=steps, sigma=sigma)
    if mode == "train":  # the MLE objective on samples of the target
        GFNLoss, _ = _classes()
        return GFNLoss(g, env), (env.target.sample(8),), {}
    return _finish(mode, g, env, pf, [pf, pb])


def _conditional_grid(mode, loss="tb"):
    import torch
    from gfn.estimators import (
        ConditionalDiscretePolicyEstimator, ConditionalLogZEstimator, ConditionalScalarEstimator,
    )
    from gfn.gflownet import DBGFlowNet, SubTBGFlowNet, TBGFlowNet
    from gfn.gym import ConditionalHyperGrid
    from gfn.preprocessors import KHotPreprocessor
    from gfn.utils.modules import MLP

    env = ConditionalHyperGrid(ndim=2, height=4, validate_modes=False)
    pre = KHotPreprocessor(height=env.height, ndim=env.ndim)

    def policy(out, backward=False, cls=ConditionalDiscretePolicyEstimator):
        return cls(MLP(pre.output_dim, _H, hidden_dim=_H), MLP(env.condition_dim, _H, hidden_dim=_H),
                   MLP(2 * _H, out, hidden_dim=_H), env.n_actions, preprocessor=pre,
                   is_backward=backward)

    pf = policy(env.n_actions)
    pb = policy(env.n_actions - 1, backward=True)
    if loss == "tb":
        logZ = ConditionalLogZEstimator(MLP(env.condition_dim, 1, hidden_dim=_H))
        g = TBGFlowNet(pf=pf, pb=pb, logZ=logZ)
        extra = []
    else:
        logF = ConditionalScalarEstimator(
            MLP(pre.output_dim, _H, hidden_dim=_H), MLP(env.condition_dim, _H, hidden_dim=_H),
            MLP(2 * _H, 1, hidden_dim=_H), preprocessor=pre)
        g = (DBGFlowNet if loss == "db" else SubTBGFlowNet)(pf=pf, pb=pb, logF=logF)
        extra = [logF]
    n = 4
    conditions = env.sample_conditions(n)
    if mode == "train":
        return _finish(mode, g, env, pf, [], n=n, conditions=conditions)
    from gfn.samplers import Sampler

    GFNLoss, Estimators = _classes()

    class ConditionalEstimators(torch.nn.Module):
        def __init__(self, estimators):
            super().__init__()
            self.estimators = torch.nn.ModuleList(estimators)

        def forward(self, states, conditions):
            return tuple(e(states, conditions) for e in self.estimators)

    with torch.no_grad():
        trajectories = Sampler(pf).sample_trajectories(env, n=n, conditions=conditions)
    states = trajectories.states[0]  # s0 (every row valid)
    return ConditionalEstimators([pf, pb] + extra), (states, conditions), {}


def _p(fn, **kw):
    import functools

    return functools.partial(fn, **kw)


def _loss_fn(name):
    def make():
        import gfn.gflownet as G

        return getattr(G, name)()

    return make


MODELS = {
    "HyperGrid_TB": _p(_grid_tb),
    "HyperGrid_TB_Tabular": _p(_grid_tb, preprocessor="enum"),
    "HyperGrid_TB_uniform_PB": _p(_grid_tb, preprocessor="onehot", uniform_pb=True),
    "HyperGrid_TB_HalfSquared": _p(_grid_tb, loss_fn=_loss_fn("HalfSquaredLoss")),
    "HyperGrid_TB_ShiftedCosh": _p(_grid_tb, loss_fn=_loss_fn("ShiftedCoshLoss")),
    "HyperGrid_TB_Linex": _p(_grid_tb, loss_fn=_loss_fn("LinexLoss")),
    "HyperGrid_TB_noisy": _p(_grid_tb, n_noisy_layers=1),
    "HyperGrid_TB_layernorm_tanh": _p(_grid_tb, add_layer_norm=True, activation_fn="tanh"),
    "HyperGrid_DB": _p(_grid_db),
    "HyperGrid_DB_Tabular": _p(_grid_db, preprocessor="enum"),
    "HyperGrid_DB_forward_looking": _p(_grid_db, forward_looking=True),
    "HyperGrid_ModifiedDB": _grid_modified_db,
    "HyperGrid_SubTB_geometric_within": _p(_grid_subtb),
    "HyperGrid_SubTB_geometric": _p(_grid_subtb, weighting="geometric"),
    "HyperGrid_SubTB_equal": _p(_grid_subtb, weighting="equal"),
    "HyperGrid_SubTB_TB": _p(_grid_subtb, weighting="TB"),
    "HyperGrid_SubTB_DB": _p(_grid_subtb, weighting="DB"),
    "HyperGrid_SubTB_ModifiedDB": _p(_grid_subtb, weighting="ModifiedDB"),
    "HyperGrid_FM": _grid_fm,
    "HyperGrid_ZVar": _grid_zvar,
    "HyperGrid_RTB": _p(_grid_relative, kind="rtb"),
    "HyperGrid_RelativeZVar": _p(_grid_relative, kind="rzvar"),
    "HyperGrid_TrustPCL": _p(_grid_relative, kind="trustpcl"),
    "DiscreteEBM_TB": _p(_ebm, loss="tb"),
    "DiscreteEBM_DB": _p(_ebm, loss="db"),
    "DiscreteEBM_SubTB": _p(_ebm, loss="subtb"),
    "DiscreteEBM_FM": _p(_ebm, loss="fm"),
    "Box_TB": _p(_box, loss="tb"),
    "Box_DB": _p(_box, loss="db"),
    "BoxCartesian_TB": _box_cartesian,
    "BitSequence_TB_MLP": _p(_bitseq, policy="mlp"),
    "BitSequence_TB_LSTM": _p(_bitseq, policy="lstm"),
    "BitSequence_TB_GRU": _p(_bitseq, policy="gru"),
    "BitSequence_TB_Transformer": _p(_bitseq, policy="transformer"),
    "BitSequence_TB_Transformer_sinusoidal": _p(_bitseq, policy="transformer_sin"),
    "PerfectBinaryTree_TB": _tree,
    "SetAddition_TB": _set_addition,
    "Diffusion_TB": _p(_diffusion),
    "Diffusion_TB_PISGradNetBackward": _p(_diffusion_variants, kind="tb"),
    "Diffusion_TB_learned_variance": _p(_diffusion_variants, kind="learned_variance"),
    "Diffusion_MLE": _p(_diffusion_variants, kind="mle"),
    "ConditionalHyperGrid_TB": _p(_conditional_grid, loss="tb"),
    "ConditionalHyperGrid_DB": _p(_conditional_grid, loss="db"),
    "ConditionalHyperGrid_SubTB": _p(_conditional_grid, loss="subtb"),
}
