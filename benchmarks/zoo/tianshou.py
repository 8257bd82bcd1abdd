"""Tianshou 2.0.1: its networks (``tianshou.utils.net``) and its algorithms' policies and losses,
built straight from their classes on ``gymnasium`` spaces (no environment, no collector, no
trainer), tiny (batch 4, a 6-d vector observation, 2-d Box or 3-way Discrete actions, hidden
layers of 16 units), random weights, no download.

- networks: ``Net`` (plain MLP Q-net; dueling; C51-style ``num_atoms`` + ``softmax``; ``concat``
  critic input), ``Recurrent`` (LSTM), ``ContinuousActorProbabilistic``, ``ContinuousCritic``,
  ``DiscreteActor``, ``ImplicitQuantileNetwork``, ``FullQuantileFunction`` with a
  ``FractionProposalNetwork``, ``BranchingNet``, ``IntrinsicCuriosityModule``, BCQ's ``VAE``;
- algorithms: DQN, C51, QRDQN, IQN, A2C (discrete), PPO (continuous), Reinforce, DDPG, TD3, SAC,
  DiscreteSAC, REDQ.

Eval: a network's ``forward`` as the library returns it; an algorithm's ``policy(batch)`` on a
``Batch(obs=..., info=Batch())`` built inside the forward (as a user calls it), returning the action.
Train: networks through ``mean_loss_module``; algorithms through their own update step
``algorithm._update_with_batch(batch)`` (loss, ``optim.step`` with backward, the stats'
``.item()`` calls; on-policy ones with ``batch_size=None, repeat=1``) on a random ``Batch`` built
inside the forward with the keys its ``_preprocess_batch`` would have added (``returns`` for the
off-policy ones; ``adv``, ``returns``, ``logp_old``, ``v_s`` for the on-policy ones). The forward
returns the sum of the stats' ``get_loss_stats_dict()`` values as a tensor.

    pip install --no-deps tianshou==2.0.1
    pip install --no-deps deepdiff==7.0.1 overrides==7.7.0 sensai-utils==1.6.0
    pip install --no-deps ordered-set==4.1.0
    pip install --no-deps pettingzoo==1.24.3

(gymnasium 1.2.2, numpy, numba, h5py, pandas, tqdm, tensorboard, packaging, virtualenv were
already installed.) Stubbed: ``matplotlib`` / ``matplotlib.figure`` (imported at the top of
``tianshou.utils.logger.tensorboard`` for a type only; not installed, no model uses it).
Left out: the Trainer / Collector / buffers (numpy, environments), ``compute_nstep_return`` /
GAE preprocessing (numba / numpy over a ReplayBuffer), offline algorithms (BCQ, CQL, GAIL: same
losses over buffers), NPG / TRPO (conjugate-gradient loops), PSRL (numpy), multi-agent.
"""

PACKAGE = "tianshou"

mean_loss_module = None  # set by ZooSuite
stub_modules = None  # set by ZooSuite
_B = 4
_OBS = 6
_ACT = 2
_NA = 3
_H = [16, 16]


def before_build():
    import sys
    import types

    if "matplotlib" not in sys.modules:
        stub_modules({"matplotlib": ((), ()), "matplotlib.figure": ((), ("Figure",))}, "tianshou")
    fig = sys.modules["matplotlib.figure"]
    if not hasattr(fig, "Figure"):
        fig.Figure = type("Figure", (), {})
    del types


def warm_up():
    before_build()
    import gymnasium  # noqa: F401
    import tianshou.algorithm  # noqa: F401
    import tianshou.utils.net.common  # noqa: F401
    import tianshou.utils.net.continuous  # noqa: F401
    import tianshou.utils.net.discrete  # noqa: F401
    import torch  # noqa: F401


def _spaces():
    import numpy as np
    from gymnasium import spaces

    obs = spaces.Box(-np.inf, np.inf, (_OBS,), np.float32)
    box = spaces.Box(-1.0, 1.0, (_ACT,), np.float32)
    disc = spaces.Discrete(_NA)
    return obs, box, disc


def _obs():
    import torch

    return torch.randn(_B, _OBS)


def _adam():
    from tianshou.algorithm.optim import AdamOptimizerFactory

    return AdamOptimizerFactory(lr=1e-3)


# --- networks ----------------------------------------------------------------------------------

def _net(mode, **kw):
    from tianshou.utils.net.common import Net

    state = kw.pop("state_shape", _OBS)
    net = Net(state_shape=state, hidden_sizes=_H, **kw)
    return _wrap_net(mode, net), (_obs(),), {}


def _wrap_net(mode, net):
    return mean_loss_module()(net) if mode == "train" else net


def _net_q(mode):
    return _net(mode, action_shape=_NA)


def _net_dueling(mode):
    return _net(mode, action_shape=_NA, dueling_param=({"hidden_sizes": [16]}, {"hidden_sizes": [16]}))


def _net_atoms(mode):
    return _net(mode, action_shape=_NA, num_atoms=5, softmax=True)


def _net_concat(mode):
    import torch
    from tianshou.utils.net.common import Net

    net = Net(state_shape=_OBS, action_shape=_ACT, hidden_sizes=_H, concat=True)
    return _wrap_net(mode, net), (torch.randn(_B, _OBS + _ACT),), {}


def _recurrent(mode):
    import torch
    from tianshou.utils.net.common import Recurrent

    net = Recurrent(layer_num=1, state_shape=_OBS, action_shape=_NA, hidden_layer_size=16)
    return _wrap_net(mode, net), (torch.randn(_B, 3, _OBS),), {}


def _cont_actor_prob(mode):
    from tianshou.utils.net.common import Net
    from tianshou.utils.net.continuous import ContinuousActorProbabilistic

    pre = Net(state_shape=_OBS, hidden_sizes=_H)
    net = ContinuousActorProbabilistic(preprocess_net=pre, action_shape=_ACT, unbounded=True)
    return _wrap_net(mode, net), (_obs(),), {}


def _cont_critic(mode):
    import torch
    from tianshou.utils.net.common import Net
    from tianshou.utils.net.continuous import ContinuousCritic

    pre = Net(state_shape=_OBS, action_shape=_ACT, hidden_sizes=_H, concat=True)
    net = ContinuousCritic(preprocess_net=pre)
    return _wrap_net(mode, net), (_obs(), torch.randn(_B, _ACT)), {}


def _discrete_actor(mode):
    from tianshou.utils.net.common import Net
    from tianshou.utils.net.discrete import DiscreteActor

    pre = Net(state_shape=_OBS, hidden_sizes=_H)
    net = DiscreteActor(preprocess_net=pre, action_shape=_NA)
    return _wrap_net(mode, net), (_obs(),), {}


def _iqn_net(mode):
    from tianshou.utils.net.common import Net
    from tianshou.utils.net.discrete import ImplicitQuantileNetwork

    pre = Net(state_shape=_OBS, hidden_sizes=_H)
    net = ImplicitQuantileNetwork(preprocess_net=pre, action_shape=_NA, num_cosines=8)
    return _wrap_net(mode, net), (_obs(),), {"sample_size": 8}


def _fqf_net(mode):
    import torch
    from tianshou.utils.net.common import Net
    from tianshou.utils.net.discrete import FractionProposalNetwork, FullQuantileFunction

    pre = Net(state_shape=_OBS, hidden_sizes=_H)
    net = FullQuantileFunction(preprocess_net=pre, action_shape=_NA, num_cosines=8)
    fpn = FractionProposalNetwork(8, net.input_dim)

    class FQFForward(torch.nn.Module):
        def __init__(self):
            super().__init__()
            self.net, self.fpn = net, fpn

        def forward(self, obs):
            (quantiles, fractions, q_hat), h = self.net(obs, propose_model=self.fpn)
            return quantiles, q_hat

    return _wrap_net(mode, FQFForward()), (_obs(),), {}


def _branching(mode):
    from tianshou.utils.net.common import BranchingNet

    net = BranchingNet(state_shape=_OBS, num_branches=2, action_per_branch=3,
                       common_hidden_sizes=[16], value_hidden_sizes=[16], action_hidden_sizes=[16])
    return _wrap_net(mode, net), (_obs(),), {}


def _icm(mode):
    import torch
    from tianshou.utils.net.discrete import IntrinsicCuriosityModule

    feat = torch.nn.Sequential(torch.nn.Linear(_OBS, 16), torch.nn.ReLU())
    net = IntrinsicCuriosityModule(feature_net=feat, feature_dim=16, action_dim=_NA, hidden_sizes=[16])
    return _wrap_net(mode, net), (_obs(), torch.randint(0, _NA, (_B,)), _obs()), {}


def _vae(mode):
    import torch
    from tianshou.utils.net.common import MLP
    from tianshou.utils.net.continuous import VAE

    enc = MLP(input_dim=_OBS + _ACT, hidden_sizes=[16], output_dim=16)
    dec = MLP(input_dim=_OBS + 4, hidden_sizes=[16], output_dim=_ACT)
    net = VAE(encoder=enc, decoder=dec, hidden_dim=16, latent_dim=4, max_action=1.0)
    return _wrap_net(mode, net), (_obs(), torch.rand(_B, _ACT) * 2 - 1), {}


# --- algorithms --------------------------------------------------------------------------------

def _module():
    import torch
    from tianshou.data import Batch

    class PolicyAct(torch.nn.Module):
        """Eval: the policy on a Batch of observations, as the collector calls it."""

        def __init__(self, algo):
            super().__init__()
            self.algo = algo

        def forward(self, obs):
            out = self.algo.policy(Batch(obs=obs, info=Batch()))
            return out.act

    class UpdateStep(torch.nn.Module):
        """Train: the algorithm's own update step on a Batch made from the inputs."""

        def __init__(self, algo, on_policy):
            super().__init__()
            self.algo = algo
            self.on_policy = on_policy

        def forward(self, obs, act, rew, obs_next, returns, extra):
            batch = Batch(obs=obs, act=act, rew=rew, obs_next=obs_next, returns=returns,
                          terminated=torch.zeros(obs.shape[0], dtype=torch.bool),
                          truncated=torch.zeros(obs.shape[0], dtype=torch.bool),
                          done=torch.zeros(obs.shape[0], dtype=torch.bool),
                          info=Batch(), **extra)
            if self.on_policy:
                stats = self.algo._update_with_batch(batch, batch_size=None, repeat=1)
            else:
                stats = self.algo._update_with_batch(batch)
            return torch.tensor(sum(stats.get_loss_stats_dict().values()))

    return PolicyAct, UpdateStep


def _algo_case(mode, algo, discrete, on_policy=False):
    import torch

    PolicyAct, UpdateStep = _module()
    if mode == "eval":
        return PolicyAct(algo), (_obs(),), {}
    if discrete:
        act = torch.randint(0, _NA, (_B,))
    else:
        act = torch.rand(_B, _ACT) * 2 - 1
    extra = {}
    returns = torch.randn(_B, 1)
    if on_policy:
        with torch.no_grad():
            dist = algo.policy(__import__("tianshou").data.Batch(obs=_obs(), info={})).dist
            logp = dist.log_prob(act)
        returns = torch.randn(_B)
        extra = {"adv": torch.randn(_B), "logp_old": logp, "v_s": torch.randn(_B)}
    return UpdateStep(algo, on_policy), (_obs(), act, torch.randn(_B), _obs(), returns, extra), {}


def _qnet(**kw):
    from tianshou.utils.net.common import Net

    return Net(state_shape=_OBS, action_shape=_NA, hidden_sizes=_H, **kw)


def _dqn(mode):
    from tianshou.algorithm import DQN
    from tianshou.algorithm.modelfree.dqn import DiscreteQLearningPolicy

    _, _, disc = _spaces()
    pol = DiscreteQLearningPolicy(model=_qnet(), action_space=disc)
    algo = DQN(policy=pol, optim=_adam(), gamma=0.9, target_update_freq=5)
    return _algo_case(mode, algo, True)


def _c51(mode):
    from tianshou.algorithm import C51
    from tianshou.algorithm.modelfree.c51 import C51Policy

    _, _, disc = _spaces()
    pol = C51Policy(model=_qnet(num_atoms=11, softmax=True), action_space=disc, num_atoms=11)
    algo = C51(policy=pol, optim=_adam(), gamma=0.9, target_update_freq=5)
    return _algo_case(mode, algo, True)


def _qrdqn(mode):
    from tianshou.algorithm import QRDQN
    from tianshou.algorithm.modelfree.qrdqn import QRDQNPolicy

    _, _, disc = _spaces()
    pol = QRDQNPolicy(model=_qnet(num_atoms=8), action_space=disc)
    algo = QRDQN(policy=pol, optim=_adam(), gamma=0.9, num_quantiles=8, target_update_freq=5)
    return _algo_case(mode, algo, True)


def _iqn(mode):
    from tianshou.algorithm import IQN
    from tianshou.algorithm.modelfree.iqn import IQNPolicy
    from tianshou.utils.net.common import Net
    from tianshou.utils.net.discrete import ImplicitQuantileNetwork

    _, _, disc = _spaces()
    pre = Net(state_shape=_OBS, hidden_sizes=_H)
    net = ImplicitQuantileNetwork(preprocess_net=pre, action_shape=_NA, num_cosines=8)
    pol = IQNPolicy(model=net, action_space=disc, sample_size=8, online_sample_size=8,
                    target_sample_size=8)
    algo = IQN(policy=pol, optim=_adam(), gamma=0.9, target_update_freq=5)
    return _algo_case(mode, algo, True)


def _a2c_discrete(mode):
    from tianshou.algorithm import A2C
    from tianshou.algorithm.modelfree.reinforce import DiscreteActorPolicy
    from tianshou.utils.net.common import Net
    from tianshou.utils.net.discrete import DiscreteActor, DiscreteCritic

    obs, _, disc = _spaces()
    actor = DiscreteActor(preprocess_net=Net(state_shape=_OBS, hidden_sizes=_H), action_shape=_NA)
    critic = DiscreteCritic(preprocess_net=Net(state_shape=_OBS, hidden_sizes=_H))
    pol = DiscreteActorPolicy(actor=actor, action_space=disc, observation_space=obs)
    algo = A2C(policy=pol, critic=critic, optim=_adam(), max_grad_norm=0.5)
    return _algo_case(mode, algo, True, on_policy=True)


def _cont_prob_policy(dist="normal"):
    from torch.distributions import Independent, Normal
    from tianshou.algorithm.modelfree.reinforce import ProbabilisticActorPolicy
    from tianshou.utils.net.common import Net
    from tianshou.utils.net.continuous import ContinuousActorProbabilistic

    obs, box, _ = _spaces()
    actor = ContinuousActorProbabilistic(preprocess_net=Net(state_shape=_OBS, hidden_sizes=_H),
                                         action_shape=_ACT, unbounded=True)

    def dist_fn(loc_scale):  # as the high-level API's DistributionFunctionFactoryIndependentGaussians
        loc, scale = loc_scale
        return Independent(Normal(loc, scale), 1)

    return ProbabilisticActorPolicy(actor=actor, dist_fn=dist_fn, action_space=box,
                                    observation_space=obs, action_bound_method="clip")


def _ppo(mode):
    from tianshou.algorithm import PPO
    from tianshou.utils.net.common import Net
    from tianshou.utils.net.continuous import ContinuousCritic

    pol = _cont_prob_policy()
    critic = ContinuousCritic(preprocess_net=Net(state_shape=_OBS, hidden_sizes=_H))
    algo = PPO(policy=pol, critic=critic, optim=_adam(), value_clip=True, dual_clip=3.0,
               max_grad_norm=0.5)
    return _algo_case(mode, algo, False, on_policy=True)


def _reinforce(mode):
    from tianshou.algorithm import Reinforce

    algo = Reinforce(policy=_cont_prob_policy(), optim=_adam(), gamma=0.9)
    return _algo_case(mode, algo, False, on_policy=True)


def _critic():
    from tianshou.utils.net.common import Net
    from tianshou.utils.net.continuous import ContinuousCritic

    pre = Net(state_shape=_OBS, action_shape=_ACT, hidden_sizes=_H, concat=True)
    return ContinuousCritic(preprocess_net=pre)


def _det_policy():
    from tianshou.algorithm.modelfree.ddpg import ContinuousDeterministicPolicy
    from tianshou.utils.net.common import Net
    from tianshou.utils.net.continuous import ContinuousActorDeterministic

    obs, box, _ = _spaces()
    actor = ContinuousActorDeterministic(preprocess_net=Net(state_shape=_OBS, hidden_sizes=_H),
                                         action_shape=_ACT)
    return ContinuousDeterministicPolicy(actor=actor, action_space=box, observation_space=obs,
                                         exploration_noise="default")


def _ddpg(mode):
    from tianshou.algorithm import DDPG

    algo = DDPG(policy=_det_policy(), policy_optim=_adam(), critic=_critic(), critic_optim=_adam())
    return _algo_case(mode, algo, False)


def _td3(mode):
    from tianshou.algorithm import TD3

    algo = TD3(policy=_det_policy(), policy_optim=_adam(), critic=_critic(), critic_optim=_adam(),
               critic2=_critic(), critic2_optim=_adam(), update_actor_freq=1)
    return _algo_case(mode, algo, False)


def _sac_policy():
    from tianshou.algorithm.modelfree.sac import SACPolicy
    from tianshou.utils.net.common import Net
    from tianshou.utils.net.continuous import ContinuousActorProbabilistic

    obs, box, _ = _spaces()
    actor = ContinuousActorProbabilistic(preprocess_net=Net(state_shape=_OBS, hidden_sizes=_H),
                                         action_shape=_ACT, unbounded=True, conditioned_sigma=True)
    return SACPolicy(actor=actor, action_space=box, observation_space=obs)


def _sac(mode):
    from tianshou.algorithm import SAC
    from tianshou.algorithm.modelfree.sac import AutoAlpha

    alpha = AutoAlpha(target_entropy=-float(_ACT), log_alpha=0.0, optim=_adam())
    algo = SAC(policy=_sac_policy(), policy_optim=_adam(), critic=_critic(), critic_optim=_adam(),
               critic2=_critic(), critic2_optim=_adam(), alpha=alpha)
    return _algo_case(mode, algo, False)


def _redq(mode):
    from tianshou.algorithm import REDQ
    from tianshou.algorithm.modelfree.redq import REDQPolicy
    from tianshou.utils.net.common import EnsembleLinear, Net
    from tianshou.utils.net.continuous import ContinuousActorProbabilistic, ContinuousCritic

    obs, box, _ = _spaces()
    actor = ContinuousActorProbabilistic(preprocess_net=Net(state_shape=_OBS, hidden_sizes=_H),
                                         action_shape=_ACT, unbounded=True, conditioned_sigma=True)
    pol = REDQPolicy(actor=actor, action_space=box, observation_space=obs)

    def linear(x, y):
        return EnsembleLinear(4, x, y)

    pre = Net(state_shape=_OBS, action_shape=_ACT, hidden_sizes=_H, concat=True, linear_layer=linear)
    critic = ContinuousCritic(preprocess_net=pre, linear_layer=linear, flatten_input=False)
    algo = REDQ(policy=pol, policy_optim=_adam(), critic=critic, critic_optim=_adam(),
                ensemble_size=4, subset_size=2, alpha=0.2)
    return _algo_case(mode, algo, False)


def _discrete_sac(mode):
    from tianshou.algorithm import DiscreteSAC
    from tianshou.algorithm.modelfree.discrete_sac import DiscreteSACPolicy
    from tianshou.utils.net.common import Net
    from tianshou.utils.net.discrete import DiscreteActor, DiscreteCritic

    obs, _, disc = _spaces()
    actor = DiscreteActor(preprocess_net=Net(state_shape=_OBS, hidden_sizes=_H), action_shape=_NA,
                          softmax_output=False)

    def critic():
        return DiscreteCritic(preprocess_net=Net(state_shape=_OBS, hidden_sizes=_H), last_size=_NA)

    pol = DiscreteSACPolicy(actor=actor, action_space=disc, observation_space=obs)
    algo = DiscreteSAC(policy=pol, policy_optim=_adam(), critic=critic(), critic_optim=_adam(),
                       critic2=critic(), critic2_optim=_adam(), alpha=0.05)
    return _algo_case(mode, algo, True)


MODELS = {
    "Net_q": _net_q,
    "Net_dueling": _net_dueling,
    "Net_atoms_softmax": _net_atoms,
    "Net_concat": _net_concat,
    "Recurrent": _recurrent,
    "ContinuousActorProbabilistic": _cont_actor_prob,
    "ContinuousCritic": _cont_critic,
    "DiscreteActor": _discrete_actor,
    "ImplicitQuantileNetwork": _iqn_net,
    "FullQuantileFunction": _fqf_net,
    "BranchingNet": _branching,
    "IntrinsicCuriosityModule": _icm,
    "VAE": _vae,
    "DQN": _dqn,
    "C51": _c51,
    "QRDQN": _qrdqn,
    "IQN": _iqn,
    "A2C_discrete": _a2c_discrete,
    "PPO_continuous": _ppo,
    "Reinforce": _reinforce,
    "DDPG": _ddpg,
    "TD3": _td3,
    "SAC_auto_alpha": _sac,
    "REDQ": _redq,
    "DiscreteSAC": _discrete_sac,
}
