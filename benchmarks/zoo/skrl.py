"""skrl 2.1.1 (Toni-SM): the PyTorch side of the reinforcement-learning library without an
environment: its model mixins with the model classes of its docs' snippets
(``docs/source/snippets/*_model.py``) and examples (``examples/gymnasium/torch_gymnasium_*.py``),
its model instantiators with the networks of ``tests/utils/model_instantiators/torch/test_models.py``,
and each agent's ``act()`` and the losses of its ``update()``, built as ``tests/agents/torch/test_*.py``
build them (gymnasium spaces: a (4,) observation box, a (5,) state box, a (3,) action box in
[-1, 1], ``Discrete(3)``, ``MultiDiscrete([3, 4])``, the tests' ``Tuple`` / ``Dict`` boxes), tiny
(2 environments, memories of 4 rollouts x 2 environments, hidden layers of 16), random weights, no
download:

- mixins: ``GaussianMixin`` (the docs' sequential MLP with ``clip_actions`` / ``clip_mean_actions``;
  the functional MLP with ``reduction="none"``, given ``taken_actions``, then ``get_entropy()`` and
  ``distribution().stddev``; the docs' CNN on flattened 64x64x3 frames; ``reduction="prod"`` on an
  unbounded action box without ``clip_log_std``), ``MultivariateGaussianMixin`` (clipped, entropy),
  ``CategoricalMixin`` (logits with entropy; softmax probabilities with ``taken_actions``),
  ``MultiCategoricalMixin`` (logits; per-branch probabilities, ``reduction="none"``,
  ``taken_actions``) and the docs' single-forward-pass ``SharedModel`` (Gaussian + Deterministic,
  ``policy`` then ``value``);
- ``skrl.utils.model_instantiators.torch`` (class source generated and ``exec``-ed by the library,
  lazy modules set by ``init_state_dict``): ``gaussian_model`` (Box; a ``Dict`` observation through
  two containers summed, ``clip_mean_actions``, ``reduction="mean"``), ``multivariate_gaussian_model``
  on a ``Tuple`` observation, ``categorical_model`` / ``multicategorical_model`` on one-hot
  ``Discrete`` / ``MultiDiscrete`` observations (``one_hot_encoding``), ``deterministic_model`` with
  ``permute`` + ``conv2d`` + ``flatten`` layers and a ``2 * tanh(ACTIONS)`` output, and as a critic
  on ``concatenate([OBSERVATIONS, ACTIONS])``, ``shared_model`` (Gaussian + Deterministic single
  forward pass; Categorical + Deterministic two passes), ``tabular_model`` (epsilon-greedy);
- on-policy agents (a ``RandomMemory`` rollout buffer filled with random transitions through
  ``add_samples``, ``RunningStandardScaler`` observation and value preprocessors): PPO (the
  rollout's ``act``, values too; a ``shared_model`` Categorical policy/value), PPO's
  ``compute_gae`` at the rollout's end, A2C (multivariate Gaussian), RPO (the docs' ``alpha``
  perturbation), TRPO (``surrogate_loss``; and its natural-gradient step: ``conjugate_gradient``
  with ``fisher_vector_product`` in training, ``kl_divergence`` against the backup policy in eval),
  AMP (discriminator, motion dataset, reply buffer, AMP preprocessor), PPO_RNN (the docs' LSTM
  policy and value, sequences of 4 with in-sequence resets);
- off-policy agents (a replay ``RandomMemory``): SAC (an observation scaler; and ``random_act``
  before ``random_timesteps``), TD3 (``GaussianNoise`` exploration with the example's scheduler,
  target smoothing noise), DDPG (``OrnsteinUhlenbeckNoise``), DQN (the CartPole example's
  epsilon-greedy scheduler), DDQN (greedy), CEM (two tracked episodes), Q-learning and SARSA (the
  FrozenLake / Taxi ``tabular_model``);
- multi-agent: IPPO and MAPPO (centralised values on the shared state) on two agents.

Eval: ``model.act(inputs, role=...)`` / ``agent.act(observations, states, timestep=500,
timesteps=1000)`` as the library returns them (the TRPO step entry: ``kl_divergence`` and
``surrogate_loss``). Train: the agent's ``update()`` math on one minibatch sampled from its memory
(``memory.sample`` / ``sample_all``, preprocessors with ``train=True``, ``autocast`` as written),
copied without the optimizer steps, gradient clipping, target-network updates, schedulers, the
KL early stop and the logging ``.item()`` calls: PPO / RPO / IPPO / MAPPO (clipped surrogate,
entropy, clipped value loss), A2C, TRPO (``surrogate_loss`` and value loss; the step entry: the
search direction and expected improvement), AMP (style reward, PPO terms, discriminator loss with
logit regularization, gradient penalty by ``torch.autograd.grad`` and weight decay), PPO_RNN,
SAC (critic, actor and entropy-coefficient losses), TD3 / DDPG (critic and actor), DQN / DDQN (TD
loss), CEM (cross-entropy on the elite episodes); Q-learning and SARSA run the library's own
``record_transition`` (reward tracking on: ``write_interval=10``) and ``update()`` of the Q-table;
``mean_loss_module`` for the rest (mixins, instantiated models, GAE).

    pip install --no-deps skrl==2.1.1 gymnasium==1.2.2 cloudpickle==3.1.3 farama-notifications==0.0.6 packaging==26.4 tqdm==4.70.1

skrl declares gymnasium, packaging, tensorboard and tqdm; gymnasium needs numpy, typing_extensions
(both there), cloudpickle and farama-notifications. ``skrl.utils.tensorboard`` (imported at the top
of ``agents/torch/base.py`` and ``multi_agents/torch/base.py``) imports tensorboard's event protos:
tensorboard 2.21.0 with protobuf 7.36.2 were already installed here (``pip install --no-deps
tensorboard==2.21.0 protobuf==7.36.2`` where they are not); the Q-learning / SARSA entries'
``write_interval=10`` makes ``init()`` open an event file, under the temporary directory's
``skrl-zoo-runs`` (nothing is written to it). tqdm is imported by the trainers only. Nothing stubbed. Measured first as it came, before any rule looked at it.

Capture (torch 2.13.0+cpu): 40 models, 80 runs, all built, none timed out; 78 ran under Dynamo to
the end, 2 failed under Dynamo itself (``Q_LEARNING[train]``, ``SARSA[train]``:
``InternalTorchDynamoError: NotImplementedError: argument of type: <class 'collections.deque'>`` at
``np.array(self._track_rewards)`` in ``Agent.record_transition``, after the breaks before it). 25
runs break (21 inside the package, 4 only in this file's copied loss or docs model code); 55 have no
break at all: the mixins on Box / Discrete spaces, the on-policy agents' ``act`` and losses, SAC /
DDQN and every memory sample are plain tensor code. Package breaks: the agents' logging
``.item()`` calls in TD3 / DDPG ``act`` and in ``record_transition``'s reward tracking (with
``nonzero`` and ``tolist``); DQN's epsilon-greedy ``nonzero``; ``random_act`` -> ``sample_space``
-> gymnasium's ``batch_space(...).sample()`` (a ``functools.singledispatch`` call: GB0007
``_abc.get_cache_token``, then gymnasium's numpy sampling); ``compute_space_size`` ->
``gymnasium.spaces.flatdim`` (singledispatch again) when ``unflatten_tensorized_space`` splits a
``Tuple`` / ``Dict`` observation; ``MultiCategoricalMixin``'s ``action_space.nvec.tolist()`` and
``one_hot_encoding``'s ``num_classes=space.nvec[i]`` (NumPy traced as tensors: data-dependent
scalars, GB0033); the tabular model's ``nonzero`` (in ``exec``-ed source, reported at the mixin's
``self.compute`` call); TRPO's ``torch.autograd.grad`` in ``fisher_vector_product`` inside
``conjugate_gradient``'s loop (frame skips). First numbers with the frozen linter
(``/tmp/lint-start56``): graph-break statement recall 0.08 (2/24), precision 1.00 (2/2), 32
findings (14 in files run), 12 unjudged (2 shadowed, 10 not reached); both hits are TRPO's
``autograd.grad`` (CL130) and its loop (CL150). No false alarm.

Left out: the trainers, environment wrappers and loaders (they need an environment), the real
``update()`` / ``post_interaction()`` (optimizer steps, ``backward`` and checkpoints around the
losses kept), the jax / warp back ends, DDPG_RNN / TD3_RNN / SAC_RNN / A2C_RNN / RPO_RNN / TRPO_RNN
(PPO_RNN's pattern), the docs' GRU / RNN variants (the LSTM's), ``KLAdaptiveLR`` (a scheduler,
``.item()`` side), the memories' ``save`` / ``load``. Changed to run eagerly: the docs'
``SharedModel.act`` calls ``GaussianMixin.act(self, inputs, role)`` positionally, a ``TypeError``
in 2.x where ``role`` is keyword-only (called with ``role=role``, as the library's own
``shared_model`` source does); ``clip_actions=True`` on an unbounded action box fails eagerly
(``torch.clamp`` with both limits ``None``), so the unbounded entry does not clip; AMP's
``amp_batch_size`` is 8 (its default, 512, exceeds the tiny motion dataset); IPPO / MAPPO get every
dict-valued option per agent (``MultiAgentCfg.expand`` refuses the default empty dicts as naming
too few agents).
"""

import functools

PACKAGE = "skrl"

mean_loss_module = None  # adapter.mean_loss_module, set by ZooSuite

_B = 2  # environments (batch)
_T = 4  # rollouts kept in a memory (so a memory holds _T * _B transitions)
_OBS, _STATE, _ACT = 4, 5, 3  # the agent tests' Box sizes
_HID = 16
_TIMESTEP, _TIMESTEPS = 500, 1000  # where an agent is asked to act (past its random timesteps)


def warm_up():
    import gymnasium  # noqa: F401
    import torch  # noqa: F401

    import skrl  # noqa: F401
    import skrl.agents.torch.a2c  # noqa: F401
    import skrl.agents.torch.amp  # noqa: F401
    import skrl.agents.torch.cem  # noqa: F401
    import skrl.agents.torch.ddpg  # noqa: F401
    import skrl.agents.torch.ddqn  # noqa: F401
    import skrl.agents.torch.dqn  # noqa: F401
    import skrl.agents.torch.ppo  # noqa: F401
    import skrl.agents.torch.q_learning  # noqa: F401
    import skrl.agents.torch.rpo  # noqa: F401
    import skrl.agents.torch.sac  # noqa: F401
    import skrl.agents.torch.sarsa  # noqa: F401
    import skrl.agents.torch.td3  # noqa: F401
    import skrl.agents.torch.trpo  # noqa: F401
    import skrl.memories.torch  # noqa: F401
    import skrl.models.torch  # noqa: F401
    import skrl.multi_agents.torch.ippo  # noqa: F401
    import skrl.multi_agents.torch.mappo  # noqa: F401
    import skrl.resources.noises.torch  # noqa: F401
    import skrl.resources.preprocessors.torch  # noqa: F401
    import skrl.utils.model_instantiators.torch  # noqa: F401


# --- spaces and data -------------------------------------------------------------------------

def _space(kind):
    import numpy as np
    from gymnasium import spaces

    if kind == "obs":  # the agent tests' observation / state / action boxes
        return spaces.Box(low=-1, high=1, shape=(_OBS,))
    if kind == "state":
        return spaces.Box(low=-1, high=1, shape=(_STATE,))
    if kind == "action":
        return spaces.Box(low=-1, high=1, shape=(_ACT,))
    if kind == "unbounded_action":
        return spaces.Box(low=-np.inf, high=np.inf, shape=(_ACT,))
    if kind == "Discrete":
        return spaces.Discrete(3)
    if kind == "MultiDiscrete":
        return spaces.MultiDiscrete([3, 4])
    if kind == "image":  # the docs' CNN: 64x64 RGB frames, flattened (HWC) by the environment wrapper
        return spaces.Box(low=0, high=1, shape=(64, 64, 3))
    if kind == "small_image":
        return spaces.Box(low=0, high=1, shape=(16, 16, 3))
    if kind == "Tuple":  # test_models.py's composite spaces
        return spaces.Tuple((spaces.Box(low=-1, high=1, shape=(2,)), spaces.Box(low=-1, high=1, shape=(3,))))
    if kind == "Dict":
        return spaces.Dict({"0": spaces.Box(low=-1, high=1, shape=(2,)), "1": spaces.Box(low=-1, high=1, shape=(3,))})
    if kind == "lake":  # FrozenLake: 16 states, 4 actions
        return spaces.Discrete(16)
    if kind == "lake_action":
        return spaces.Discrete(4)
    raise ValueError(kind)


def _sample(space, batch=_B):
    """A flattened batch of a space, as an environment wrapper hands it to an agent (float
    observations; ``Discrete`` / ``MultiDiscrete`` values as integers)."""
    import torch

    from skrl.utils.spaces.torch import flatten_tensorized_space, sample_space

    x = flatten_tensorized_space(sample_space(space, batch_size=batch, backend="native", device="cpu"))
    return x if x.dtype in (torch.int64, torch.int32) else x.float()


def _fill(memory, action_space, steps=_T):
    """Fill a memory with ``steps`` random transitions through ``add_samples`` (what an agent's
    ``record_transition`` stores), by the dtype and size of each tensor it holds."""
    import torch
    from gymnasium import spaces

    for _ in range(steps):
        data = {}
        for name in memory.get_tensor_names():
            t = memory.tensors[name]
            shape = (memory.num_envs, *t.shape[2:])
            if t.dtype == torch.bool:
                data[name] = torch.rand(shape) < 0.25
            elif name == "actions" and isinstance(action_space, spaces.Discrete):
                data[name] = torch.randint(0, int(action_space.n), shape).to(t.dtype)
            elif name == "actions" and isinstance(action_space, spaces.MultiDiscrete):
                data[name] = torch.stack([torch.randint(0, int(n), shape[:1]) for n in action_space.nvec], -1).to(t.dtype)
            elif name == "actions":
                data[name] = (torch.rand(shape) * 2 - 1) * 0.9
            elif name == "log_prob":
                data[name] = -torch.rand(shape) - 1.0
            elif t.dtype.is_floating_point:
                data[name] = torch.randn(shape)
            else:
                data[name] = torch.randint(0, 2, shape).to(t.dtype)
        memory.add_samples(**data)
    return memory


# --- the user-side modules: the docs' and examples' model classes, the loss modules ----------

@functools.cache
def _nets():  # noqa: C901 (one namespace of classes, built once)
    import types

    import torch
    import torch.nn as nn
    import torch.nn.functional as F

    from skrl.agents.torch.ppo.ppo_rnn import compute_gae as compute_gae_rnn
    from skrl.agents.torch.trpo.trpo import (
        conjugate_gradient,
        fisher_vector_product,
        kl_divergence,
        surrogate_loss,
    )
    from skrl.models.torch import (
        CategoricalMixin,
        DeterministicMixin,
        GaussianMixin,
        Model,
        MultiCategoricalMixin,
        MultivariateGaussianMixin,
    )

    # -- models, as the docs' snippets (docs/source/snippets/*_model.py) and examples write them --

    class GaussianMLP(GaussianMixin, Model):
        """``[start-mlp-sequential-torch]`` (the examples' ``Policy`` / ``Actor``: ``2 * tanh``
        for Pendulum's [-2, 2]); ``rpo``: the RPO snippet's uniform perturbation by ``inputs["alpha"]``."""

        def __init__(self, observation_space, state_space, action_space, device, clip_actions=False,
                     clip_mean_actions=False, clip_log_std=True, min_log_std=-20, max_log_std=2, reduction="sum",
                     scale=1.0, rpo=False):
            Model.__init__(self, observation_space=observation_space, state_space=state_space,
                           action_space=action_space, device=device)
            GaussianMixin.__init__(self, clip_actions=clip_actions, clip_mean_actions=clip_mean_actions,
                                   clip_log_std=clip_log_std, min_log_std=min_log_std, max_log_std=max_log_std,
                                   reduction=reduction)
            self.net = nn.Sequential(nn.Linear(self.num_observations, _HID), nn.ReLU(), nn.Linear(_HID, _HID),
                                     nn.ReLU(), nn.Linear(_HID, self.num_actions), nn.Tanh())
            self.log_std_parameter = nn.Parameter(torch.zeros(self.num_actions))
            self.scale, self.rpo = scale, rpo

        def compute(self, inputs, role):
            mean_actions = self.scale * self.net(inputs["observations"])
            if self.rpo:
                # perturb the mean actions by adding a randomized uniform sample
                rpo_alpha = inputs["alpha"]
                perturbation = torch.zeros_like(mean_actions).uniform_(-rpo_alpha, rpo_alpha)
                mean_actions += perturbation
            return mean_actions, {"log_std": self.log_std_parameter}

    class GaussianFunctional(GaussianMixin, Model):
        """``[start-mlp-functional-torch]``."""

        def __init__(self, observation_space, state_space, action_space, device, clip_actions=False,
                     clip_mean_actions=False, clip_log_std=True, min_log_std=-20, max_log_std=2, reduction="sum"):
            Model.__init__(self, observation_space=observation_space, state_space=state_space,
                           action_space=action_space, device=device)
            GaussianMixin.__init__(self, clip_actions=clip_actions, clip_mean_actions=clip_mean_actions,
                                   clip_log_std=clip_log_std, min_log_std=min_log_std, max_log_std=max_log_std,
                                   reduction=reduction)
            self.fc1 = nn.Linear(self.num_observations, _HID)
            self.fc2 = nn.Linear(_HID, _HID)
            self.fc3 = nn.Linear(_HID, self.num_actions)
            self.log_std_parameter = nn.Parameter(torch.zeros(self.num_actions))

        def compute(self, inputs, role):
            x = self.fc1(inputs["observations"])
            x = F.relu(x)
            x = self.fc2(x)
            x = F.relu(x)
            x = self.fc3(x)
            return torch.tanh(x), {"log_std": self.log_std_parameter}

    class GaussianCNN(GaussianMixin, Model):
        """``[start-cnn-sequential-torch]``: flattened HWC frames viewed and permuted to NCHW."""

        def __init__(self, observation_space, state_space, action_space, device, clip_actions=False,
                     clip_mean_actions=False, clip_log_std=True, min_log_std=-20, max_log_std=2, reduction="sum"):
            Model.__init__(self, observation_space=observation_space, state_space=state_space,
                           action_space=action_space, device=device)
            GaussianMixin.__init__(self, clip_actions=clip_actions, clip_mean_actions=clip_mean_actions,
                                   clip_log_std=clip_log_std, min_log_std=min_log_std, max_log_std=max_log_std,
                                   reduction=reduction)
            self.net = nn.Sequential(
                nn.Conv2d(3, 32, kernel_size=8, stride=4), nn.ReLU(),
                nn.Conv2d(32, 64, kernel_size=4, stride=2), nn.ReLU(),
                nn.Conv2d(64, 64, kernel_size=3, stride=1), nn.ReLU(),
                nn.Flatten(),
                nn.Linear(1024, 512), nn.ReLU(),
                nn.Linear(512, 16), nn.Tanh(),
                nn.Linear(16, 64), nn.Tanh(),
                nn.Linear(64, 32), nn.Tanh(),
                nn.Linear(32, self.num_actions),
            )
            self.log_std_parameter = nn.Parameter(torch.zeros(self.num_actions))

        def compute(self, inputs, role):
            # permute (samples, width * height * channels) -> (samples, channels, width, height)
            return (self.net(inputs["observations"].view(-1, *self.observation_space.shape).permute(0, 3, 1, 2)),
                    {"log_std": self.log_std_parameter})

    class MultivariateGaussianMLP(MultivariateGaussianMixin, Model):
        """``multivariate_gaussian_model.py``'s ``[start-mlp-sequential-torch]``."""

        def __init__(self, observation_space, state_space, action_space, device, clip_actions=False,
                     clip_mean_actions=False, clip_log_std=True, min_log_std=-20, max_log_std=2):
            Model.__init__(self, observation_space=observation_space, state_space=state_space,
                           action_space=action_space, device=device)
            MultivariateGaussianMixin.__init__(self, clip_actions=clip_actions, clip_mean_actions=clip_mean_actions,
                                               clip_log_std=clip_log_std, min_log_std=min_log_std,
                                               max_log_std=max_log_std)
            self.net = nn.Sequential(nn.Linear(self.num_observations, _HID), nn.ReLU(), nn.Linear(_HID, _HID),
                                     nn.ReLU(), nn.Linear(_HID, self.num_actions), nn.Tanh())
            self.log_std_parameter = nn.Parameter(torch.zeros(self.num_actions))

        def compute(self, inputs, role):
            return self.net(inputs["observations"]), {"log_std": self.log_std_parameter}

    class CategoricalMLP(CategoricalMixin, Model):
        """The CartPole CEM example's ``Policy`` (``unnormalized_log_prob=False``: a softmax head,
        as ``categorical_model.py``'s probabilities variant)."""

        def __init__(self, observation_space, state_space, action_space, device, unnormalized_log_prob=True):
            Model.__init__(self, observation_space=observation_space, state_space=state_space,
                           action_space=action_space, device=device)
            CategoricalMixin.__init__(self, unnormalized_log_prob=unnormalized_log_prob)
            self.linear_layer_1 = nn.Linear(self.num_observations, _HID)
            self.linear_layer_2 = nn.Linear(_HID, _HID)
            self.output_layer = nn.Linear(_HID, self.num_actions)

        def compute(self, inputs, role):
            x = F.relu(self.linear_layer_1(inputs["observations"]))
            x = F.relu(self.linear_layer_2(x))
            x = self.output_layer(x)
            return (x if self._c_unnormalized_log_prob else torch.softmax(x, dim=-1)), {}

    class MultiCategoricalMLP(MultiCategoricalMixin, Model):
        """``multicategorical_model.py``'s MLP (logits, or per-branch softmax probabilities)."""

        def __init__(self, observation_space, state_space, action_space, device, unnormalized_log_prob=True,
                     reduction="sum"):
            Model.__init__(self, observation_space=observation_space, state_space=state_space,
                           action_space=action_space, device=device)
            MultiCategoricalMixin.__init__(self, unnormalized_log_prob=unnormalized_log_prob, reduction=reduction)
            self.net = nn.Sequential(nn.Linear(self.num_observations, _HID), nn.ReLU(), nn.Linear(_HID, _HID),
                                     nn.ReLU(), nn.Linear(_HID, self.num_actions))

        def compute(self, inputs, role):
            x = self.net(inputs["observations"])
            if not self._mc_unnormalized_log_prob:
                x = torch.cat([torch.softmax(p, -1) for p in torch.split(x, self.action_space.nvec.tolist(), -1)], -1)
            return x, {}

    class Value(DeterministicMixin, Model):
        """The examples' ``Value`` (``key="states"``: an asymmetric / centralised critic)."""

        def __init__(self, observation_space, state_space, action_space, device, key="observations"):
            Model.__init__(self, observation_space=observation_space, state_space=state_space,
                           action_space=action_space, device=device)
            DeterministicMixin.__init__(self)
            self.key = key
            size = self.num_states if key == "states" else self.num_observations
            self.net = nn.Sequential(nn.Linear(size, _HID), nn.ReLU(), nn.Linear(_HID, _HID), nn.ReLU(),
                                     nn.Linear(_HID, 1))

        def compute(self, inputs, role):
            return self.net(inputs[self.key]), {}

    class Critic(DeterministicMixin, Model):
        """The Pendulum examples' ``Critic``: Q(s, a) on the concatenated observation and action."""

        def __init__(self, observation_space, state_space, action_space, device):
            Model.__init__(self, observation_space=observation_space, state_space=state_space,
                           action_space=action_space, device=device)
            DeterministicMixin.__init__(self)
            self.net = nn.Sequential(nn.Linear(self.num_observations + self.num_actions, _HID), nn.ReLU(),
                                     nn.Linear(_HID, _HID), nn.ReLU(), nn.Linear(_HID, 1))

        def compute(self, inputs, role):
            x = self.net(torch.cat([inputs["observations"], inputs["taken_actions"]], dim=1))
            return x, {}

    class DeterministicActor(DeterministicMixin, Model):
        """The DDPG / TD3 examples' ``Actor`` (``2 * tanh``), ``clip_actions`` as they set it."""

        def __init__(self, observation_space, state_space, action_space, device, clip_actions=False):
            Model.__init__(self, observation_space=observation_space, state_space=state_space,
                           action_space=action_space, device=device)
            DeterministicMixin.__init__(self, clip_actions=clip_actions)
            self.linear_layer_1 = nn.Linear(self.num_observations, _HID)
            self.linear_layer_2 = nn.Linear(_HID, _HID)
            self.action_layer = nn.Linear(_HID, self.num_actions)

        def compute(self, inputs, role):
            x = F.relu(self.linear_layer_1(inputs["observations"]))
            x = F.relu(self.linear_layer_2(x))
            return 2 * torch.tanh(self.action_layer(x)), {}

    class QNetwork(DeterministicMixin, Model):
        """The CartPole DQN example's Q-network (its ``deterministic_model`` network, written out)."""

        def __init__(self, observation_space, state_space, action_space, device):
            Model.__init__(self, observation_space=observation_space, state_space=state_space,
                           action_space=action_space, device=device)
            DeterministicMixin.__init__(self)
            self.net = nn.Sequential(nn.Linear(self.num_observations, _HID), nn.ReLU(), nn.Linear(_HID, _HID),
                                     nn.ReLU(), nn.Linear(_HID, self.num_actions))

        def compute(self, inputs, role):
            return self.net(inputs["observations"]), {}

    class SharedModel(GaussianMixin, DeterministicMixin, Model):
        """``shared_model.py``'s ``[start-mlp-single-forward-pass-torch]``."""

        def __init__(self, observation_space, state_space, action_space, device, clip_actions=False,
                     clip_mean_actions=False, clip_log_std=True, min_log_std=-20, max_log_std=2, reduction="sum"):
            Model.__init__(self, observation_space=observation_space, state_space=state_space,
                           action_space=action_space, device=device)
            GaussianMixin.__init__(self, clip_actions=clip_actions, clip_mean_actions=clip_mean_actions,
                                   clip_log_std=clip_log_std, min_log_std=min_log_std, max_log_std=max_log_std,
                                   reduction=reduction, role="policy")
            DeterministicMixin.__init__(self, clip_actions=False, role="value")
            # shared layers/network
            self.net = nn.Sequential(nn.Linear(self.num_observations, 32), nn.ELU(), nn.Linear(32, 32), nn.ELU())
            # separated layers ("policy")
            self.mean_layer = nn.Linear(32, self.num_actions)
            self.log_std_parameter = nn.Parameter(torch.zeros(self.num_actions))
            # separated layer ("value")
            self.value_layer = nn.Linear(32, 1)

        # override the .act(...) method to disambiguate its call
        def act(self, inputs, role):
            if role == "policy":
                return GaussianMixin.act(self, inputs, role=role)
            elif role == "value":
                return DeterministicMixin.act(self, inputs, role=role)

        # forward the input to compute model output according to the specified role
        def compute(self, inputs, role):
            if role == "policy":
                # save shared layers/network output to perform a single forward-pass
                self._shared_output = self.net(inputs["observations"])
                return self.mean_layer(self._shared_output), {"log_std": self.log_std_parameter}
            elif role == "value":
                # use saved shared layers/network output to perform a single forward-pass, if it was saved
                shared_output = self.net(inputs["observations"]) if self._shared_output is None else self._shared_output
                self._shared_output = None  # reset saved shared output
                return self.value_layer(shared_output), {}

    class LSTMPolicy(GaussianMixin, Model):
        """``gaussian_model.py``'s ``[start-lstm-sequential-torch]`` (the Pendulum-novel LSTM
        examples): sequences in training, resetting the states where an episode ended."""

        def __init__(self, observation_space, state_space, action_space, device, clip_actions=False,
                     clip_mean_actions=False, clip_log_std=True, min_log_std=-20, max_log_std=2, reduction="sum",
                     num_envs=1, num_layers=1, hidden_size=_HID, sequence_length=_T, value=False):
            Model.__init__(self, observation_space=observation_space, state_space=state_space,
                           action_space=action_space, device=device)
            if not value:
                GaussianMixin.__init__(self, clip_actions=clip_actions, clip_mean_actions=clip_mean_actions,
                                       clip_log_std=clip_log_std, min_log_std=min_log_std, max_log_std=max_log_std,
                                       reduction=reduction)
            self.num_envs = num_envs
            self.num_layers = num_layers
            self.hidden_size = hidden_size  # Hcell (Hout is Hcell because proj_size = 0)
            self.sequence_length = sequence_length
            self.lstm = nn.LSTM(input_size=self.num_observations, hidden_size=self.hidden_size,
                                num_layers=self.num_layers, batch_first=True)  # (batch, sequence, features)
            self.net = nn.Sequential(nn.Linear(self.hidden_size, _HID), nn.ReLU(),
                                     nn.Linear(_HID, 1 if value else self.num_actions))
            if not value:
                self.net.append(nn.Tanh())
                self.log_std_parameter = nn.Parameter(torch.zeros(self.num_actions))
            self.value = value

        def get_specification(self):
            # batch size (N) is the number of envs during rollout
            return {"rnn": {"sequence_length": self.sequence_length,
                            "sizes": [(self.num_layers, self.num_envs, self.hidden_size),  # hidden states
                                      (self.num_layers, self.num_envs, self.hidden_size)]}}  # cell states

        def compute(self, inputs, role):
            observations = inputs["observations"]
            terminated = inputs.get("terminated", None)
            hidden_states, cell_states = inputs["rnn"][0], inputs["rnn"][1]
            # training
            if self.training:
                rnn_input = observations.view(-1, self.sequence_length, observations.shape[-1])  # (N, L, Hin)
                hidden_states = hidden_states.view(self.num_layers, -1, self.sequence_length,
                                                   hidden_states.shape[-1])  # (D * num_layers, N, L, Hout)
                cell_states = cell_states.view(self.num_layers, -1, self.sequence_length,
                                               cell_states.shape[-1])  # (D * num_layers, N, L, Hcell)
                # get the hidden/cell states corresponding to the initial sequence
                hidden_states = hidden_states[:, :, 0, :].contiguous()  # (D * num_layers, N, Hout)
                cell_states = cell_states[:, :, 0, :].contiguous()  # (D * num_layers, N, Hcell)
                # reset the RNN state in the middle of a sequence
                if terminated is not None and torch.any(terminated):
                    rnn_outputs = []
                    terminated = terminated.view(-1, self.sequence_length)
                    indexes = ([0] + (terminated[:, :-1].any(dim=0).nonzero(as_tuple=True)[0] + 1).tolist()
                               + [self.sequence_length])
                    for i in range(len(indexes) - 1):
                        i0, i1 = indexes[i], indexes[i + 1]
                        rnn_output, (hidden_states, cell_states) = self.lstm(rnn_input[:, i0:i1, :],
                                                                             (hidden_states, cell_states))
                        hidden_states[:, (terminated[:, i1 - 1]), :] = 0
                        cell_states[:, (terminated[:, i1 - 1]), :] = 0
                        rnn_outputs.append(rnn_output)
                    rnn_states = (hidden_states, cell_states)
                    rnn_output = torch.cat(rnn_outputs, dim=1)
                # no need to reset the RNN state in the sequence
                else:
                    rnn_output, rnn_states = self.lstm(rnn_input, (hidden_states, cell_states))
            # rollout
            else:
                rnn_input = observations.view(-1, 1, observations.shape[-1])  # (N, L, Hin): N=num_envs, L=1
                rnn_output, rnn_states = self.lstm(rnn_input, (hidden_states, cell_states))
            # flatten the RNN output
            rnn_output = torch.flatten(rnn_output, start_dim=0, end_dim=1)  # (N, L, D * Hout) -> (N * L, D * Hout)
            extra = {"rnn": [rnn_states[0], rnn_states[1]]}
            if not self.value:
                extra["log_std"] = self.log_std_parameter
            return self.net(rnn_output), extra

    class LSTMValue(DeterministicMixin, LSTMPolicy):
        def __init__(self, observation_space, state_space, action_space, device, **kwargs):
            LSTMPolicy.__init__(self, observation_space, state_space, action_space, device, value=True, **kwargs)
            DeterministicMixin.__init__(self)

    class Discriminator(DeterministicMixin, Model):
        """AMP's discriminator (an MLP over AMP observations, one logit)."""

        def __init__(self, observation_space, state_space, action_space, device, amp_size):
            Model.__init__(self, observation_space=observation_space, state_space=state_space,
                           action_space=action_space, device=device)
            DeterministicMixin.__init__(self)
            self.net = nn.Sequential(nn.Linear(amp_size, _HID), nn.ReLU(), nn.Linear(_HID, _HID), nn.ReLU(),
                                     nn.Linear(_HID, 1))

        def compute(self, inputs, role):
            return self.net(inputs["observations"]), {}

    # -- thin user wrappers around the library's calls --

    def _modules_of(obj):
        """The ``nn.Module`` values of an agent (its models, also in per-agent dicts, and its
        preprocessors), so that ``.train()`` / ``.eval()`` reach them."""
        found = []

        def visit(v, depth=0):
            if isinstance(v, nn.Module):
                if not any(v is m for m in found):
                    found.append(v)
            elif isinstance(v, dict) and depth < 2:
                for x in v.values():
                    visit(x, depth + 1)

        for value in vars(obj).values():
            visit(value)
        return nn.ModuleList(found)

    class Act(nn.Module):
        """``model.act(inputs, role=role)``, then (``entropy``) ``get_entropy`` and the
        distribution's ``stddev`` / ``probs`` as the agents log them."""

        def __init__(self, model, role="policy", entropy=False, extra=None):
            super().__init__()
            self.model, self.role, self.entropy = model, role, entropy
            self.extra = extra or {}

        def forward(self, inputs):
            actions, outputs = self.model.act({**inputs, **self.extra}, role=self.role)
            if not self.entropy:
                return actions, outputs
            entropy = self.model.get_entropy(role=self.role)
            distribution = self.model.distribution(role=self.role)
            spread = distribution.stddev if hasattr(distribution, "loc") else distribution.probs
            return actions, outputs, entropy, spread

    class ActRoles(nn.Module):
        """A shared model called as the agents call it: ``policy`` first, then ``value``."""

        def __init__(self, model, roles=("policy", "value")):
            super().__init__()
            self.model, self.roles = model, roles

        def forward(self, inputs):
            return [self.model.act(inputs, role=role) for role in self.roles]

    class TabularAct(nn.Module):
        """A ``TabularMixin`` model's ``act`` and the Q-values of the observed states (its ``tables()``)."""

        def __init__(self, model):
            super().__init__()
            self.model = model

        def forward(self, inputs):
            actions, _ = self.model.act(inputs, role="policy")
            q_table = next(iter(self.model.tables().values()))
            return actions, q_table[inputs["observations"]].float().mean(-1)

    class AgentAct(nn.Module):
        """``agent.act(observations, states, timestep=..., timesteps=...)`` (an agent's models and
        preprocessors registered, so that the probe's ``.train()`` / ``.eval()`` reach them)."""

        def __init__(self, agent, timestep=_TIMESTEP, timesteps=_TIMESTEPS, q_values=False):
            super().__init__()
            self.agent_modules = _modules_of(agent)
            self.agent = agent
            self.timestep, self.timesteps, self.q_values = timestep, timesteps, q_values

        def forward(self, observations, states=None):
            actions, outputs = self.agent.act(observations, states, timestep=self.timestep, timesteps=self.timesteps)
            if self.q_values:  # a tabular agent: its actions are integers
                q_table = next(iter(self.agent.policy.tables().values()))
                return actions, q_table[observations].float().mean(-1)
            return actions, outputs

    class AgentLoss(nn.Module):
        """An agent's ``update()`` math on one minibatch sampled from its memory, as one loss:
        ``update()`` without its optimizer steps, gradient clipping, target-network updates,
        schedulers and the logging ``.item()`` calls."""

        def __init__(self, agent, loss):
            super().__init__()
            self.agent_modules = _modules_of(agent)
            self.agent = agent
            self.loss = types.MethodType(loss, self)

        def forward(self):
            return self.loss()

    # -- the losses of the agents' update() (skrl/agents/torch/*/*.py), one minibatch each --

    def ppo_loss(self, rpo=False):
        agent = self.agent
        cfg = agent.cfg
        (sampled_observations, sampled_states, sampled_actions, sampled_log_prob, sampled_values, sampled_returns,
         sampled_advantages) = agent.memory.sample(names=agent._tensors_names, batch_size=len(agent.memory),
                                                   mini_batches=cfg.mini_batches)[0]
        with torch.autocast(device_type=agent._device_type, enabled=cfg.mixed_precision):
            inputs = {
                "observations": agent._observation_preprocessor(sampled_observations, train=True),
                "states": agent._state_preprocessor(sampled_states, train=True),
            }
            if rpo:
                inputs["alpha"] = cfg.alpha
            _, outputs = agent.policy.act({**inputs, "taken_actions": sampled_actions}, role="policy")
            next_log_prob = outputs["log_prob"]
            # compute approximate KL divergence
            with torch.no_grad():
                ratio = next_log_prob - sampled_log_prob
                kl_divergence = ((torch.exp(ratio) - 1) - ratio).mean()  # noqa: F841 (the early-stop test)
            # compute entropy loss
            if cfg.entropy_loss_scale:
                entropy_loss = -cfg.entropy_loss_scale * agent.policy.get_entropy(role="policy").mean()
            else:
                entropy_loss = 0
            # compute policy loss
            ratio = torch.exp(next_log_prob - sampled_log_prob)
            surrogate = sampled_advantages * ratio
            surrogate_clipped = sampled_advantages * torch.clip(ratio, 1.0 - cfg.ratio_clip, 1.0 + cfg.ratio_clip)
            policy_loss = -torch.min(surrogate, surrogate_clipped).mean()
            # compute value loss
            predicted_values, _ = agent.value.act(inputs, role="value")
            if cfg.value_clip > 0:
                predicted_values = sampled_values + torch.clip(predicted_values - sampled_values,
                                                               min=-cfg.value_clip, max=cfg.value_clip)
            value_loss = cfg.value_loss_scale * F.mse_loss(sampled_returns, predicted_values)
        return policy_loss + entropy_loss + value_loss

    def rpo_loss(self):
        return ppo_loss(self, rpo=True)

    def a2c_loss(self):
        agent = self.agent
        cfg = agent.cfg
        (sampled_observations, sampled_states, sampled_actions, sampled_log_prob, sampled_returns,
         sampled_advantages) = agent.memory.sample(names=agent._tensors_names, batch_size=len(agent.memory),
                                                   mini_batches=cfg.mini_batches)[0]
        with torch.autocast(device_type=agent._device_type, enabled=cfg.mixed_precision):
            inputs = {
                "observations": agent._observation_preprocessor(sampled_observations, train=True),
                "states": agent._state_preprocessor(sampled_states, train=True),
            }
            _, outputs = agent.policy.act({**inputs, "taken_actions": sampled_actions}, role="policy")
            next_log_prob = outputs["log_prob"]
            # compute entropy loss
            if cfg.entropy_loss_scale:
                entropy_loss = -cfg.entropy_loss_scale * agent.policy.get_entropy(role="policy").mean()
            else:
                entropy_loss = 0
            # compute policy loss
            policy_loss = -(sampled_advantages * next_log_prob).mean()
            # compute value loss
            predicted_values, _ = agent.value.act(inputs, role="value")
            value_loss = F.mse_loss(sampled_returns, predicted_values)
        return policy_loss + entropy_loss + value_loss

    def trpo_loss(self):
        """TRPO's surrogate objective (``surrogate_loss``) and its value loss."""
        agent = self.agent
        cfg = agent.cfg
        sampled_observations, sampled_states, sampled_actions, sampled_log_prob, sampled_advantages = (
            agent.memory.sample(names=agent._tensors_names_policy, batch_size=len(agent.memory), mini_batches=1)[0])
        sampled_observations = agent._observation_preprocessor(sampled_observations, train=True)
        sampled_states = agent._state_preprocessor(sampled_states, train=True)
        policy_loss = surrogate_loss(policy=agent.policy, observations=sampled_observations, states=sampled_states,
                                     actions=sampled_actions, log_prob=sampled_log_prob,
                                     advantages=sampled_advantages)
        sampled_observations, sampled_states, sampled_returns = agent.memory.sample(
            names=agent._tensors_names_value, batch_size=len(agent.memory), mini_batches=cfg.mini_batches)[0]
        inputs = {"observations": agent._observation_preprocessor(sampled_observations, train=False),
                  "states": agent._state_preprocessor(sampled_states, train=False)}
        predicted_values, _ = agent.value.act(inputs, role="value")
        value_loss = cfg.value_loss_scale * F.mse_loss(sampled_returns, predicted_values)
        return -policy_loss + value_loss

    def trpo_step(self):
        """TRPO's natural-gradient step: the surrogate's gradient, the search direction by
        ``conjugate_gradient`` (Fisher-vector products by double backward) and the step size."""
        agent = self.agent
        cfg = agent.cfg
        sampled_observations, sampled_states, sampled_actions, sampled_log_prob, sampled_advantages = (
            agent.memory.sample(names=agent._tensors_names_policy, batch_size=len(agent.memory), mini_batches=1)[0])
        sampled_observations = agent._observation_preprocessor(sampled_observations, train=True)
        sampled_states = agent._state_preprocessor(sampled_states, train=True)
        policy_loss = surrogate_loss(policy=agent.policy, observations=sampled_observations, states=sampled_states,
                                     actions=sampled_actions, log_prob=sampled_log_prob,
                                     advantages=sampled_advantages)
        policy_loss_gradient = torch.autograd.grad(policy_loss, agent.policy.parameters())
        flat_policy_loss_gradient = torch.cat([gradient.view(-1) for gradient in policy_loss_gradient])
        search_direction = conjugate_gradient(policy=agent.policy, observations=sampled_observations,
                                              states=sampled_states, b=flat_policy_loss_gradient.data,
                                              damping=cfg.damping, num_iterations=cfg.conjugate_gradient_steps)
        xHx = (search_direction * fisher_vector_product(policy=agent.policy, observations=sampled_observations,
                                                        states=sampled_states, vector=search_direction,
                                                        damping=cfg.damping)).sum(0, keepdim=True)
        step_size = torch.sqrt(2 * cfg.max_kl_divergence / xHx)[0]
        full_step = step_size * search_direction
        expected_improvement = (flat_policy_loss_gradient * full_step).sum(0, keepdim=True)
        return full_step, expected_improvement

    def trpo_kl(self):
        """The line search's two measures: ``kl_divergence`` against the backup policy and the
        new ``surrogate_loss`` (eval: no gradient)."""
        agent = self.agent
        sampled_observations, sampled_states, sampled_actions, sampled_log_prob, sampled_advantages = (
            agent.memory.sample(names=agent._tensors_names_policy, batch_size=len(agent.memory), mini_batches=1)[0])
        kl = kl_divergence(policy_1=agent.backup_policy, policy_2=agent.policy, observations=sampled_observations,
                           states=sampled_states)
        loss = surrogate_loss(policy=agent.policy, observations=sampled_observations, states=sampled_states,
                              actions=sampled_actions, log_prob=sampled_log_prob, advantages=sampled_advantages)
        return kl, loss

    def amp_loss(self):
        """AMP's minibatch: the style reward of the discriminator (as ``update()`` combines it
        with the task reward), PPO's policy / value losses, and the discriminator's loss with
        logit regularization, gradient penalty and weight decay."""
        agent = self.agent
        cfg = agent.cfg
        rewards = agent.memory.get_tensor_by_name("rewards")
        amp_observations = agent.memory.get_tensor_by_name("amp_observations")
        with torch.no_grad(), torch.autocast(device_type=agent._device_type, enabled=cfg.mixed_precision):
            amp_logits, _ = agent.discriminator.act(
                {"observations": agent._amp_observation_preprocessor(amp_observations)}, role="discriminator")
            style_reward = -torch.log(torch.maximum(1 - 1 / (1 + torch.exp(-amp_logits)),
                                                    torch.tensor(0.0001, device=agent.device))).view(rewards.shape)
        combined_rewards = cfg.task_reward_scale * rewards + cfg.style_reward_scale * style_reward
        (sampled_observations, sampled_states, sampled_actions, sampled_log_prob, sampled_values, sampled_returns,
         sampled_advantages, sampled_amp_observations) = agent.memory.sample(
            names=agent._tensors_names, batch_size=len(agent.memory), mini_batches=cfg.mini_batches)[0]
        sampled_motion = agent.motion_dataset.sample(names=["observations"], batch_size=len(agent.memory),
                                                     mini_batches=cfg.mini_batches)[0]
        with torch.autocast(device_type=agent._device_type, enabled=cfg.mixed_precision):
            inputs = {
                "observations": agent._observation_preprocessor(sampled_observations, train=True),
                "states": agent._state_preprocessor(sampled_states, train=True),
            }
            _, outputs = agent.policy.act({**inputs, "taken_actions": sampled_actions}, role="policy")
            next_log_prob = outputs["log_prob"]
            if cfg.entropy_loss_scale:
                entropy_loss = -cfg.entropy_loss_scale * agent.policy.get_entropy(role="policy").mean()
            else:
                entropy_loss = 0
            ratio = torch.exp(next_log_prob - sampled_log_prob)
            surrogate = sampled_advantages * ratio
            surrogate_clipped = sampled_advantages * torch.clip(ratio, 1.0 - cfg.ratio_clip, 1.0 + cfg.ratio_clip)
            policy_loss = -torch.min(surrogate, surrogate_clipped).mean()
            predicted_values, _ = agent.value.act(inputs, role="value")
            if cfg.value_clip > 0:
                predicted_values = sampled_values + torch.clip(predicted_values - sampled_values,
                                                               min=-cfg.value_clip, max=cfg.value_clip)
            value_loss = cfg.value_loss_scale * F.mse_loss(sampled_returns, predicted_values)
            # compute discriminator loss
            sampled_amp_observations = agent._amp_observation_preprocessor(sampled_amp_observations, train=True)
            sampled_amp_replay_observations = agent._amp_observation_preprocessor(sampled_amp_observations,
                                                                                  train=True)
            sampled_amp_motion_observations = agent._amp_observation_preprocessor(sampled_motion[0], train=True)
            sampled_amp_motion_observations.requires_grad_(True)
            amp_logits, _ = agent.discriminator.act({"observations": sampled_amp_observations}, role="discriminator")
            amp_replay_logits, _ = agent.discriminator.act({"observations": sampled_amp_replay_observations},
                                                           role="discriminator")
            amp_motion_logits, _ = agent.discriminator.act({"observations": sampled_amp_motion_observations},
                                                           role="discriminator")
            amp_cat_logits = torch.cat([amp_logits, amp_replay_logits], dim=0)
            # discriminator prediction loss
            discriminator_loss = 0.5 * (
                nn.BCEWithLogitsLoss()(amp_cat_logits, torch.zeros_like(amp_cat_logits))
                + torch.nn.BCEWithLogitsLoss()(amp_motion_logits, torch.ones_like(amp_motion_logits)))
            # discriminator logit regularization
            if cfg.discriminator_logit_regularization_scale:
                logit_weights = torch.flatten(list(agent.discriminator.modules())[-1].weight)
                discriminator_loss += cfg.discriminator_logit_regularization_scale * torch.sum(
                    torch.square(logit_weights))
            # discriminator gradient penalty
            if cfg.discriminator_gradient_penalty_scale:
                amp_motion_gradient = torch.autograd.grad(
                    amp_motion_logits, sampled_amp_motion_observations,
                    grad_outputs=torch.ones_like(amp_motion_logits), create_graph=True, retain_graph=True,
                    only_inputs=True)
                gradient_penalty = torch.sum(torch.square(amp_motion_gradient[0]), dim=-1).mean()
                discriminator_loss += cfg.discriminator_gradient_penalty_scale * gradient_penalty
            # discriminator weight decay
            if cfg.discriminator_weight_decay_scale:
                weights = [torch.flatten(module.weight) for module in agent.discriminator.modules()
                           if isinstance(module, torch.nn.Linear)]
                weight_decay = torch.sum(torch.square(torch.cat(weights, dim=-1)))
                discriminator_loss += cfg.discriminator_weight_decay_scale * weight_decay
            discriminator_loss *= cfg.discriminator_loss_scale
        return policy_loss + entropy_loss + value_loss + discriminator_loss + 0 * combined_rewards.mean()

    def _replay(agent):
        return agent.memory.sample(names=agent._tensors_names, batch_size=agent.cfg.batch_size)[0]

    def sac_loss(self):
        agent = self.agent
        cfg = agent.cfg
        (sampled_observations, sampled_states, sampled_actions, sampled_rewards, sampled_next_observations,
         sampled_next_states, sampled_terminated) = _replay(agent)
        with torch.autocast(device_type=agent._device_type, enabled=cfg.mixed_precision):
            inputs = {"observations": agent._observation_preprocessor(sampled_observations, train=True),
                      "states": agent._state_preprocessor(sampled_states, train=True)}
            next_inputs = {"observations": agent._observation_preprocessor(sampled_next_observations, train=True),
                           "states": agent._state_preprocessor(sampled_next_states, train=True)}
            with torch.no_grad():
                # compute target values
                next_actions, outputs = agent.policy.act(next_inputs, role="policy")
                next_log_prob = outputs["log_prob"]
                target_q1_values, _ = agent.target_critic_1.act({**next_inputs, "taken_actions": next_actions},
                                                                role="target_critic_1")
                target_q2_values, _ = agent.target_critic_2.act({**next_inputs, "taken_actions": next_actions},
                                                                role="target_critic_2")
                target_q_values = (torch.min(target_q1_values, target_q2_values)
                                   - agent._entropy_coefficient * next_log_prob)
                target_values = (sampled_rewards
                                 + cfg.discount_factor * sampled_terminated.logical_not() * target_q_values)
            # compute critic loss
            critic_1_values, _ = agent.critic_1.act({**inputs, "taken_actions": sampled_actions}, role="critic_1")
            critic_2_values, _ = agent.critic_2.act({**inputs, "taken_actions": sampled_actions}, role="critic_2")
            critic_loss = (F.mse_loss(critic_1_values, target_values) + F.mse_loss(critic_2_values, target_values)) / 2
        with torch.autocast(device_type=agent._device_type, enabled=cfg.mixed_precision):
            # compute policy (actor) loss
            actions, outputs = agent.policy.act(inputs, role="policy")
            log_prob = outputs["log_prob"]
            critic_1_values, _ = agent.critic_1.act({**inputs, "taken_actions": actions}, role="critic_1")
            critic_2_values, _ = agent.critic_2.act({**inputs, "taken_actions": actions}, role="critic_2")
            policy_loss = (agent._entropy_coefficient * log_prob - torch.min(critic_1_values, critic_2_values)).mean()
        loss = critic_loss + policy_loss
        # entropy learning
        if cfg.learn_entropy:
            with torch.autocast(device_type=agent._device_type, enabled=cfg.mixed_precision):
                entropy_loss = -(agent.log_entropy_coefficient * (log_prob + agent._target_entropy).detach()).mean()
            loss = loss + entropy_loss
        return loss

    def td3_loss(self, ddpg=False):
        agent = self.agent
        cfg = agent.cfg
        (sampled_observations, sampled_states, sampled_actions, sampled_rewards, sampled_next_observations,
         sampled_next_states, sampled_terminated) = _replay(agent)
        with torch.autocast(device_type=agent._device_type, enabled=cfg.mixed_precision):
            inputs = {"observations": agent._observation_preprocessor(sampled_observations, train=True),
                      "states": agent._state_preprocessor(sampled_states, train=True)}
            next_inputs = {"observations": agent._observation_preprocessor(sampled_next_observations, train=True),
                           "states": agent._state_preprocessor(sampled_next_states, train=True)}
            with torch.no_grad():
                if ddpg:
                    next_actions, _ = agent.target_policy.act(next_inputs, role="target_policy")
                    target_q_values, _ = agent.target_critic.act({**next_inputs, "taken_actions": next_actions},
                                                                 role="target_critic")
                else:
                    # target policy smoothing
                    next_actions, _ = agent.target_policy.act(next_inputs, role="target_policy")
                    if agent._smooth_regularization_noise is not None:
                        noises = torch.clamp(agent._smooth_regularization_noise.sample(next_actions.shape),
                                             min=-cfg.smooth_regularization_clip,
                                             max=cfg.smooth_regularization_clip)
                        next_actions.add_(noises)
                        next_actions.clamp_(min=agent._min_actions, max=agent._max_actions)
                    # compute target values
                    target_q1_values, _ = agent.target_critic_1.act({**next_inputs, "taken_actions": next_actions},
                                                                    role="target_critic_1")
                    target_q2_values, _ = agent.target_critic_2.act({**next_inputs, "taken_actions": next_actions},
                                                                    role="target_critic_2")
                    target_q_values = torch.min(target_q1_values, target_q2_values)
                target_values = (sampled_rewards
                                 + cfg.discount_factor * sampled_terminated.logical_not() * target_q_values)
            # compute critic loss
            if ddpg:
                critic_values, _ = agent.critic.act({**inputs, "taken_actions": sampled_actions}, role="critic")
                critic_loss = F.mse_loss(critic_values, target_values)
            else:
                critic_1_values, _ = agent.critic_1.act({**inputs, "taken_actions": sampled_actions},
                                                        role="critic_1")
                critic_2_values, _ = agent.critic_2.act({**inputs, "taken_actions": sampled_actions},
                                                        role="critic_2")
                critic_loss = F.mse_loss(critic_1_values, target_values) + F.mse_loss(critic_2_values, target_values)
        with torch.autocast(device_type=agent._device_type, enabled=cfg.mixed_precision):
            # compute policy (actor) loss
            actions, _ = agent.policy.act(inputs, role="policy")
            critic = agent.critic if ddpg else agent.critic_1
            critic_values, _ = critic.act({**inputs, "taken_actions": actions}, role="critic" if ddpg else "critic_1")
            policy_loss = -critic_values.mean()
        return critic_loss + policy_loss

    def ddpg_loss(self):
        return td3_loss(self, ddpg=True)

    def dqn_loss(self, double=False):
        agent = self.agent
        cfg = agent.cfg
        (sampled_observations, sampled_states, sampled_actions, sampled_rewards, sampled_next_observations,
         sampled_next_states, sampled_terminated) = _replay(agent)
        with torch.autocast(device_type=agent._device_type, enabled=cfg.mixed_precision):
            inputs = {"observations": agent._observation_preprocessor(sampled_observations, train=True),
                      "states": agent._state_preprocessor(sampled_states, train=True)}
            next_inputs = {"observations": agent._observation_preprocessor(sampled_next_observations, train=True),
                           "states": agent._state_preprocessor(sampled_next_states, train=True)}
            # compute target values
            with torch.no_grad():
                next_q_values, _ = agent.target_q_network.act(next_inputs, role="target_q_network")
                if double:
                    target_q_values = torch.gather(next_q_values, dim=1, index=torch.argmax(
                        agent.q_network.act(next_inputs, role="q_network")[0], dim=1, keepdim=True))
                else:
                    target_q_values = torch.max(next_q_values, dim=-1, keepdim=True)[0]
                target_values = (sampled_rewards
                                 + cfg.discount_factor * sampled_terminated.logical_not() * target_q_values)
            # compute Q-network loss
            q_values = torch.gather(agent.q_network.act(inputs, role="q_network")[0], dim=1,
                                    index=sampled_actions.long())
            q_network_loss = F.mse_loss(q_values, target_values)
        return q_network_loss

    def ddqn_loss(self):
        return dqn_loss(self, double=True)

    def cem_loss(self):
        """CEM's update: discounted returns per tracked episode, the elite episodes above the
        percentile, and the cross-entropy of the policy's scores on their actions."""
        agent = self.agent
        cfg = agent.cfg
        sampled_observations, sampled_states, sampled_actions, sampled_rewards = agent.memory.sample_all(
            names=agent._tensors_names)[0]
        sampled_observations = agent._observation_preprocessor(sampled_observations, train=True)
        sampled_states = agent._state_preprocessor(sampled_states, train=True)
        with torch.no_grad():
            # compute discounted return threshold
            limits = []
            returns = []
            for e in range(sampled_rewards.size(-1)):
                for i, j in zip(agent._episode_tracking[e][:-1], agent._episode_tracking[e][1:]):
                    limits.append([e + i, e + j])
                    rewards = sampled_rewards[e + i: e + j]
                    returns.append(torch.sum(rewards * cfg.discount_factor ** torch.arange(
                        rewards.size(0), device=rewards.device).flip(-1).view(rewards.size())))
            returns = torch.tensor(returns)
            return_threshold = torch.quantile(returns, cfg.percentile, dim=-1)
            # get elite observations/states and actions
            indexes = torch.nonzero(returns >= return_threshold)
            elite_observations = torch.cat([sampled_observations[limits[i][0]: limits[i][1]] for i in indexes[:, 0]],
                                           dim=0)
            elite_actions = torch.cat([sampled_actions[limits[i][0]: limits[i][1]] for i in indexes[:, 0]], dim=0)
        with torch.autocast(device_type=agent._device_type, enabled=cfg.mixed_precision):
            # compute scores for the elite observations/states
            _, outputs = agent.policy.act({"observations": elite_observations, "states": None}, role="policy")
            scores = outputs["net_output"]
            # compute policy loss
            policy_loss = F.cross_entropy(scores, elite_actions.view(-1))
        return policy_loss

    def ppo_rnn_loss(self):
        """PPO_RNN's minibatch: ``sample_all`` in sequences, the policy's and value's stored RNN
        states, ``terminated`` for the in-sequence resets."""
        agent = self.agent
        cfg = agent.cfg
        sampled_batches = agent.memory.sample_all(names=agent._tensors_names, mini_batches=cfg.mini_batches,
                                                  sequence_length=agent._rnn_sequence_length)
        sampled_rnn_batches = agent.memory.sample_all(names=agent._rnn_tensors_names, mini_batches=cfg.mini_batches,
                                                      sequence_length=agent._rnn_sequence_length)
        (sampled_observations, sampled_states, sampled_actions, sampled_terminated, sampled_truncated,
         sampled_log_prob, sampled_values, sampled_returns, sampled_advantages) = sampled_batches[0]
        rnn_policy = {"rnn": [s.transpose(0, 1) for s, n in zip(sampled_rnn_batches[0], agent._rnn_tensors_names)
                              if "policy" in n], "terminated": sampled_terminated, "truncated": sampled_truncated}
        rnn_value = {"rnn": [s.transpose(0, 1) for s, n in zip(sampled_rnn_batches[0], agent._rnn_tensors_names)
                             if "value" in n], "terminated": sampled_terminated, "truncated": sampled_truncated}
        with torch.autocast(device_type=agent._device_type, enabled=cfg.mixed_precision):
            inputs = {"observations": agent._observation_preprocessor(sampled_observations, train=True),
                      "states": agent._state_preprocessor(sampled_states, train=True)}
            _, outputs = agent.policy.act({**inputs, "taken_actions": sampled_actions, **rnn_policy}, role="policy")
            next_log_prob = outputs["log_prob"]
            if cfg.entropy_loss_scale:
                entropy_loss = -cfg.entropy_loss_scale * agent.policy.get_entropy(role="policy").mean()
            else:
                entropy_loss = 0
            ratio = torch.exp(next_log_prob - sampled_log_prob)
            surrogate = sampled_advantages * ratio
            surrogate_clipped = sampled_advantages * torch.clip(ratio, 1.0 - cfg.ratio_clip, 1.0 + cfg.ratio_clip)
            policy_loss = -torch.min(surrogate, surrogate_clipped).mean()
            predicted_values, _ = agent.value.act({**inputs, **rnn_value}, role="value")
            if cfg.value_clip > 0:
                predicted_values = sampled_values + torch.clip(predicted_values - sampled_values,
                                                               min=-cfg.value_clip, max=cfg.value_clip)
            value_loss = cfg.value_loss_scale * F.mse_loss(sampled_returns, predicted_values)
        return policy_loss + entropy_loss + value_loss

    def multi_ppo_loss(self):
        """IPPO / MAPPO: each agent's PPO minibatch loss (its own memory, policy, value and
        preprocessors), summed over the agents."""
        agent = self.agent
        cfg = agent.cfg
        total = 0
        for uid in agent.possible_agents:
            policy, value, memory = agent.policies[uid], agent.values[uid], agent.memories[uid]
            (sampled_observations, sampled_states, sampled_actions, sampled_log_prob, sampled_values,
             sampled_returns, sampled_advantages) = memory.sample(
                names=agent._tensors_names, batch_size=len(memory), mini_batches=cfg.mini_batches[uid])[0]
            with torch.autocast(device_type=agent._device_type, enabled=cfg.mixed_precision):
                inputs = {"observations": agent._observation_preprocessor[uid](sampled_observations, train=True),
                          "states": agent._state_preprocessor[uid](sampled_states, train=True)}
                _, outputs = policy.act({**inputs, "taken_actions": sampled_actions}, role="policy")
                next_log_prob = outputs["log_prob"]
                if cfg.entropy_loss_scale[uid]:
                    entropy_loss = -cfg.entropy_loss_scale[uid] * policy.get_entropy(role="policy").mean()
                else:
                    entropy_loss = 0
                ratio = torch.exp(next_log_prob - sampled_log_prob)
                surrogate = sampled_advantages * ratio
                surrogate_clipped = sampled_advantages * torch.clip(ratio, 1.0 - cfg.ratio_clip[uid],
                                                                    1.0 + cfg.ratio_clip[uid])
                policy_loss = -torch.min(surrogate, surrogate_clipped).mean()
                predicted_values, _ = value.act(inputs, role="value")
                if cfg.value_clip[uid] > 0:
                    predicted_values = sampled_values + torch.clip(predicted_values - sampled_values,
                                                                   min=-cfg.value_clip[uid], max=cfg.value_clip[uid])
                value_loss = cfg.value_loss_scale[uid] * F.mse_loss(sampled_returns, predicted_values)
            total = total + policy_loss + entropy_loss + value_loss
        return total

    def tabular_update(self):
        """Q-learning / SARSA: ``record_transition`` (reward tracking on, as ``write_interval`` > 0
        sets it) then the agent's own ``update()`` of its Q-table; the updated Q-values out."""
        agent = self.agent
        data = self.transition
        agent.record_transition(**data, infos={}, timestep=_TIMESTEP, timesteps=_TIMESTEPS)
        agent.update(timestep=_TIMESTEP, timesteps=_TIMESTEPS)
        q_table = next(iter(agent.policy.tables().values()))
        return q_table[data["observations"]].mean()

    class GAE(nn.Module):
        """The rollout's end in ``update()``: the value of the next observations (no gradient,
        value model in eval), the memory's values, and the advantages by ``compute_gae``
        (``rnn``: PPO_RNN's variant, ``next_values``)."""

        def __init__(self, agent, compute_gae, rnn=False):
            super().__init__()
            self.agent_modules = _modules_of(agent)
            self.agent, self.compute_gae, self.rnn = agent, compute_gae, rnn

        def forward(self, next_observations):
            agent = self.agent
            with torch.no_grad():
                inputs = {"observations": agent._observation_preprocessor(next_observations), "states": None}
                last_values, _ = agent.value.act(inputs, role="value")
                last_values = agent._value_preprocessor(last_values, inverse=True)
            memory = agent.memory
            values = memory.get_tensor_by_name("values")
            # a gradient reaches the value model: the memory's values recomputed by it
            observations = memory.get_tensor_by_name("observations")
            values = values + 0 * agent.value.act({"observations": observations.view(-1, observations.shape[-1]),
                                                   "states": None}, role="value")[0].view(values.shape)
            if self.rnn:
                return compute_gae_rnn(rewards=memory.get_tensor_by_name("rewards"),
                                       terminated=memory.get_tensor_by_name("terminated"), values=values,
                                       next_values=last_values, discount_factor=agent.cfg.discount_factor,
                                       lambda_coefficient=agent.cfg.gae_lambda)
            returns, advantages = self.compute_gae(
                rewards=memory.get_tensor_by_name("rewards"), terminated=memory.get_tensor_by_name("terminated"),
                truncated=memory.get_tensor_by_name("truncated"), values=values, last_values=last_values,
                discount_factor=agent.cfg.discount_factor, lambda_coefficient=agent.cfg.gae_lambda,
                time_limit_bootstrap=agent.cfg.time_limit_bootstrap)
            return returns, advantages, agent._value_preprocessor(returns, train=True)

    return types.SimpleNamespace(**{k: v for k, v in locals().items() if not k.startswith("_") or k == "_replay"})


# --- builders ----------------------------------------------------------------------------------

def _mean(net, args, mode, kwargs=None):
    return (mean_loss_module()(net) if mode == "train" else net), args, dict(kwargs or {})


def _obs_inputs(observation_space, extra=None, batch=_B):
    inputs = {"observations": _sample(observation_space, batch)}
    inputs.update(extra or {})
    return inputs


def _mixin(cls_name, obs="obs", action="action", wrapper="Act", entropy=False, taken_actions=False, role="policy",
           **kwargs):
    """A model class from the docs / examples on its own: ``model.act(inputs, role=...)``
    (``entropy``: then ``get_entropy`` and the distribution; ``taken_actions``: the log-probability
    of given actions, as the agents' updates ask)."""

    def make(mode):
        nets = _nets()
        observation_space, action_space = _space(obs), _space(action)
        model = getattr(nets, cls_name)(observation_space, None, action_space, "cpu", **kwargs)
        extra = {}
        if taken_actions:
            extra["taken_actions"] = _sample(action_space)
            if extra["taken_actions"].dtype.is_floating_point:
                extra["taken_actions"] = extra["taken_actions"] * 0.9
        if wrapper == "ActRoles":
            net = nets.ActRoles(model)
        else:
            net = nets.Act(model, role=role, entropy=entropy)
        return _mean(net, (_obs_inputs(observation_space, extra),), mode)

    return make


def _instantiated(fn_name, obs="obs", action="action", network=None, output="ACTIONS", act_roles=None, init=True,
                  taken_actions=False, **kwargs):
    """A model from ``skrl.utils.model_instantiators.torch`` (source generated and ``exec``-ed
    by the library), its lazy modules initialised by ``init_state_dict`` as the examples do."""

    def make(mode):
        from skrl.utils.model_instantiators import torch as instantiators

        nets = _nets()
        observation_space, action_space = _space(obs), _space(action)
        fn = getattr(instantiators, fn_name)
        if fn_name == "shared_model":
            model = fn(observation_space=observation_space, action_space=action_space, device="cpu", **kwargs)
        elif fn_name == "tabular_model":
            model = fn(observation_space=observation_space, action_space=action_space, device="cpu", **kwargs)
        else:
            model = fn(observation_space=observation_space, action_space=action_space, device="cpu",
                       network=network, output=output, **kwargs)
        extra = {}
        if taken_actions:
            extra["taken_actions"] = _sample(action_space).float()
        if fn_name == "tabular_model":
            return _mean(nets.TabularAct(model), (_obs_inputs(observation_space),), mode)
        for role in act_roles or ["policy"]:
            if init:
                model.init_state_dict(role=role)
        if act_roles and len(act_roles) > 1:
            net = nets.ActRoles(model, roles=tuple(act_roles))
        else:
            net = nets.Act(model, role=(act_roles or ["policy"])[0])
        return _mean(net, (_obs_inputs(observation_space, extra),), mode)

    return make


def _scaler(size):
    from skrl.resources.preprocessors.torch import RunningStandardScaler

    return {"cls": RunningStandardScaler, "kwargs": {"size": size, "device": "cpu"}}


def _on_policy_agent(algo, policy="gaussian", shared=False, preprocess=True, entropy=0.01, rnn=False, **cfg_kwargs):
    """An on-policy agent (PPO, A2C, RPO, TRPO, AMP, PPO_RNN) as the agent tests build it: a
    ``RandomMemory`` rollout buffer of ``_T`` x ``_B``, ``RunningStandardScaler`` observation
    and value preprocessors, ``init()``, and the memory filled with random transitions."""
    import dataclasses
    import importlib

    import numpy as np

    from skrl.memories.torch import RandomMemory

    nets = _nets()
    base = algo.split("_")[0]
    module = importlib.import_module(f"skrl.agents.torch.{base.lower()}")
    Agent, Cfg = getattr(module, algo), getattr(module, f"{base}_CFG")
    observation_space = _space("obs")
    action_space = _space("Discrete" if policy == "categorical" else "action")
    models = {}
    if rnn:
        models["policy"] = nets.LSTMPolicy(observation_space, None, action_space, "cpu", num_envs=_B)
        models["value"] = nets.LSTMValue(observation_space, None, action_space, "cpu", num_envs=_B)
    elif shared:
        from skrl.utils.model_instantiators.torch import shared_model

        models["policy"] = shared_model(
            observation_space=observation_space, action_space=action_space, device="cpu",
            structure=["CategoricalMixin", "DeterministicMixin"], roles=["policy", "value"],
            parameters=[{"network": [{"name": "net", "input": "OBSERVATIONS", "layers": [_HID, _HID],
                                      "activations": "elu"}], "output": "ACTIONS"},
                        {"network": [{"name": "net", "input": "OBSERVATIONS", "layers": [_HID, _HID],
                                      "activations": "elu"}], "output": "ONE"}])
        models["policy"].init_state_dict(role="policy")
        models["value"] = models["policy"]
    else:
        if policy == "multivariate":
            models["policy"] = nets.MultivariateGaussianMLP(observation_space, None, action_space, "cpu")
        else:
            models["policy"] = nets.GaussianMLP(observation_space, None, action_space, "cpu", rpo=algo == "RPO")
        models["value"] = nets.Value(observation_space, None, action_space, "cpu")
    kwargs = dict(rollouts=_T, learning_epochs=1, mini_batches=2 if not rnn else 1, entropy_loss_scale=entropy)
    if algo == "TRPO":
        kwargs.pop("entropy_loss_scale")
        kwargs.update(conjugate_gradient_steps=3)
    if preprocess:
        obs_scaler, value_scaler = _scaler(observation_space), _scaler(1)
        kwargs.update(observation_preprocessor=obs_scaler["cls"], observation_preprocessor_kwargs=obs_scaler["kwargs"],
                      value_preprocessor=value_scaler["cls"], value_preprocessor_kwargs=value_scaler["kwargs"])
    kwargs.update(cfg_kwargs)
    known = {f.name for f in dataclasses.fields(Cfg)}
    kwargs = {k: v for k, v in kwargs.items() if k in known}  # A2C has no learning_epochs
    extra = {}
    if algo == "AMP":
        from gymnasium import spaces

        amp_space = spaces.Box(low=-np.inf, high=np.inf, shape=(6,))
        models["discriminator"] = nets.Discriminator(observation_space, None, action_space, "cpu", amp_size=6)
        # the motion dataset and reply buffer as the AMP examples make them (one "environment")
        motion_dataset = RandomMemory(memory_size=2 * _T * _B, device="cpu")
        amp_scaler = _scaler(amp_space)
        kwargs.update(amp_observation_preprocessor=amp_scaler["cls"],
                      amp_observation_preprocessor_kwargs=amp_scaler["kwargs"], amp_batch_size=_T * _B)
        extra = dict(amp_observation_space=amp_space, motion_dataset=motion_dataset,
                     reply_buffer=RandomMemory(memory_size=2 * _T * _B, device="cpu"),
                     collect_reference_motions=lambda num_samples: torch_randn(num_samples, 6))
    if algo == "TRPO":
        models["policy"] = nets.GaussianMLP(observation_space, None, action_space, "cpu")
    memory = RandomMemory(memory_size=_T, num_envs=_B, device="cpu")
    agent = Agent(models=models, memory=memory, cfg=Cfg(**kwargs), observation_space=observation_space,
                  state_space=None, action_space=action_space, device="cpu", **extra)
    agent.init()
    _fill(memory, action_space)
    return agent, observation_space


def torch_randn(*shape):
    import torch

    return torch.randn(*shape)


_ON_POLICY_LOSS = {"PPO": "ppo_loss", "RPO": "rpo_loss", "A2C": "a2c_loss", "TRPO": "trpo_loss", "AMP": "amp_loss",
                   "PPO_RNN": "ppo_rnn_loss"}


def _on_policy(algo, rollout=False, loss=None, eval_loss=None, **kwargs):
    """Eval: ``agent.act`` (``rollout``: with ``enable_training_mode(True)``, as a trainer's rollout
    calls it: values too); train: the agent's update loss on a minibatch of its memory."""

    def make(mode):
        nets = _nets()
        agent, observation_space = _on_policy_agent(algo, **kwargs)
        if mode == "train":
            return nets.AgentLoss(agent, getattr(nets, loss or _ON_POLICY_LOSS[algo])), (), {}
        if eval_loss:
            return nets.AgentLoss(agent, getattr(nets, eval_loss)), (), {}
        if rollout:
            agent.enable_training_mode(True)
        return nets.AgentAct(agent), (_sample(observation_space),), {}

    return make


def _gae(algo="PPO", **kwargs):
    def make(mode):
        import importlib

        nets = _nets()
        agent, observation_space = _on_policy_agent(algo, **kwargs)
        module = importlib.import_module(f"skrl.agents.torch.{algo.lower()}.{algo.lower()}")
        return _mean(nets.GAE(agent, module.compute_gae), (_sample(observation_space),), mode)

    return make


def _off_policy_agent(algo, exploration=None, random_timesteps=0, preprocess=False, **cfg_kwargs):
    """An off-policy agent as the Pendulum / CartPole examples configure it, tiny: a replay
    ``RandomMemory`` of ``_T`` x ``_B`` (batch ``_B``), ``init()``, filled with random transitions."""
    import importlib

    from skrl.memories.torch import RandomMemory
    from skrl.resources.noises.torch import GaussianNoise, OrnsteinUhlenbeckNoise

    nets = _nets()
    module = importlib.import_module(f"skrl.agents.torch.{algo.lower()}")
    Agent, Cfg = getattr(module, algo), getattr(module, f"{algo}_CFG")
    observation_space = _space("obs")
    discrete = algo in ("DQN", "DDQN")
    action_space = _space("Discrete" if discrete else "action")
    models = {}
    if discrete:
        for role in ("q_network", "target_q_network"):
            models[role] = nets.QNetwork(observation_space, None, action_space, "cpu")
    elif algo == "SAC":
        models["policy"] = nets.GaussianMLP(observation_space, None, action_space, "cpu", scale=2.0)
        for role in ("critic_1", "critic_2", "target_critic_1", "target_critic_2"):
            models[role] = nets.Critic(observation_space, None, action_space, "cpu")
    else:
        for role in ("policy", "target_policy"):
            models[role] = nets.DeterministicActor(observation_space, None, action_space, "cpu")
        for role in (("critic", "target_critic") if algo == "DDPG" else
                     ("critic_1", "critic_2", "target_critic_1", "target_critic_2")):
            models[role] = nets.Critic(observation_space, None, action_space, "cpu")
    kwargs = dict(batch_size=_B, random_timesteps=random_timesteps, learning_starts=0)
    if exploration == "gaussian":  # the TD3 example
        kwargs.update(exploration_noise=GaussianNoise, exploration_noise_kwargs={"mean": 0.0, "std": 0.1,
                                                                                 "device": "cpu"},
                      exploration_scheduler=lambda timestep, timesteps: max(1 - timestep / timesteps, 1e-2),
                      smooth_regularization_noise=GaussianNoise,
                      smooth_regularization_noise_kwargs={"mean": 0.0, "std": 0.2, "device": "cpu"},
                      smooth_regularization_clip=0.5)
    elif exploration == "ou":  # the DDPG example
        kwargs.update(exploration_noise=OrnsteinUhlenbeckNoise,
                      exploration_noise_kwargs={"theta": 0.15, "sigma": 0.1, "base_scale": 1.0, "device": "cpu"},
                      exploration_scheduler=lambda timestep, timesteps: max(1 - timestep / timesteps, 1e-2))
    elif exploration == "epsilon":  # the CartPole DQN example
        import math

        kwargs.update(exploration_scheduler=lambda timestep, timesteps: max(math.exp(-10 * timestep / timesteps),
                                                                            0.05))
    if preprocess:
        scaler = _scaler(observation_space)
        kwargs.update(observation_preprocessor=scaler["cls"], observation_preprocessor_kwargs=scaler["kwargs"])
    kwargs.update(cfg_kwargs)
    memory = RandomMemory(memory_size=_T, num_envs=_B, device="cpu", replacement=False)
    agent = Agent(models=models, memory=memory, cfg=Cfg(**kwargs), observation_space=observation_space,
                  state_space=None, action_space=action_space, device="cpu")
    agent.init()
    _fill(memory, action_space)
    return agent, observation_space


def _off_policy(algo, timestep=_TIMESTEP, **kwargs):
    """Eval: ``agent.act`` (exploration noise / epsilon-greedy at ``timestep`` of ``_TIMESTEPS``;
    before ``random_timesteps``: ``random_act``); train: the update's losses on a replay batch."""

    def make(mode):
        nets = _nets()
        agent, observation_space = _off_policy_agent(algo, **kwargs)
        if mode == "train":
            return nets.AgentLoss(agent, getattr(nets, f"{algo.lower()}_loss")), (), {}
        return nets.AgentAct(agent, timestep=timestep), (_sample(observation_space),), {}

    return make


def _cem(mode):
    """The CartPole CEM example (Categorical policy), its memory holding two tracked episodes."""
    from skrl.agents.torch.cem import CEM, CEM_CFG
    from skrl.memories.torch import RandomMemory

    nets = _nets()
    observation_space, action_space = _space("obs"), _space("Discrete")
    models = {"policy": nets.CategoricalMLP(observation_space, None, action_space, "cpu")}
    memory = RandomMemory(memory_size=_T, num_envs=_B, device="cpu", replacement=False)
    agent = CEM(models=models, memory=memory, cfg=CEM_CFG(rollouts=_T, percentile=0.7),
                observation_space=observation_space, state_space=None, action_space=action_space, device="cpu")
    agent.init()
    _fill(memory, action_space)
    agent._episode_tracking = [[0, 3, 5, 8]]  # as record_transition tracks ended episodes
    if mode == "train":
        return nets.AgentLoss(agent, nets.cem_loss), (), {}
    return nets.AgentAct(agent), (_sample(observation_space),), {}


def _tabular(algo):
    """The FrozenLake Q-learning / Taxi SARSA examples: ``tabular_model`` epsilon-greedy on 16
    states x 4 actions. Eval: ``agent.act``; train: ``record_transition`` + ``update()``."""

    def make(mode):
        import importlib
        import os
        import tempfile

        import torch

        from skrl.utils.model_instantiators.torch import tabular_model

        nets = _nets()
        module = importlib.import_module(f"skrl.agents.torch.{algo.lower()}")
        Agent, Cfg = getattr(module, algo.upper()), getattr(module, f"{algo.upper()}_CFG")
        observation_space, action_space = _space("lake"), _space("lake_action")
        policy = tabular_model(observation_space=observation_space, action_space=action_space, device="cpu",
                               variant="epsilon-greedy", variant_kwargs={"epsilon": 0.1})
        cfg = Cfg(discount_factor=0.999, learning_rate=0.4)
        cfg.experiment.write_interval = 10  # reward tracking in record_transition
        # (init() then opens a TensorBoard event file: kept out of the working directory)
        cfg.experiment.directory = os.path.join(tempfile.gettempdir(), "skrl-zoo-runs")
        agent = Agent(models={"policy": policy}, memory=None, cfg=cfg, observation_space=observation_space,
                      state_space=None, action_space=action_space, device="cpu")
        agent.init()
        observations = torch.randint(0, 16, (_B, 1))
        if mode == "train":
            agent.enable_training_mode(True)
            net = nets.AgentLoss(agent, nets.tabular_update)
            net.transition = dict(observations=observations, states=None,
                                  actions=torch.randint(0, 4, (_B, 1)), rewards=torch.rand(_B, 1),
                                  next_observations=torch.randint(0, 16, (_B, 1)), next_states=None,
                                  terminated=torch.tensor([[True], [False]]), truncated=torch.zeros(_B, 1, dtype=torch.bool))
            return net, (), {}
        return nets.AgentAct(agent, q_values=True), (observations,), {}

    return make


def _multi_agent(algo):
    """IPPO / MAPPO on two agents (``test_ippo.py`` / ``test_mappo.py``'s setting): Gaussian
    policies, values (MAPPO's on the shared state), per-agent memories and scalers."""

    def make(mode):
        import importlib

        import torch

        from skrl.memories.torch import RandomMemory

        nets = _nets()
        module = importlib.import_module(f"skrl.multi_agents.torch.{algo.lower()}")
        Agent, Cfg = getattr(module, algo), getattr(module, f"{algo}_CFG")
        uids = ["agent_0", "agent_1"]
        obs, state, action = _space("obs"), _space("state"), _space("action")
        models = {uid: {"policy": nets.GaussianMLP(obs, state, action, "cpu"),
                        "value": nets.Value(obs, state, action, "cpu", key="states" if algo == "MAPPO" else
                                            "observations")} for uid in uids}
        memories = {uid: RandomMemory(memory_size=_T, num_envs=_B, device="cpu") for uid in uids}
        scaler = _scaler(obs)
        # the tests' settings; every dict-valued option given per agent (an empty dict, the
        # default, is refused by MultiAgentCfg.expand as naming too few agents)
        cfg = Cfg(rollouts=_T, learning_epochs=1, mini_batches=2, entropy_loss_scale=0.01,
                  observation_preprocessor=scaler["cls"], observation_preprocessor_kwargs=scaler["kwargs"],
                  learning_rate_scheduler_kwargs={u: {} for u in uids}, state_preprocessor_kwargs={u: {} for u in uids},
                  value_preprocessor_kwargs={u: {} for u in uids})
        agent = Agent(possible_agents=uids, models=models, memories=memories, observation_spaces={u: obs for u in uids},
                      state_spaces={u: state for u in uids}, action_spaces={u: action for u in uids}, device="cpu",
                      cfg=cfg)
        agent.init()
        for uid in uids:
            _fill(memories[uid], action)
        if mode == "train":
            return nets.AgentLoss(agent, nets.multi_ppo_loss), (), {}
        agent.enable_training_mode(True)  # the rollout: values too
        observations = {uid: _sample(obs) for uid in uids}
        states = {uid: torch.randn(_B, _STATE) for uid in uids}
        return nets.AgentAct(agent), (observations, states), {}

    return make


def _net(name, layers, inputs="OBSERVATIONS", activations="elu"):
    return {"name": name, "input": inputs, "layers": layers, "activations": activations}


_SHARED_PARAMS = [
    {"clip_actions": False, "clip_mean_actions": False, "clip_log_std": True, "min_log_std": -20, "max_log_std": 2,
     "initial_log_std": 0, "network": [_net("net", [_HID, _HID])], "output": "ACTIONS"},
    {"clip_actions": False, "network": [_net("net", [_HID, _HID])], "output": "ONE"},
]
_SHARED_CAT_PARAMS = [
    {"unnormalized_log_prob": True, "network": [_net("net", [_HID, _HID])], "output": "ACTIONS"},
    {"clip_actions": False, "network": [_net("net", [_HID, _HID])], "output": "ONE"},
]

MODELS = {
    # --- the mixins, with the docs' / examples' model classes ---
    "GaussianMixin_MLP_clip": _mixin("GaussianMLP", clip_actions=True, clip_mean_actions=True),
    "GaussianMixin_functional_none_taken_actions": _mixin("GaussianFunctional", entropy=True, taken_actions=True,
                                                          reduction="none"),
    "GaussianMixin_CNN": _mixin("GaussianCNN", obs="image", clip_actions=True, clip_mean_actions=True),
    "GaussianMixin_unbounded_prod_no_log_std_clip": _mixin("GaussianMLP", action="unbounded_action",
                                                           reduction="prod", clip_log_std=False),
    "MultivariateGaussianMixin_MLP": _mixin("MultivariateGaussianMLP", entropy=True, clip_actions=True),
    "CategoricalMixin_logits": _mixin("CategoricalMLP", action="Discrete", entropy=True),
    "CategoricalMixin_probs_taken_actions": _mixin("CategoricalMLP", action="Discrete", taken_actions=True,
                                                   unnormalized_log_prob=False),
    "MultiCategoricalMixin_logits": _mixin("MultiCategoricalMLP", action="MultiDiscrete", entropy=True),
    "MultiCategoricalMixin_probs_none_taken_actions": _mixin("MultiCategoricalMLP", action="MultiDiscrete",
                                                             entropy=True, taken_actions=True,
                                                             unnormalized_log_prob=False, reduction="none"),
    "SharedModel_single_forward_pass": _mixin("SharedModel", wrapper="ActRoles"),
    # --- model instantiators (test_models.py's networks) ---
    "gaussian_model": _instantiated("gaussian_model", network=[_net("net", [_HID, _HID, _HID])]),
    "gaussian_model_Dict_obs": _instantiated("gaussian_model", obs="Dict", network=[
        _net("net_0", [_HID, _HID], 'OBSERVATIONS["0"]'), _net("net_1", [_HID, _HID], 'OBSERVATIONS["1"]'),
        _net("net", [_HID], "net_0 + net_1")], clip_mean_actions=True, reduction="mean"),
    "multivariate_gaussian_model_Tuple_obs": _instantiated("multivariate_gaussian_model", obs="Tuple", network=[
        _net("net_0", [_HID], "OBSERVATIONS[0]"), _net("net_1", [_HID], "OBSERVATIONS[1]"),
        _net("net", [_HID], "net_0 + net_1")], initial_log_std=-0.5),
    "categorical_model_one_hot_Discrete_obs": _instantiated(
        "categorical_model", obs="Discrete", action="Discrete",
        network=[_net("net", [_HID, _HID], "one_hot_encoding(OBSERVATION_SPACE, OBSERVATIONS)", "relu")]),
    "multicategorical_model_one_hot_MultiDiscrete_obs": _instantiated(
        "multicategorical_model", obs="MultiDiscrete", action="MultiDiscrete", taken_actions=True,
        network=[_net("net", [_HID, _HID], "one_hot_encoding(OBSERVATION_SPACE, OBSERVATIONS)")]),
    "deterministic_model_conv2d_permute": _instantiated(
        "deterministic_model", obs="small_image", clip_actions=True,
        network=[_net("features", [{"conv2d": [8, 4, 2]}, {"conv2d": {"out_channels": 16, "kernel_size": 3}},
                                   "flatten", _HID], "permute(OBSERVATIONS, (0, 3, 1, 2))", "relu")],
        output="2 * tanh(ACTIONS)"),
    "deterministic_model_critic_concatenate": _instantiated(
        "deterministic_model", taken_actions=True, act_roles=["critic"],
        network=[_net("net", [_HID, _HID], "concatenate([OBSERVATIONS, ACTIONS])", "relu")], output="ONE"),
    "shared_model_Gaussian_Deterministic_single_pass": _instantiated(
        "shared_model", act_roles=["policy", "value"], roles=["policy", "value"], structure=["GaussianMixin", "DeterministicMixin"],
        parameters=_SHARED_PARAMS, single_forward_pass=True),
    "shared_model_Categorical_Deterministic_two_passes": _instantiated(
        "shared_model", action="Discrete", act_roles=["policy", "value"], roles=["policy", "value"],
        structure=["CategoricalMixin", "DeterministicMixin"], parameters=_SHARED_CAT_PARAMS,
        single_forward_pass=False),
    "tabular_model_epsilon_greedy": _instantiated("tabular_model", obs="lake", action="lake_action",
                                                  variant="epsilon-greedy", variant_kwargs={"epsilon": 0.5}),
    # --- on-policy agents: act / the update's minibatch loss ---
    "PPO_rollout_act": _on_policy("PPO", rollout=True),
    "PPO_shared_model_Categorical": _on_policy("PPO", policy="categorical", shared=True, preprocess=False),
    "PPO_compute_gae": _gae("PPO"),
    "A2C_MultivariateGaussian": _on_policy("A2C", policy="multivariate"),
    "RPO": _on_policy("RPO"),
    "TRPO": _on_policy("TRPO"),
    "TRPO_natural_gradient": _on_policy("TRPO", loss="trpo_step", eval_loss="trpo_kl"),
    "AMP": _on_policy("AMP"),
    "PPO_RNN_LSTM": _on_policy("PPO_RNN", rnn=True, preprocess=False),
    # --- off-policy agents ---
    "SAC": _off_policy("SAC", preprocess=True),
    "SAC_random_timesteps": _off_policy("SAC", timestep=0, random_timesteps=10, learn_entropy=False),
    "TD3_gaussian_noise": _off_policy("TD3", exploration="gaussian"),
    "DDPG_ou_noise": _off_policy("DDPG", exploration="ou"),
    "DQN_epsilon_greedy": _off_policy("DQN", exploration="epsilon"),
    "DDQN_greedy": _off_policy("DDQN"),
    "CEM": _cem,
    "Q_LEARNING": _tabular("q_learning"),
    "SARSA": _tabular("sarsa"),
    # --- multi-agent ---
    "IPPO": _multi_agent("IPPO"),
    "MAPPO": _multi_agent("MAPPO"),
}
