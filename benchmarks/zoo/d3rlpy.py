"""d3rlpy 2.8.1 (Takuma Seno): offline (and online) deep RL, driven without an environment: each
algorithm's torch implementation built by the library's own ``<Algo>Config(...).create()`` and
``create_impl(observation_shape, action_size)`` (its builders: encoders, ensemble Q-functions,
policies, VAEs, value functions, transformers, optimizers), as ``tests/algos/qlearning/test_*.py``,
``tests/algos/transformer/test_*.py`` and ``tests/ope/test_fqe.py`` configure them (the tests'
``warmup_steps=0`` / ``rl_start_step=0``, ``create_scaler_tuple("min_max")`` scalers; their
observation shapes (vector, the (4, 32, 32) frames, a tuple), with the reproductions' and examples'
options (``reproductions/offline/*.py``: fixed CQL alpha, ReBRAC's layer-normed critic with a
standard observation scaler, IQL's return-based reward scaler, Atari's pixel scaler;
``examples/tuple_observation.py``: SAC on a tuple observation with its custom encoders), tiny
(batch 2, observations of 8, 2 continuous actions or 3 discrete ones, encoders of 2 x 16 units,
two small convolutions for frames, 8 quantiles, a context of 4), random weights, no download:

- continuous actor-critic: DDPG, TD3, TD3+BC (``SimBaEncoderFactory``), SAC (plain, IQN
  Q-functions, a tuple observation with ``TupleObservationScaler``), CQL (min-max scalers and a
  learned alpha; QR Q-functions with a fixed alpha; ``max_q_backup``; ``soft_q_backup`` on uint8
  frames with a batch-normed, dropout critic), Cal-QL, IQL, AWAC, CRR (mean / exp, max / binary
  with soft target updates), BCQ, BEAR (laplacian; gaussian kernel with QR Q-functions), PLAS,
  PLAS with perturbation, PRDC (its sklearn ``NearestNeighbors`` fitted on random data, as
  ``PRDC.fit`` does on the dataset), ReBRAC, BC (deterministic with min-max scalers; stochastic
  with batch norm);
- discrete: DQN (plain; QR with a shared encoder over 2 critics, whose gradient hooks the builder
  registers; uint8 frames with ``PixelObservationScaler``), Double DQN (IQN), NFQ (dropout),
  discrete CQL (plain; QR over 2 critics), discrete BCQ, discrete SAC, discrete BC;
- off-policy evaluation: ``FQE`` of a DDPG policy (min-max scalers), ``DiscreteFQE`` (QR) of a DQN;
- transformers: Decision Transformer (simple position encoding; global position encoding with
  min-max scalers), discrete Decision Transformer (global), TACR.

Eval: Q-learning algorithms run ``save_policy``'s ``_func`` (what it traces for TorchScript /
ONNX): the observation scaler, ``impl.predict_best_action`` (its ``eval_api`` switching the
modules to eval), the action scaler reversed; FQE runs ``predict_value`` on the data's actions;
transformers run ``StatefulTransformerWrapper.predict``'s torch part: a ``TorchTransformerInput``
of one context (batch 1, as the wrapper feeds it) through ``impl.predict`` (the discrete one's
argmax). Train: one ``update`` on a minibatch given as tensors (observations, actions, rewards,
next observations and actions, returns-to-go, terminals, intervals): ``TorchMiniBatch.from_batch``'s
scalers, then the losses of the impl's ``compute_*_grad`` methods (what ``compile_graph=True``
hands to ``torch.compile``), summed, without their ``zero_grad`` / ``backward`` and the optimizer
steps: critic (``compute_target`` + ``compute_critic_loss``) and actor (``policy(obs)`` +
``compute_actor_loss``) for the actor-critics, with the VAE error for BCQ (its actor from a
decoded latent, as its ``compute_actor_grad``) and BEAR; ``compute_target`` + ``compute_loss`` for
the DQN family; the imitation loss for BC; FQE's update (the evaluated policy's
``predict_best_action`` on the next observations); ``compute_loss`` of a trajectory minibatch for
the Decision Transformers, TACR's actor and critic (``to_transition_batch``). What the library
itself does inside these losses stays: SAC's ``update_temp``, CQL's ``update_alpha`` and BEAR's
``update_alpha`` take their own ``backward()`` and optimizer step in the middle of the loss.

    pip install --no-deps d3rlpy==2.8.1
    pip install --no-deps structlog==26.1.0
    pip install --no-deps dataclasses-json==0.6.7 marshmallow==3.26.1 typing-inspect==0.9.0 mypy-extensions==1.1.0
    pip install --no-deps gym==0.26.2 gym-notices==0.1.0 gymnasium==1.2.2 cloudpickle==3.1.3 farama-notifications==0.0.6
    pip install --no-deps h5py==3.16.0 tqdm==4.70.1 click==8.4.0 colorama==0.4.6
    pip install --no-deps scikit-learn==1.9.1 joblib==1.6.0 threadpoolctl==3.8.0   # (+ numpy, scipy)

d3rlpy declares torch, tqdm, h5py, gym, click, typing-extensions, structlog, colorama,
dataclasses-json, gymnasium==1.0.0 and scikit-learn; here only d3rlpy, structlog, dataclasses-json
and marshmallow (dataclasses-json 0.6.7 needs marshmallow < 4) were missing, the rest was installed
(gymnasium 1.2.2, not the pinned 1.0.0: d3rlpy imports its spaces and wrappers only; gym 0.26.2
prints its "unmaintained" notice at import). All pure Python except h5py, scikit-learn, numpy and
scipy (wheels). Nothing stubbed. Measured first as it came, before any rule looked at it.

Capture (torch 2.13.0+cpu): 40 models, 80 runs, all built, none timed out; 68 ran under Dynamo to
the end (39 eval, 29 train), 12 failed under Dynamo itself with ``TorchRuntimeError: Tensor device
mismatch ... cpu and cpu:0`` (BCQ eval and train; the train runs of TD3, TD3+BC, PRDC, ReBRAC,
TACR, Cal-QL and all four CQL entries). d3rlpy's default device string is ``"cpu:0"``
(``_process_device(False)``) and the impls draw noise / latents / uniform actions with
``torch.randn(..., device=self._device)`` / ``torch.zeros(..., device=self._device)`` (TD3's
target smoothing, BCQ's VAE latent, CQL's random actions, TACR's target noise): eager treats
``cpu:0`` as ``cpu``, Dynamo's fake tensors do not, so the first op mixing such a tensor with a
parameter's output fails (GB5173 at the ``+`` or the encoder's ``torch.cat``). 18 runs break (the
12 failures included), 62 have no break at all: every other eval run and the DQN family, BC,
IQL, AWAC, CRR, PLAS, FQE and the Decision Transformers' losses are plain tensor code. The other
breaks: ``assert self._modules.temp_optim`` / ``alpha_optim`` (the truth value of an
``OptimizerWrapper``: GB0055, the frame skipped) in SAC's / discrete SAC's ``update_temp`` and
BEAR's ``update_alpha``, then ``OptimizerWrapper.step`` -> ``torch.optim``'s own
``torch._dynamo.graph_break()`` (GB0025; BEAR's two optimizers recompile ``step``), and
``kl_divergence(dist, Normal(0.0, 1.0))`` in ``compute_vae_error`` (``_dispatch_kl``'s ``min``
over a generator, GB0059) for BCQ and BEAR. The device failures hide what comes after them
(CQL's ``update_alpha``, PRDC's ``.cpu().numpy()`` and sklearn ``kneighbors``). First numbers
with the frozen linter (``/tmp/lint-mid56``): graph-break statement recall 0.00 (0/10), precision
— (0/0: no finding on an executed line), 29 findings (3 in files run), 3 unjudged (not reached:
``load_learnable``'s ``open`` / ``pickle.load`` / ``LOG.warning``). Ten misses, no false alarm.

Left out: environments, datasets and ``fit`` / ``fitter`` / the online ``fit_online`` loops
(replay buffers, explorers, loggers, evaluators: numpy and I/O around the torch code), the
tests' ``DummyEncoderFactory`` (real encoders instead), ``compile_graph=True`` (its
``CudaGraphWrapper`` needs CUDA), DDP, and the models no algorithm of 2.8.1 builds
(``GatoTransformer``). Two configurations fail in eager in 2.8.1 and are replaced: IQN
Q-functions on a continuous algorithm with ``n_greedy_quantiles != n_quantiles`` (the default
64 / 32: the target's quantiles do not match ``compute_error``'s assertion; SAC's entry uses 8 /
8), and CQL ``max_q_backup`` with QR Q-functions (its (B, 1) max target fails the quantile
assertion; ``max_q_backup`` runs with mean Q-functions, QR with the default backup).
"""

import functools

PACKAGE = "d3rlpy"

mean_loss_module = None  # adapter.py's, set by ZooSuite

_B, _OBS, _ACT, _NA = 2, 8, 2, 3  # batch, vector observation size, continuous action size, discrete actions
_PIX = (4, 32, 32)  # the tests' image observation shape
_TUPLE = ((8,), (6,))  # a tuple observation (examples/tuple_observation.py)
_T = 4  # transformer context


def warm_up():
    import torch  # noqa: F401

    import d3rlpy  # noqa: F401
    import d3rlpy.algos  # noqa: F401
    import d3rlpy.ope  # noqa: F401


# --- the library's pieces, tiny ---------------------------------------------------------------

class _Lazy(functools.partial):
    """A config value built when the model is (the library is imported inside factories only)."""


def _resolve(kwargs):
    return {k: v() if isinstance(v, _Lazy) else v for k, v in kwargs.items()}


def _make_vec(**kwargs):
    from d3rlpy.models import VectorEncoderFactory

    return VectorEncoderFactory(hidden_units=[16, 16], **kwargs)


def _make_pix(**kwargs):
    from d3rlpy.models import PixelEncoderFactory

    return PixelEncoderFactory(filters=[[8, 4, 2], [16, 3, 1]], feature_size=16, **kwargs)


def _make_simba():
    from d3rlpy.models import SimBaEncoderFactory

    return SimBaEncoderFactory(feature_size=16, hidden_size=32, n_blocks=2)


def _make_qr(**kwargs):
    from d3rlpy.models import QRQFunctionFactory

    return QRQFunctionFactory(n_quantiles=8, **kwargs)


def _make_iqn(**kwargs):
    from d3rlpy.models import IQNQFunctionFactory

    return IQNQFunctionFactory(**{"n_quantiles": 8, "n_greedy_quantiles": 4, "embed_size": 8, **kwargs})


def _make_global():
    from d3rlpy.constants import PositionEncodingType

    return PositionEncodingType.GLOBAL


def _vec(**kwargs):
    """``VectorEncoderFactory`` with two hidden layers of 16 (its options as given)."""
    return _Lazy(_make_vec, **kwargs)


def _pix(**kwargs):
    """``PixelEncoderFactory`` with two small convolutions for the (4, 32, 32) frames."""
    return _Lazy(_make_pix, **kwargs)


def _simba():
    return _Lazy(_make_simba)


def _qr(**kwargs):
    return _Lazy(_make_qr, **kwargs)


def _iqn(**kwargs):
    return _Lazy(_make_iqn, **kwargs)


def _global():
    return _Lazy(_make_global)


def _min_max(obs_shape=(_OBS,)):
    """The tests' ``create_scaler_tuple("min_max")``: observation, action and reward scalers
    (fitted: bounds given)."""
    import numpy as np
    from d3rlpy.preprocessing import MinMaxActionScaler, MinMaxObservationScaler, MinMaxRewardScaler

    return dict(
        observation_scaler=MinMaxObservationScaler(minimum=np.zeros(obs_shape), maximum=np.ones(obs_shape)),
        action_scaler=MinMaxActionScaler(minimum=-2 * np.ones(_ACT), maximum=2 * np.ones(_ACT)),
        reward_scaler=MinMaxRewardScaler(minimum=0.0, maximum=1.0),
    )


def _standard_obs():
    import numpy as np
    from d3rlpy.preprocessing import StandardObservationScaler

    return StandardObservationScaler(mean=np.full(_OBS, 0.5), std=np.full(_OBS, 0.3))


@functools.cache
def _custom():
    """``examples/tuple_observation.py``'s user-defined encoders for a tuple observation, tiny."""
    import torch
    from torch import nn

    import d3rlpy
    from d3rlpy.models.torch import Encoder, EncoderWithAction

    class TupleEncoder(Encoder):
        def __init__(self, observation_shape):
            super().__init__()
            shape1, shape2 = observation_shape
            self.fc1 = nn.Linear(shape1[0], 16)
            self.fc2 = nn.Linear(shape2[0], 16)
            self.shared = nn.Linear(16 * 2, 16)

        def forward(self, x):
            h1 = self.fc1(x[0])
            h2 = self.fc2(x[1])
            return self.shared(torch.cat([h1, h2], dim=1))

    class TupleEncoderWithAction(EncoderWithAction):
        def __init__(self, observation_shape, action_size):
            super().__init__()
            shape1, shape2 = observation_shape
            self.fc1 = nn.Linear(shape1[0], 16)
            self.fc2 = nn.Linear(shape2[0], 16)
            self.shared = nn.Linear(16 * 2 + action_size, 16)

        def forward(self, x, action):
            h1 = self.fc1(x[0])
            h2 = self.fc2(x[1])
            return self.shared(torch.cat([h1, h2, action], dim=1))

    class TupleEncoderFactory(d3rlpy.models.EncoderFactory):
        def create(self, observation_shape):
            return TupleEncoder(observation_shape)

        def create_with_action(self, observation_shape, action_size, discrete_action=False):
            return TupleEncoderWithAction(observation_shape, action_size)

        @staticmethod
        def get_type():
            return "custom"

    return {"TupleEncoderFactory": TupleEncoderFactory}


# --- the modules the probe runs -----------------------------------------------------------------

@functools.cache
def _modules():
    import torch
    from torch import nn

    from d3rlpy.constants import ActionSpace
    from d3rlpy.models.torch import compute_vae_error
    from d3rlpy.torch_utility import TorchMiniBatch, TorchTrajectoryMiniBatch

    class AlgoModule(nn.Module):
        """An algorithm's torch modules (``impl.modules.get_torch_modules()``) registered, so the
        probe's ``train()`` / ``eval()`` and parameters reach them."""

        def __init__(self, algo, extra=None):
            super().__init__()
            self.algo = algo  # not a module: config, scalers, impl
            self.nets = nn.ModuleDict(algo.impl.modules.get_torch_modules())
            if extra is not None:
                self.extra = nn.ModuleDict(extra.impl.modules.get_torch_modules())

    class GreedyPolicy(AlgoModule):
        """``QLearningAlgoBase.save_policy``'s ``_func`` (what it traces for TorchScript / ONNX):
        the observation scaler, ``impl.predict_best_action``, the action scaler reversed."""

        def forward(self, x):
            config, impl = self.algo.config, self.algo.impl
            observation = x
            if config.observation_scaler:
                observation = config.observation_scaler.transform(observation)
            action = impl.predict_best_action(observation)
            if config.action_scaler:
                action = config.action_scaler.reverse_transform(action)
            return action

    class PredictValue(AlgoModule):
        """``QLearningAlgoBase.predict_value`` without the numpy conversions (FQE's evaluation)."""

        def forward(self, x, action):
            config, impl = self.algo.config, self.algo.impl
            if config.observation_scaler:
                x = config.observation_scaler.transform(x)
            if self.algo.get_action_type() == ActionSpace.DISCRETE:
                action = action.long()
            elif config.action_scaler:
                action = config.action_scaler.transform(action)
            return impl.predict_value(x, action)

    class TrainStep(AlgoModule):
        """One ``update`` of the algorithm on a minibatch: ``TorchMiniBatch.from_batch``'s
        scalers, then the losses of the impl's ``compute_*_grad`` methods (what ``compile_graph``
        hands to ``torch.compile``), summed, without ``zero_grad`` / ``backward`` / ``step``.
        ``losses(impl, batch)`` is the algorithm family's chain."""

        def __init__(self, algo, losses, extra=None):
            super().__init__(algo, extra)
            self.losses = losses

        def forward(self, observations, actions, rewards, next_observations, next_actions, returns_to_go,
                    terminals, intervals):
            config, impl = self.algo.config, self.algo.impl
            if config.observation_scaler:
                observations = config.observation_scaler.transform(observations)
                next_observations = config.observation_scaler.transform(next_observations)
            if config.action_scaler:
                actions = config.action_scaler.transform(actions)
                next_actions = config.action_scaler.transform(next_actions)
            if config.reward_scaler:
                rewards = config.reward_scaler.transform(rewards)
            batch = TorchMiniBatch(observations=observations, actions=actions, rewards=rewards,
                                   next_observations=next_observations, next_actions=next_actions,
                                   returns_to_go=returns_to_go, terminals=terminals, intervals=intervals,
                                   device=impl.device)
            return self.losses(impl, batch)

    class TransformerPredict(AlgoModule):
        """``StatefulTransformerWrapper.predict`` after its numpy bookkeeping: a
        ``TorchTransformerInput`` of one context (batch 1, as the wrapper feeds it), the
        observation scaler, ``impl.predict``; the discrete model's argmax."""

        def forward(self, observations, actions, rewards, returns_to_go, timesteps, masks):
            from d3rlpy.algos.transformer.inputs import TorchTransformerInput

            config, impl = self.algo.config, self.algo.impl
            if config.observation_scaler:
                observations = config.observation_scaler.transform(observations)
            if config.action_scaler:
                actions = config.action_scaler.transform(actions)
            inpt = TorchTransformerInput(observations=observations, actions=actions, rewards=rewards,
                                         returns_to_go=returns_to_go, timesteps=timesteps, masks=masks,
                                         length=observations.shape[1])
            action = impl.predict(inpt)
            if self.algo.get_action_type() == ActionSpace.DISCRETE:
                return action.argmax()
            if config.action_scaler:
                action = config.action_scaler.reverse_transform(action)
            return action

    class TransformerTrainStep(AlgoModule):
        """One ``update`` on a trajectory minibatch (``TorchTrajectoryMiniBatch.from_batch``'s
        scalers), the losses of the impl's ``compute_*_grad`` methods."""

        def __init__(self, algo, losses):
            super().__init__(algo)
            self.losses = losses

        def forward(self, observations, actions, rewards, returns_to_go, terminals, timesteps, masks):
            config, impl = self.algo.config, self.algo.impl
            if config.observation_scaler:
                observations = config.observation_scaler.transform(observations)
            if config.action_scaler:
                actions = config.action_scaler.transform(actions)
            if config.reward_scaler:
                rewards = config.reward_scaler.transform(rewards)
                returns_to_go = config.reward_scaler.transform(returns_to_go)
            batch = TorchTrajectoryMiniBatch(observations=observations, actions=actions, rewards=rewards,
                                             returns_to_go=returns_to_go, terminals=terminals,
                                             timesteps=timesteps, masks=masks, device=impl.device)
            return self.losses(impl, batch)

    # --- the families' loss chains (each impl's compute_*_grad, less the optimizer calls) ---

    def actor_critic(impl, batch):
        """``DDPGBaseImpl``: ``compute_critic_grad`` then ``compute_actor_grad``."""
        q_tpn = impl.compute_target(batch)
        critic = impl.compute_critic_loss(batch, q_tpn).critic_loss
        action = impl.modules.policy(batch.observations)
        actor = impl.compute_actor_loss(batch, action).actor_loss
        return critic + actor

    def critic_only(impl, batch):
        q_tpn = impl.compute_target(batch)
        return impl.compute_critic_loss(batch, q_tpn).critic_loss

    def bcq(impl, batch):
        """``BCQImpl``: ``compute_imitator_grad``, ``compute_critic_grad``, ``compute_actor_grad``
        (the actor perturbs an action decoded from a clipped random latent)."""
        m = impl.modules
        vae = compute_vae_error(vae_encoder=m.vae_encoder, vae_decoder=m.vae_decoder, x=batch.observations,
                                action=batch.actions, beta=impl._beta)
        critic = critic_only(impl, batch)
        latent = torch.randn(batch.observations.shape[0], 2 * impl.action_size, device=impl.device)
        sampled_action = m.vae_decoder(x=batch.observations, latent=latent.clamp(-0.5, 0.5))
        action = m.policy(batch.observations, sampled_action)
        actor = impl.compute_actor_loss(batch, action).actor_loss
        return vae + critic + actor

    def bear(impl, batch):
        """``BEARImpl``: ``compute_imitator_grad`` then the actor-critic chain (past warm-up)."""
        return impl.compute_imitator_loss(batch) + actor_critic(impl, batch)

    def dqn(impl, batch):
        """``DQNImpl.compute_grad``."""
        q_tpn = impl.compute_target(batch)
        return impl.compute_loss(batch, q_tpn).loss

    def discrete_sac(impl, batch):
        q_tpn = impl.compute_target(batch)
        critic = impl.compute_critic_loss(batch, q_tpn)
        return critic + impl.compute_actor_loss(batch)["loss"]

    def bc(impl, batch):
        """``BCBaseImpl.compute_imitator_grad``."""
        return impl.compute_loss(batch.observations, batch.actions).loss

    def fqe(impl, batch):
        """``FQEBaseImpl.inner_update``: the evaluated algorithm's greedy next actions, the target,
        the loss."""
        next_actions = impl._algo.predict_best_action(batch.next_observations)
        q_tpn = impl.compute_target(batch, next_actions)
        return impl.compute_loss(batch, q_tpn)

    def decision_transformer(impl, batch):
        return impl.compute_loss(batch)

    def tacr(impl, batch):
        """``TACRImpl``: ``compute_actor_grad`` then ``compute_critic_grad``."""
        actor = impl.compute_actor_loss(batch)
        transition_batch, masks = batch.to_transition_batch()
        q_tpn = impl.compute_target(batch, transition_batch)
        critic = impl.compute_critic_loss(transition_batch, q_tpn, masks)
        return actor + critic

    return {"GreedyPolicy": GreedyPolicy, "PredictValue": PredictValue, "TrainStep": TrainStep,
            "TransformerPredict": TransformerPredict, "TransformerTrainStep": TransformerTrainStep,
            "actor_critic": actor_critic, "bcq": bcq, "bear": bear, "dqn": dqn, "discrete_sac": discrete_sac,
            "bc": bc, "fqe": fqe, "decision_transformer": decision_transformer, "tacr": tacr}


# --- inputs -------------------------------------------------------------------------------------

def _observations(shape, batch=_B):
    import torch

    if isinstance(shape[0], (tuple, list)):
        return [torch.rand(batch, *s) for s in shape]
    if len(shape) == 3:
        return torch.randint(0, 256, (batch, *shape), dtype=torch.uint8)  # frames, as the Atari datasets
    return torch.rand(batch, *shape)


def _minibatch(shape, discrete):
    """A ``TransitionMiniBatch`` as tensors, as ``convert_to_torch`` gives it: observations,
    actions (continuous in [-1, 1]; discrete indices as floats, (B, 1)), rewards, next
    observations and actions, returns-to-go, terminals, intervals."""
    import torch

    if discrete:
        actions = (torch.arange(_B) % _NA).float().view(_B, 1)
        next_actions = ((torch.arange(_B) + 1) % _NA).float().view(_B, 1)
    else:
        actions, next_actions = torch.rand(_B, _ACT) * 2 - 1, torch.rand(_B, _ACT) * 2 - 1
    return (_observations(shape), actions, torch.rand(_B, 1), _observations(shape), next_actions,
            torch.rand(_B, 1) * 10, torch.tensor([[0.0], [1.0]]), torch.ones(_B, 1))


# --- builders -------------------------------------------------------------------------------------

def _create(config, shape, discrete):
    algo = config.create(device=False)
    algo.create_impl(shape, _NA if discrete else _ACT)
    return algo


def _algo(config_name, losses, discrete=False, shape=(_OBS,), scalers=None, **kwargs):
    """``d3rlpy.algos.<config_name>(**kwargs)`` built for ``shape``: eval, the greedy policy;
    train, one update's losses (``losses``: the family's chain in ``_modules``)."""

    def make(mode):
        import d3rlpy.algos

        extra = scalers() if scalers else {}
        config = getattr(d3rlpy.algos, config_name)(**_resolve(kwargs), **extra)
        algo = _create(config, shape, discrete)
        if config_name == "PRDCConfig":
            _fit_prdc(algo, shape)
        mods = _modules()
        if mode == "eval":
            return mods["GreedyPolicy"](algo), (_observations(shape),), {}
        return mods["TrainStep"](algo, mods[losses]), _minibatch(shape, discrete), {}

    return make


def _fit_prdc(algo, shape):
    """``PRDC.fit`` fits its nearest-neighbour index on the dataset's (beta * observation, action)
    pairs before training: a small random dataset here."""
    import numpy as np

    rng = np.random.default_rng(0)
    observations = rng.random((32, *shape)).astype(np.float32)
    actions = rng.random((32, _ACT)).astype(np.float32) * 2 - 1
    algo._nbsr.fit(np.concatenate([np.multiply(observations, algo.config.beta), actions], axis=1))


def _fqe(discrete):
    """``d3rlpy.ope.FQE`` / ``DiscreteFQE`` of a DDPG / DQN policy (``tests/ope/test_fqe.py``):
    eval, ``predict_value`` of the data's actions; train, FQE's update loss."""

    def make(mode):
        from d3rlpy.algos import DDPGConfig, DQNConfig
        from d3rlpy.ope import FQE, DiscreteFQE, FQEConfig

        if discrete:
            algo = _create(DQNConfig(encoder_factory=_make_vec()), (_OBS,), True)
            fqe = DiscreteFQE(algo=algo, config=FQEConfig(encoder_factory=_make_vec(), q_func_factory=_make_qr()))
        else:
            algo = _create(DDPGConfig(actor_encoder_factory=_make_vec(), critic_encoder_factory=_make_vec()), (_OBS,), False)
            fqe = FQE(algo=algo, config=FQEConfig(encoder_factory=_make_vec(), **_min_max()))
        fqe.create_impl((_OBS,), _NA if discrete else _ACT)
        mods = _modules()
        batch = _minibatch((_OBS,), discrete)
        if mode == "eval":
            return mods["PredictValue"](fqe, extra=algo), (batch[0], batch[1]), {}
        return mods["TrainStep"](fqe, mods["fqe"], extra=algo), batch, {}

    return make


def _transformer(config_name, losses, discrete=False, scalers=None, **kwargs):
    """A Decision-Transformer-style algorithm with a context of 4 steps: eval, one context
    (batch 1) through ``impl.predict``; train, a trajectory minibatch of 2 (the last step of
    the second padded, mask 0)."""

    def make(mode):
        import torch

        import d3rlpy.algos

        extra = scalers() if scalers else {}
        config = getattr(d3rlpy.algos, config_name)(context_size=_T, max_timestep=20, **_resolve(kwargs), **extra)
        algo = _create(config, (_OBS,), discrete)
        mods = _modules()
        b = 1 if mode == "eval" else _B
        obs = torch.rand(b, _T, _OBS)
        if discrete:
            actions = (torch.arange(b * _T) % _NA).float().view(b, _T, 1)
        else:
            actions = torch.rand(b, _T, _ACT) * 2 - 1
        rewards, rtg = torch.rand(b, _T, 1), torch.rand(b, _T, 1) * 10
        timesteps = (torch.arange(_T) + 3).repeat(b, 1)
        masks = torch.ones(b, _T)
        if mode == "eval":
            return mods["TransformerPredict"](algo), (obs, actions, rewards, rtg, timesteps, masks), {}
        masks[-1, -1] = 0.0
        terminals = torch.zeros(b, _T, 1)
        return (mods["TransformerTrainStep"](algo, mods[losses]),
                (obs, actions, rewards, rtg, terminals, timesteps, masks), {})

    return make


def _ac(**kwargs):
    return dict(actor_encoder_factory=_vec(), critic_encoder_factory=_vec(), **kwargs)


def _tuple_scalers():
    """``examples/tuple_observation.py``'s ``TupleObservationScaler`` of two standard scalers."""
    import numpy as np
    from d3rlpy.preprocessing import StandardObservationScaler, TupleObservationScaler

    return dict(observation_scaler=TupleObservationScaler(
        [StandardObservationScaler(mean=np.full(s, 0.5), std=np.full(s, 0.3)) for s in _TUPLE]))


def _tuple_sac(mode):
    """``examples/tuple_observation.py``: SAC on a tuple observation with its custom encoders."""
    factory = _custom()["TupleEncoderFactory"]
    return _algo("SACConfig", "actor_critic", shape=_TUPLE, scalers=_tuple_scalers,
                 actor_encoder_factory=factory(), critic_encoder_factory=factory())(mode)


def _return_based():
    from d3rlpy.preprocessing import ReturnBasedRewardScaler

    return dict(reward_scaler=ReturnBasedRewardScaler(return_max=10.0, return_min=0.0, multiplier=1000.0))


def _rebrac_scalers():
    return dict(observation_scaler=_standard_obs())


def _pixel_scaler():
    from d3rlpy.preprocessing import PixelObservationScaler

    return dict(observation_scaler=PixelObservationScaler())


MODELS = {
    # --- continuous control: actor-critic ---
    "DDPG": _algo("DDPGConfig", "actor_critic", **_ac()),
    "TD3": _algo("TD3Config", "actor_critic", **_ac()),
    "TD3PlusBC_simba": _algo("TD3PlusBCConfig", "actor_critic", actor_encoder_factory=_simba(),
                             critic_encoder_factory=_simba()),
    "SAC": _algo("SACConfig", "actor_critic", **_ac()),
    "SAC_iqn": _algo("SACConfig", "actor_critic", q_func_factory=_iqn(n_greedy_quantiles=8), **_ac()),
    "SAC_tuple_observation": _tuple_sac,
    "CQL_min_max": _algo("CQLConfig", "actor_critic", scalers=_min_max, **_ac()),
    "CQL_qr_fixed_alpha": _algo("CQLConfig", "actor_critic", q_func_factory=_qr(), alpha_learning_rate=0.0, **_ac()),
    "CQL_max_q_backup": _algo("CQLConfig", "actor_critic", max_q_backup=True, **_ac()),
    "CQL_soft_q_backup_pixel": _algo("CQLConfig", "actor_critic", shape=_PIX, scalers=_pixel_scaler,
                                     actor_encoder_factory=_pix(), soft_q_backup=True,
                                     critic_encoder_factory=_pix(use_batch_norm=True, dropout_rate=0.1),
                                     n_action_samples=4),
    "CalQL": _algo("CalQLConfig", "actor_critic", **_ac()),
    "IQL_return_based": _algo("IQLConfig", "actor_critic", scalers=_return_based, value_encoder_factory=_vec(),
                              **_ac()),
    "AWAC": _algo("AWACConfig", "actor_critic", **_ac()),
    "CRR": _algo("CRRConfig", "actor_critic", **_ac()),
    "CRR_max_binary": _algo("CRRConfig", "actor_critic", advantage_type="max", weight_type="binary",
                            target_update_type="soft", **_ac()),
    "BCQ": _algo("BCQConfig", "bcq", imitator_encoder_factory=_vec(), rl_start_step=0, **_ac()),
    "BEAR": _algo("BEARConfig", "bear", imitator_encoder_factory=_vec(), warmup_steps=0, **_ac()),
    "BEAR_gaussian_qr": _algo("BEARConfig", "bear", imitator_encoder_factory=_vec(), warmup_steps=0,
                              mmd_kernel="gaussian", q_func_factory=_qr(), **_ac()),
    "PLAS": _algo("PLASConfig", "actor_critic", imitator_encoder_factory=_vec(), warmup_steps=0, **_ac()),
    "PLASWithPerturbation": _algo("PLASWithPerturbationConfig", "actor_critic", imitator_encoder_factory=_vec(),
                                  warmup_steps=0, **_ac()),
    "PRDC": _algo("PRDCConfig", "actor_critic", **_ac()),
    "ReBRAC_layer_norm": _algo("ReBRACConfig", "actor_critic", scalers=_rebrac_scalers, actor_encoder_factory=_vec(),
                               critic_encoder_factory=_vec(use_layer_norm=True)),
    "BC": _algo("BCConfig", "bc", encoder_factory=_vec(), scalers=_min_max),
    "BC_stochastic": _algo("BCConfig", "bc", encoder_factory=_vec(use_batch_norm=True), policy_type="stochastic"),
    # --- discrete control ---
    "DQN": _algo("DQNConfig", "dqn", discrete=True, encoder_factory=_vec()),
    "DQN_qr_shared_encoder": _algo("DQNConfig", "dqn", discrete=True, encoder_factory=_vec(), n_critics=2,
                                   q_func_factory=_qr(share_encoder=True)),
    "DQN_pixel": _algo("DQNConfig", "dqn", discrete=True, shape=_PIX, scalers=_pixel_scaler,
                       encoder_factory=_pix()),
    "DoubleDQN_iqn": _algo("DoubleDQNConfig", "dqn", discrete=True, encoder_factory=_vec(), q_func_factory=_iqn()),
    "NFQ": _algo("NFQConfig", "dqn", discrete=True, encoder_factory=_vec(dropout_rate=0.1)),
    "DiscreteCQL": _algo("DiscreteCQLConfig", "dqn", discrete=True, encoder_factory=_vec()),
    "DiscreteCQL_qr": _algo("DiscreteCQLConfig", "dqn", discrete=True, encoder_factory=_vec(), q_func_factory=_qr(),
                            n_critics=2),
    "DiscreteBCQ": _algo("DiscreteBCQConfig", "dqn", discrete=True, encoder_factory=_vec()),
    "DiscreteSAC": _algo("DiscreteSACConfig", "discrete_sac", discrete=True, **_ac()),
    "DiscreteBC": _algo("DiscreteBCConfig", "bc", discrete=True, encoder_factory=_vec()),
    # --- off-policy evaluation ---
    "FQE_min_max": _fqe(False),
    "DiscreteFQE_qr": _fqe(True),
    # --- transformers ---
    "DecisionTransformer": _transformer("DecisionTransformerConfig", "decision_transformer", encoder_factory=_vec(),
                                        num_heads=2, num_layers=2),
    "DecisionTransformer_min_max": _transformer("DecisionTransformerConfig", "decision_transformer",
                                                scalers=_min_max, encoder_factory=_vec(), num_heads=1, num_layers=1,
                                                position_encoding_type=_global()),
    "DiscreteDecisionTransformer": _transformer("DiscreteDecisionTransformerConfig", "decision_transformer",
                                                discrete=True, encoder_factory=_vec(), num_heads=4, num_layers=2),
    "TACR": _transformer("TACRConfig", "tacr", actor_encoder_factory=_vec(), critic_encoder_factory=_vec(),
                         num_heads=1, num_layers=2),
}
