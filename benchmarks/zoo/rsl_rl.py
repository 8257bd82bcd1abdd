"""rsl_rl 5.5.1 (rsl-rl-lib, ETH Zurich RSL / NVIDIA): PPO and student-teacher distillation for
legged robots, its neural models and extensions, as its tests (``tests/algorithms/test_ppo.py``'s
``_build_ppo``, ``tests/extensions/test_symmetry.py``'s ``_negate_augmentation``,
``tests/conftest.make_obs``) and ``OnPolicyRunner.learn`` (rollout under ``inference_mode``,
``compute_returns``, ``update``; ``PPO.compile`` / ``utils.compile_model`` wrap the actor and
critic in ``torch.compile``) use them; tiny (4 environments, 8 observations, 4 actions, 8 steps per
environment, hidden layers of 16-32), random weights, a fake environment of a few tensor
operations, no simulator, no download:

- models (5.x replaced ``ActorCritic`` / ``ActorCriticRecurrent`` by separate actor and critic
  models): ``MLPModel`` actors with a ``GaussianDistribution`` (``std_type`` "scalar" and "log",
  ``obs_normalization``), a ``HeteroscedasticGaussianDistribution`` and a ``BetaDistribution``, two
  observation groups, the critic; ``RNNModel`` (LSTM and GRU) stepping with its hidden state and in
  its batched update mode (padded trajectories, masks, saved hidden states from
  ``split_and_pad_trajectories``); ``CNNModel`` (a 2-d "image" group through ``CNN`` with
  batch norm, max pool and global average pool, plus a 1-d group); the export forms
  (``as_jit()``: ``_TorchMLPModel``, ``_TorchLSTMModel`` / ``_TorchGRUModel``, batch 1: the
  recurrent exports keep one robot's hidden state in buffers, eval only: in training their in-place
  buffer writes break autograd, so their train factories raise);
- what PPO computes from them: ``act`` (the stochastic action, value, log-probability and
  distribution parameters: ``PPO.act``'s transition), ``act_inference`` (the deterministic
  output), ``evaluate`` (the critic value), the entropy / KL of the distribution;
- the algorithms: ``PPO`` (MLP; adaptive KL schedule; per-mini-batch advantage normalization and
  unclipped value loss; with symmetry augmentation and mirror loss; with RND and its state /
  reward normalization and a step weight schedule; recurrent LSTM) and ``Distillation`` (MLP
  student and teacher, "huber" loss); per entry, eval: one rollout of 8 steps as
  ``OnPolicyRunner.learn`` collects it (``act``, a fake ``env.step``, ``process_env_step`` with
  ``time_outs``, ``RolloutStorage.add_transition``, then ``compute_returns``) under
  ``torch.inference_mode``; train: ``update()`` (the ``mini_batch_generator`` /
  ``recurrent_mini_batch_generator`` loop, losses, ``backward``, ``clip_grad_norm_``,
  ``optimizer.step``, the normalizer updates) on a rollout collected while building;
- modules and extensions on their own: ``EmpiricalNormalization`` (forward and ``update``),
  ``EmpiricalDiscountedVariationNormalization``, ``MLP``, ``RNN``, ``CNN``;
  ``RandomNetworkDistillation.get_intrinsic_reward`` (eval) / ``compute_loss`` (train);
  ``Symmetry.compute_loss`` with data augmentation.

Eval: the model's output / the rollout. Train: the own loss where there is one (``update()``
returns its loss dict of Python floats; the RND predictor loss, the symmetry mirror loss), else
the sum of the means of the outputs (``mean_loss_module``). Measured first as it came, before any
rule looked at it.

    pip install --no-deps rsl-rl-lib==5.5.1
    pip install --no-deps tensordict==0.15.3 pyvers==0.2.2   # (+ numpy, cloudpickle,
                                                            #  importlib_metadata: installed)

``rsl_rl.algorithms`` imports ``tensordict`` (pure Python since 0.15; needs ``pyvers``);
``tensorboard`` / ``GitPython`` / ``onnx`` / ``onnxscript`` are declared but imported only by the
runners' loggers and the ONNX exporter (not used here). Nothing stubbed. Observations are passed
as ``TensorDict``s, as the runner passes them to the (``PPO.compile``-compiled) actor and critic.

Capture (torch 2.13.0+cpu): 35 models, 70 runs, all built; 68 ran under Dynamo, none failed, 2
skipped (the train factories of the two recurrent exports, on purpose). The MLP / CNN / Beta /
heteroscedastic models, the MLP PPO and distillation rollouts (``inference_mode``), symmetry and the
plain modules have no break. The breaks: the RNN module's ``nn.LSTM`` / ``nn.GRU`` (GB0014,
``modules/rnn.py:47/51``, the exports' ``rnn_model.py:135/166``, ``PPO.train_mode`` /
``eval_mode``); ``unpad_trajectories``' boolean-mask indexing and ``split_and_pad_trajectories``
(GB0036 / GB0033) and the ``recurrent_mini_batch_generator`` frame skips; ``torch._dynamo.graph_break()``
reached from ``Optimizer.step`` inside ``update()`` (GB0025 at ``ppo.py:311/314``,
``distillation.py:178``) and the GB7000 frame skips of the update loops (``ppo.py:297``,
``distillation.py:167``; ``.item()`` GB0124); ``min`` over a generator in the distributions'
``kl_divergence`` (GB0059); the normalizers' ``until`` test (``normalization.py:55``) and the
discounted-reward normalizer's tensor ``if`` (``normalization.py:116``, GB0170). First numbers with
the frozen linter (``/tmp/lint-start57``): graph-break statement recall 0.05 (1/21: the ``until``
test of ``EmpiricalNormalization.update``), precision 1.00 (2/2), 5 findings in the source / 5 in
files run, 3 unjudged (2 condition-not-met in ``RNN.reset``'s done-masking loop, 1 not-reached).

Left out: the runners (``OnPolicyRunner`` / ``DistillationRunner``: loggers, checkpoints, a real
``VecEnv``), the ONNX exports (``as_onnx``: onnx / onnxscript), multi-GPU (process groups), mixed
precision (bfloat16 autocast on CPU changes nothing the probe sees), CNN encoders shared between
actor and critic (the same forward).
"""

import functools

PACKAGE = "rsl_rl"
DISTRIBUTION = "rsl-rl-lib"

mean_loss_module = None  # adapter.py's, set by ZooSuite

_E, _OBS, _A, _T = 4, 8, 4, 8  # environments, observation size, actions, steps per environment
_GAUSS = {"class_name": "GaussianDistribution", "init_std": 1.0, "std_type": "scalar"}


def _obs(n=_E, extra=False, image=False):
    import torch
    from tensordict import TensorDict

    d = {"policy": torch.randn(n, _OBS)}
    if extra:
        d["privileged"] = torch.randn(n, 3)
    if image:
        d["image"] = torch.randn(n, 1, 8, 8)
    return TensorDict(d, batch_size=[n])


def _negate_augmentation(env, obs, actions):
    """tests/extensions/test_symmetry.py's toy augmentation: originals then their negation."""
    import torch
    from tensordict import TensorDict

    out_obs = None
    if obs is not None:
        neg = TensorDict({k: -v for k, v in obs.items()}, batch_size=obs.batch_size)
        out_obs = torch.cat([obs, neg], dim=0)
    out_actions = None
    if actions is not None:
        out_actions = torch.cat([actions, -actions], dim=0)
    return out_obs, out_actions


@functools.cache
def _modules():
    import torch
    from torch import nn
    from tensordict import TensorDict

    class FakeEnv:
        """A tensor-only stand-in for a ``VecEnv``: linear dynamics, a quadratic reward,
        episodes of 5 steps (so dones and time-outs happen inside a rollout)."""

        def __init__(self, obs, num_actions=_A):
            self.num_envs = obs.batch_size[0]
            self.num_actions = num_actions
            self.obs = obs.clone()
            self.t = 0
            g = torch.Generator().manual_seed(3)
            self.B = torch.randn(num_actions, _OBS, generator=g) * 0.1

        def step(self, actions):
            self.t += 1
            pol = 0.9 * self.obs["policy"] + actions @ self.B
            obs = self.obs.clone()
            obs["policy"] = pol
            self.obs = obs
            rewards = -(pol ** 2).mean(-1)
            dones = torch.zeros(self.num_envs)
            time_outs = torch.zeros(self.num_envs)
            if self.t % 5 == 0:
                dones[: self.num_envs // 2] = 1.0
                time_outs[: self.num_envs // 2] = 1.0
            return obs, rewards, dones, {"time_outs": time_outs}

    def rollout(alg, env, obs, steps=_T):
        """``OnPolicyRunner.learn``'s collection: act, step, process_env_step; compute_returns."""
        for _ in range(steps):
            actions = alg.act(obs)
            obs, rewards, dones, extras = env.step(actions)
            alg.process_env_step(obs, rewards, dones, extras)
        alg.compute_returns(obs)
        return obs

    class AlgStep(nn.Module):
        """Eval: one rollout under ``inference_mode`` (returns the storage's returns / actions);
        train: ``alg.update()`` on the rollout collected while building (returns its losses)."""

        def __init__(self, alg, env, models):
            super().__init__()
            self.models = nn.ModuleList(models)
            object.__setattr__(self, "alg", alg)
            object.__setattr__(self, "env", env)

        def forward(self, obs):
            alg = self.alg
            if self.training and torch.is_grad_enabled():
                alg.train_mode()
                return alg.update()
            alg.eval_mode()
            alg.storage.clear()
            with torch.inference_mode():
                rollout(alg, self.env, obs)
            st = alg.storage
            return st.returns.clone() if hasattr(st, "returns") else st.actions.clone()

    class Act(nn.Module):
        """``PPO.act``: the stochastic action of the actor, the critic's value, the log
        probability and distribution parameters (and the entropy)."""

        def __init__(self, actor, critic):
            super().__init__()
            self.actor, self.critic = actor, critic

        def forward(self, obs):
            actions = self.actor(obs, stochastic_output=True)
            values = self.critic(obs)
            log_prob = self.actor.get_output_log_prob(actions)
            params = self.actor.output_distribution_params
            return actions.detach(), values, log_prob, self.actor.output_entropy, params

    class ActInference(nn.Module):
        """The deterministic policy output (what the runner's ``get_inference_policy`` runs)."""

        def __init__(self, actor):
            super().__init__()
            self.actor = actor

        def forward(self, obs):
            return self.actor(obs)

    class Evaluate(nn.Module):
        def __init__(self, critic):
            super().__init__()
            self.critic = critic

        def forward(self, obs):
            return self.critic(obs)

    class KL(nn.Module):
        """The actor's distribution on two observation batches and their KL divergence
        (PPO's adaptive schedule), plus the mean / std / entropy properties."""

        def __init__(self, actor):
            super().__init__()
            self.actor = actor

        def forward(self, obs_old, obs):
            self.actor(obs_old, stochastic_output=True)
            old = tuple(p.detach() for p in self.actor.output_distribution_params)
            self.actor(obs, stochastic_output=True)
            new = self.actor.output_distribution_params
            kl = self.actor.get_kl_divergence(old, new)
            return kl, self.actor.output_mean, self.actor.output_std, self.actor.output_entropy

    class RecurrentStep(nn.Module):
        """Two rollout steps of a recurrent actor and critic (hidden state carried, done
        environments reset between them)."""

        def __init__(self, actor, critic):
            super().__init__()
            self.actor, self.critic = actor, critic

        def forward(self, obs, dones):
            self.actor.reset()
            self.critic.reset()
            a1 = self.actor(obs, stochastic_output=True)
            v1 = self.critic(obs)
            self.actor.reset(dones)
            self.critic.reset(dones)
            a2 = self.actor(obs, stochastic_output=True)
            v2 = self.critic(obs)
            self.actor.detach_hidden_state()
            return a1, v1, a2, v2

    class RecurrentBatch(nn.Module):
        """The recurrent update forward: the actor and critic on a ``recurrent_mini_batch_generator``
        mini-batch (padded trajectories, masks, saved hidden states), log-prob and value."""

        def __init__(self, actor, critic, batch):
            super().__init__()
            self.actor, self.critic = actor, critic
            object.__setattr__(self, "batch", batch)

        def forward(self, obs):
            b = self.batch
            self.actor(obs, masks=b.masks, hidden_state=b.hidden_states[0], stochastic_output=True)
            log_prob = self.actor.get_output_log_prob(b.actions)
            values = self.critic(obs, masks=b.masks, hidden_state=b.hidden_states[1])
            return log_prob, values, self.actor.output_entropy

    class Normalizer(nn.Module):
        """``EmpiricalNormalization``: ``update`` (in training) then forward, and ``inverse``."""

        def __init__(self, norm):
            super().__init__()
            self.norm = norm

        def forward(self, x):
            self.norm.update(x)
            y = self.norm(x)
            return y, self.norm.inverse(y)

    class RndReward(nn.Module):
        """RND: ``get_intrinsic_reward`` (eval) / ``compute_loss`` (train)."""

        def __init__(self, rnd):
            super().__init__()
            self.rnd = rnd

        def forward(self, obs):
            if self.training and torch.is_grad_enabled():
                self.rnd.update_normalization(obs)
                return self.rnd.compute_loss(obs)
            return self.rnd.get_intrinsic_reward(obs)

    class SymmetryLoss(nn.Module):
        """``Symmetry.augment_batch`` then ``compute_loss`` (the mirror loss) on a fresh batch."""

        def __init__(self, sym, actor):
            super().__init__()
            self.actor = actor
            object.__setattr__(self, "sym", sym)

        def forward(self, obs, actions, values, advantages, returns, log_prob):
            from rsl_rl.storage import RolloutStorage

            batch = RolloutStorage.Batch(observations=obs, actions=actions, values=values, advantages=advantages,
                                         returns=returns, old_actions_log_prob=log_prob)
            n = obs.batch_size[0]
            self.sym.augment_batch(batch, n)
            return self.sym.compute_loss(self.actor, batch, n)

    return {"FakeEnv": FakeEnv, "rollout": rollout, "AlgStep": AlgStep, "Act": Act,
            "ActInference": ActInference, "Evaluate": Evaluate, "KL": KL, "RecurrentStep": RecurrentStep,
            "RecurrentBatch": RecurrentBatch, "Normalizer": Normalizer, "RndReward": RndReward,
            "SymmetryLoss": SymmetryLoss}


# --- builders ------------------------------------------------------------------------------------

_GROUPS = {"actor": ["policy"], "critic": ["policy"]}


def _actor(obs, groups=_GROUPS, kind="mlp", dist=_GAUSS, **kw):
    from rsl_rl.models import CNNModel, MLPModel, RNNModel

    cls = {"mlp": MLPModel, "rnn": RNNModel, "cnn": CNNModel}[kind]
    kw.setdefault("hidden_dims", [32, 32])
    return cls(obs, groups, "actor", _A, distribution_cfg=dist, **kw)


def _critic(obs, groups=_GROUPS, kind="mlp", **kw):
    from rsl_rl.models import CNNModel, MLPModel, RNNModel

    cls = {"mlp": MLPModel, "rnn": RNNModel, "cnn": CNNModel}[kind]
    kw.setdefault("hidden_dims", [32, 32])
    return cls(obs, groups, "critic", 1, **kw)


def _train_or(mode, net):
    return mean_loss_module()(net) if mode == "train" else net


def _model(wrapper, kind="mlp", dist=_GAUSS, extra=False, image=False, groups=_GROUPS, two_inputs=False, **kw):
    """A model entry: ``wrapper`` in (Act, ActInference, Evaluate, KL, export)."""

    def make(mode):
        obs = _obs(extra=extra, image=image)
        mods = _modules()
        if wrapper == "jit" and kind == "rnn" and mode == "train":
            raise RuntimeError("inference-only export: its forward writes the hidden state into buffers in place, "
                               "which autograd refuses from the second call on")
        if wrapper == "Evaluate":
            net = mods["Evaluate"](_critic(obs, groups, kind, **kw))
        elif wrapper == "Act":
            net = mods["Act"](_actor(obs, groups, kind, dist, **kw), _critic(obs, groups, kind, **kw))
        elif wrapper == "jit":
            actor = _actor(obs, groups, kind, dist, **kw)
            actor.eval()
            net = actor.as_jit()
            import torch

            x = torch.cat([obs[g] for g in groups["actor"]], dim=-1)
            if kind == "rnn":
                x = x[:1]  # the recurrent exports keep the hidden state of one robot
            return _train_or(mode, net), (x,), {}
        else:
            net = mods[wrapper](_actor(obs, groups, kind, dist, **kw))
        args = (_obs(extra=extra, image=image), obs) if two_inputs else (obs,)
        return _train_or(mode, net), args, {}

    return make


def _recurrent_step(rnn_type):
    def make(mode):
        import torch

        obs = _obs()
        kw = dict(rnn_type=rnn_type, rnn_hidden_dim=16, hidden_dims=[16])
        net = _modules()["RecurrentStep"](_actor(obs, kind="rnn", **kw), _critic(obs, kind="rnn", **kw))
        return _train_or(mode, net), (obs, torch.tensor([1.0, 0.0, 0.0, 1.0])), {}

    return make


def _ppo(obs, actor, critic, **overrides):
    from rsl_rl.algorithms import PPO
    from rsl_rl.storage import RolloutStorage

    storage = RolloutStorage("rl", _E, _T, obs, [_A])
    cfg = dict(num_learning_epochs=2, num_mini_batches=2, clip_param=0.2, gamma=0.99, lam=0.95,
               value_loss_coef=1.0, entropy_coef=0.01, learning_rate=1e-3, max_grad_norm=1.0,
               schedule="fixed", desired_kl=0.01)
    cfg.update(overrides)
    return PPO(actor, critic, storage, **cfg)


def _recurrent_batch(rnn_type):
    """A ``recurrent_mini_batch_generator`` mini-batch from a rollout of a recurrent PPO."""

    def make(mode):
        obs = _obs()
        kw = dict(rnn_type=rnn_type, rnn_hidden_dim=16, hidden_dims=[16])
        actor, critic = _actor(obs, kind="rnn", **kw), _critic(obs, kind="rnn", **kw)
        alg = _ppo(obs, actor, critic)
        mods = _modules()
        mods["rollout"](alg, mods["FakeEnv"](obs), obs)
        batch = next(alg.storage.recurrent_mini_batch_generator(1, 1))
        net = mods["RecurrentBatch"](actor, critic, batch)
        return _train_or(mode, net), (batch.observations,), {}

    return make


def _alg(kind="ppo", rnn=None, extra=False, **overrides):
    def make(mode):
        import torch

        obs = _obs(extra=extra)
        mods = _modules()
        groups = dict(_GROUPS)
        if kind == "distillation":
            from rsl_rl.algorithms import Distillation
            from rsl_rl.storage import RolloutStorage

            groups = {"student": ["policy"], "teacher": ["policy", "privileged"]}
            from rsl_rl.models import MLPModel

            student = MLPModel(obs, groups, "student", _A, hidden_dims=[32, 32], distribution_cfg=_GAUSS,
                               obs_normalization=True)
            teacher = MLPModel(obs, groups, "teacher", _A, hidden_dims=[32, 32])
            storage = RolloutStorage("distillation", _E, _T, obs, [_A])
            alg = Distillation(student, teacher, storage, num_learning_epochs=1, gradient_length=4,
                               learning_rate=1e-3, max_grad_norm=1.0, **overrides)
            models = [student, teacher]
        else:
            kw = {}
            if rnn:
                kw = dict(rnn_type=rnn, rnn_hidden_dim=16, hidden_dims=[16])
            actor = _actor(obs, kind="rnn" if rnn else "mlp", obs_normalization=True, **kw)
            critic = _critic(obs, kind="rnn" if rnn else "mlp", obs_normalization=True, **kw)
            if "rnd_cfg" in overrides:
                overrides["rnd_cfg"] = dict(overrides["rnd_cfg"], num_states=_OBS,
                                            obs_groups={**groups, "rnd_state": ["policy"]})
            alg = _ppo(obs, actor, critic, **overrides)
            models = [actor, critic]
        env = mods["FakeEnv"](obs)
        torch.manual_seed(1)
        if mode == "train":
            with torch.inference_mode():
                mods["rollout"](alg, env, obs)
        step = mods["AlgStep"](alg, env, models)
        return step, (obs.clone(),), {}

    return make


def _normalizer(discounted=False):
    def make(mode):
        import torch

        from rsl_rl.modules import EmpiricalDiscountedVariationNormalization, EmpiricalNormalization

        if discounted:
            net = EmpiricalDiscountedVariationNormalization(shape=[], until=int(1e8))
            return _train_or(mode, net), (torch.rand(_E),), {}
        net = _modules()["Normalizer"](EmpiricalNormalization(_OBS, until=100))
        return _train_or(mode, net), (torch.randn(_E, _OBS),), {}

    return make


def _plain(which):
    def make(mode):
        import torch

        from rsl_rl.modules import CNN, MLP, RNN

        if which == "MLP":
            net = MLP(_OBS, _A, [32, 32], "elu")
            x = torch.randn(_E, _OBS)
        elif which == "MLP_last_minus1":
            net = MLP(_OBS, [2, _A], [16, -1], "tanh")
            x = torch.randn(_E, _OBS)
        elif which == "RNN":
            net = RNN(_OBS, 16, 2, "gru")
            x = torch.randn(_E, _OBS)
        else:
            net = CNN((8, 8), 2, [4, 8], [3, 3], stride=[1, 2], padding="zeros", norm="batch",
                      activation="relu", max_pool=[True, False], global_pool="avg")
            x = torch.randn(_E, 2, 8, 8)
        return _train_or(mode, net), (x,), {}

    return make


def _rnd(mode):
    from rsl_rl.extensions import RandomNetworkDistillation

    rnd = RandomNetworkDistillation(num_states=_OBS, obs_groups={"rnd_state": ["policy"]}, num_outputs=4,
                                    predictor_hidden_dims=[16, 16], target_hidden_dims=[16, 16],
                                    state_normalization=True, reward_normalization=True, weight=0.5,
                                    weight_schedule={"mode": "step", "final_step": 2, "final_value": 0.1})
    return _modules()["RndReward"](rnd), (_obs(),), {}


def _symmetry(mode):
    import torch

    from rsl_rl.extensions import Symmetry

    obs = _obs()
    actor = _actor(obs, hidden_dims=[32])
    sym = Symmetry(env=None, data_augmentation_func=_negate_augmentation, use_data_augmentation=True,
                   use_mirror_loss=True, mirror_loss_coeff=0.5)
    net = _modules()["SymmetryLoss"](sym, actor)
    args = (obs, torch.randn(_E, _A), torch.randn(_E, 1), torch.randn(_E, 1), torch.randn(_E, 1),
            torch.randn(_E, 1))
    return net, args, {}


_LOG = {"class_name": "GaussianDistribution", "init_std": 0.5, "std_type": "log"}
_HETERO = {"class_name": "HeteroscedasticGaussianDistribution", "init_std": 1.0, "std_type": "scalar"}
_BETA = {"class_name": "BetaDistribution", "action_range": (-2.0, 2.0)}
_TWO_GROUPS = {"actor": ["policy"], "critic": ["policy", "privileged"]}
_CNN_GROUPS = {"actor": ["policy", "image"], "critic": ["policy", "image"]}
_CNN_CFG = {"output_channels": [4, 8], "kernel_size": [3, 3], "stride": [1, 2], "norm": "batch",
            "activation": "elu", "max_pool": [True, False], "global_pool": "avg"}

MODELS = {
    # --- models: what PPO computes with them ---
    "MLPModel_act": _model("Act"),
    "MLPModel_act_inference": _model("ActInference"),
    "MLPModel_evaluate": _model("Evaluate"),
    "MLPModel_act_log_std_obs_norm": _model("Act", dist=_LOG, obs_normalization=True, activation="tanh"),
    "MLPModel_act_heteroscedastic": _model("Act", dist=_HETERO, activation="relu"),
    "MLPModel_act_beta": _model("Act", dist=_BETA, activation="selu"),
    "MLPModel_act_inference_beta": _model("ActInference", dist=_BETA),
    "MLPModel_kl_gaussian": _model("KL", two_inputs=True),
    "MLPModel_kl_beta": _model("KL", dist=_BETA, two_inputs=True),
    "MLPModel_evaluate_two_groups": _model("Evaluate", extra=True, groups=_TWO_GROUPS, obs_normalization=True),
    "RNNModel_lstm_act": _model("Act", kind="rnn", rnn_type="lstm", rnn_hidden_dim=16, hidden_dims=[16]),
    "RNNModel_gru_act_inference": _model("ActInference", kind="rnn", rnn_type="gru", rnn_hidden_dim=16,
                                         hidden_dims=[16], rnn_num_layers=2),
    "RNNModel_lstm_step_reset": _recurrent_step("lstm"),
    "RNNModel_gru_step_reset": _recurrent_step("gru"),
    "RNNModel_lstm_update_batch": _recurrent_batch("lstm"),
    "RNNModel_gru_update_batch": _recurrent_batch("gru"),
    "CNNModel_act": _model("Act", kind="cnn", image=True, groups=_CNN_GROUPS, cnn_cfg=_CNN_CFG,
                           obs_normalization=True),
    "MLPModel_as_jit": _model("jit"),
    "RNNModel_lstm_as_jit": _model("jit", kind="rnn", rnn_type="lstm", rnn_hidden_dim=16, hidden_dims=[16]),
    "RNNModel_gru_as_jit": _model("jit", kind="rnn", rnn_type="gru", rnn_hidden_dim=16, hidden_dims=[16]),
    # --- algorithms: eval a rollout + compute_returns, train update() ---
    "PPO": _alg(),
    "PPO_adaptive_kl": _alg(schedule="adaptive", desired_kl=0.01),
    "PPO_minibatch_adv_norm_unclipped_value": _alg(normalize_advantage_per_mini_batch=True,
                                                   use_clipped_value_loss=False, optimizer="adamw"),
    "PPO_symmetry": _alg(symmetry_cfg={"env": None, "data_augmentation_func": _negate_augmentation,
                                       "use_data_augmentation": True, "use_mirror_loss": True,
                                       "mirror_loss_coeff": 0.5}),
    "PPO_rnd": _alg(rnd_cfg={"num_outputs": 4, "predictor_hidden_dims": [16, 16], "target_hidden_dims": [16, 16],
                             "state_normalization": True, "reward_normalization": True, "weight": 0.5,
                             "weight_schedule": {"mode": "linear", "initial_step": 1, "final_step": 4,
                                                 "final_value": 0.1}}),
    "PPO_recurrent_lstm": _alg(rnn="lstm"),
    "Distillation": _alg(kind="distillation", extra=True, loss_type="huber"),
    # --- modules and extensions ---
    "EmpiricalNormalization": _normalizer(),
    "EmpiricalDiscountedVariationNormalization": _normalizer(discounted=True),
    "MLP": _plain("MLP"),
    "MLP_multi_output": _plain("MLP_last_minus1"),
    "RNN_gru": _plain("RNN"),
    "CNN": _plain("CNN"),
    "RandomNetworkDistillation": _rnd,
    "Symmetry_mirror_loss": _symmetry,
}
