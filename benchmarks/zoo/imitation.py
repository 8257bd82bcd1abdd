"""imitation 1.0.1: the reward networks, discriminators, behavioural-cloning loss and preference
models of HumanCompatibleAI's imitation library, built on tiny ``gymnasium`` spaces (a 6-d vector
observation, 2-d ``Box`` or 3-way ``Discrete`` actions, 12x12x3 HWC uint8 frames for the CNNs; batch
4; hidden layers of 8-32 units) with random weights, no download, no environment rollouts:

- ``rewards.reward_nets``: ``BasicRewardNet`` (state+action; every input with ``use_next_state`` /
  ``use_done``; one-hot ``Discrete`` actions; ``build_mlp``'s dropout and ``RunningNorm`` input
  layer), ``BasicShapedRewardNet`` (potential shaping; with next-state and done), ``CnnRewardNet``
  (HWC with a ``Discrete`` action; with ``use_done`` and ``use_next_state``; CHW without an action,
  done only) and a ``ShapedRewardNet`` over it with a ``BasicPotentialCNN``; ``NormalizedRewardNet``
  (``RunningNorm`` / ``EMANorm``) through ``predict_processed``; ``RewardEnsemble`` under
  ``AddSTDRewardWrapper`` through ``predict_processed``; ``predict_th`` (numpy in, as
  ``RewardVecEnvWrapper`` and the algorithms call it); ``util.networks.RunningNorm`` / ``EMANorm``
  on their own;
- adversarial: ``GAIL`` and ``AIRL`` trainers built on a ``DummyVecEnv`` (CartPole-v1 with a PPO
  generator, Pendulum-v1 with a SAC generator for AIRL's SAC branch), never stepped: their
  ``logits_expert_is_high`` on a batch from ``_make_disc_train_batches`` (numpy expert and generator
  ``Transitions`` -> preprocessed tensors and the generator's ``log_policy_act_prob``); GAIL's
  ``RewardNetFromDiscriminatorLogit`` (``reward_train``) forward and ``predict_processed``; AIRL's
  unshaped ``reward_test``; a discriminator step from numpy samples as ``train_disc`` runs it
  (batches, logits, BCE, ``compute_train_stats``);
- BC: ``BehaviorCloningLossCalculator`` (``BC(...).loss_calculator``) on its default
  ``FeedForward32Policy`` for ``Box``, ``Discrete`` and ``MultiDiscrete`` actions, a ``Dict``
  observation (``CombinedExtractor``), numpy inputs, ``l2_weight``; ``FeedForward32Policy`` and an
  ``ActorCriticPolicy`` with ``policies.base.NormalizeFeaturesExtractor`` forward;
- preference comparisons: ``PreferenceModel`` on fragment pairs of ``TrajectoryWithRew`` (ground
  truth probabilities too) and of ``Trajectory``; discounted and noisy; over a ``CnnRewardNet``, a
  ``NormalizedRewardNet(BasicShapedRewardNet)``; a ``RewardEnsemble``: eval as
  ``ActiveSelectionFragmenter`` scores pairs (``PreferenceModel.rewards`` through the numpy
  ``predict_processed_all``, then ``variance_estimate`` with ``uncertainty_on="probability"``),
  train as ``EnsembleTrainer`` trains a member (its ``member_pref_models[0]``);
  ``CrossEntropyRewardLoss``; the loss with an ``LpRegularizer`` penalty as ``BasicRewardTrainer``
  adds it.

Eval: the callable as the library calls it at inference / in the reward wrapper. Train: the loss of
one update step without the optimizer step and the logger: BC's ``loss_calculator(...).loss``, the
discriminator's ``binary_cross_entropy_with_logits`` (rescaled by minibatch / batch as
``train_disc``), ``CrossEntropyRewardLoss(...).loss`` (plus the regularizer penalty);
``mean_loss_module`` for the reward nets' forward. Models whose eval goes through numpy
(``predict_th`` / ``predict_processed``) train as the algorithms train them:
``net(*net.preprocess(...))``. Measured first as it came, before any rule looked at it.

    pip install --no-deps imitation==1.0.1

Everything else it needs here was already installed: torch 2.13.0, stable-baselines3 2.9.2,
gymnasium 1.2.2 (imitation 1.0.1 pins stable-baselines3~=2.2.1 and gymnasium~=0.29: the newer ones
work for every model here), numpy, tqdm, rich, scikit-learn, matplotlib, tensorboard, cloudpickle
and gym 0.26.2 (imported by something on the way, harmless). Nothing stubbed: the modules used
(``rewards``, ``algorithms.bc``, ``algorithms.adversarial``, ``algorithms.preference_comparisons``,
``regularization``, ``policies.base``) import no sacred, optuna, huggingface_sb3, seals or
datasets.

Left out: ``algorithms.dagger`` (imports ``datasets``; its loss is BC's, covered),
``algorithms.mce_irl`` (imports ``seals``; tabular occupancy measures in numpy over a seals POMDP),
``algorithms.density`` (a scikit-learn ``KernelDensity`` reward, numpy only, no torch), ``sqil``
(SB3's DQN loss on a relabelled buffer: no imitation loss of its own), the ``scripts`` (sacred),
rollouts, buffers, ``RewardVecEnvWrapper`` and the fragmenters / gatherers (numpy, no network),
the trainers' ``train()`` loops (environment steps and optimizer steps).
Notes: ``PreferenceModel`` gets the bare ``RewardEnsemble``: over ``AddSTDRewardWrapper(ensemble)``
(which its constructor accepts) ``probability`` fails eagerly (the wrapper has no ``num_members``),
and ``PreferenceModel.forward`` itself cannot hold an ensemble's per-member probabilities (its
docstring says not to use it so), hence the fragmenter's path. Reward nets' ``forward`` takes preprocessed tensors (one-hot ``Discrete`` actions, images
/255 and float, done as float32), as ``RewardNet.preprocess`` returns them; the GAIL / AIRL trainers
log to a temporary folder (``format_strs=[]``).
"""

import functools

PACKAGE = "imitation"

mean_loss_module = None  # adapter.mean_loss_module, set by ZooSuite
_B = 4
_OBS = 6
_IMG = (12, 12, 3)  # HWC uint8 frames


def warm_up():
    import gymnasium  # noqa: F401
    import imitation.algorithms.adversarial.airl
    import imitation.algorithms.adversarial.gail
    import imitation.algorithms.bc
    import imitation.algorithms.preference_comparisons
    import imitation.regularization.regularizers
    import imitation.rewards.reward_nets  # noqa: F401
    import stable_baselines3
    import stable_baselines3.ppo
    import stable_baselines3.sac  # noqa: F401
    import torch  # noqa: F401


# --- spaces and data -------------------------------------------------------------------------

def _space(kind):
    import numpy as np
    from gymnasium import spaces

    if kind == "Box":
        return spaces.Box(-np.inf, np.inf, (_OBS,), np.float32)
    if kind == "action_Box":
        return spaces.Box(-1.0, 1.0, (2,), np.float32)
    if kind == "Discrete":
        return spaces.Discrete(3)
    if kind == "MultiDiscrete":
        return spaces.MultiDiscrete([3, 2])
    if kind == "image":
        return spaces.Box(0, 255, _IMG, np.uint8)
    if kind == "image36":  # SB3's NatureCNN (BC's CombinedExtractor) needs 36x36 at least
        return spaces.Box(0, 255, (3, 36, 36), np.uint8)
    if kind == "image_chw":
        return spaces.Box(0, 255, (_IMG[2], _IMG[0], _IMG[1]), np.uint8)
    raise ValueError(kind)


def _np_batch(space, n=_B, rng=None):
    """Raw samples as a buffer / data loader holds them (numpy, the space's dtype)."""
    import numpy as np
    from gymnasium import spaces

    rng = rng or np.random.default_rng(0)
    if isinstance(space, spaces.Dict):
        return {k: _np_batch(s, n, rng) for k, s in space.spaces.items()}
    if isinstance(space, spaces.Box):
        if space.dtype == np.uint8:
            return rng.integers(0, 256, (n, *space.shape), dtype=np.uint8)
        if space.is_bounded():
            return rng.uniform(-0.9, 0.9, (n, *space.shape)).astype(np.float32)
        return rng.standard_normal((n, *space.shape)).astype(np.float32)
    if isinstance(space, spaces.Discrete):
        return rng.integers(0, int(space.n), (n,))
    if isinstance(space, spaces.MultiDiscrete):
        return np.stack([rng.integers(0, int(k), (n,)) for k in space.nvec], axis=1)
    raise ValueError(space)


def _th_inputs(net, n=_B, seed=0):
    """(state, action, next_state, done) as ``net.preprocess`` gives them to ``forward``."""
    import numpy as np

    rng = np.random.default_rng(seed)
    obs = _np_batch(net.observation_space, n, rng)
    acts = _np_batch(net.action_space, n, rng)
    next_obs = _np_batch(net.observation_space, n, rng)
    dones = rng.random(n) < 0.25
    return tuple(t.detach() for t in net.preprocess(obs, acts, next_obs, dones))


def _np_inputs(obs_space, act_space, n=_B, seed=0):
    import numpy as np

    rng = np.random.default_rng(seed)
    return (_np_batch(obs_space, n, rng), _np_batch(act_space, n, rng), _np_batch(obs_space, n, rng),
            rng.random(n) < 0.25)


def _transitions(obs_space, act_space, n, seed):
    import numpy as np
    from imitation.data import types

    obs, acts, next_obs, dones = _np_inputs(obs_space, act_space, n, seed)
    return types.Transitions(obs=obs, acts=acts, infos=np.array([{}] * n), next_obs=next_obs, dones=dones)


def _fragment_pairs(obs_space, act_space, n_pairs=3, length=5, with_rew=True):
    """Fragment pairs as ``RandomFragmenter`` cuts them: trajectories of ``length`` steps."""
    import numpy as np
    from imitation.data import types

    rng = np.random.default_rng(1)

    def frag():
        obs = _np_batch(obs_space, length + 1, rng)
        acts = _np_batch(act_space, length, rng)
        infos = np.array([{}] * length)
        if with_rew:
            return types.TrajectoryWithRew(obs=obs, acts=acts, infos=infos, terminal=False,
                                           rews=rng.standard_normal(length).astype(np.float32))
        return types.Trajectory(obs=obs, acts=acts, infos=infos, terminal=False)

    pairs = [(frag(), frag()) for _ in range(n_pairs)]
    preferences = np.array([1.0, 0.0, 0.5][:n_pairs], dtype=np.float32)
    return pairs, preferences


# --- reward nets -----------------------------------------------------------------------------

def _reward_net(name, obs="Box", act="action_Box", **kwargs):
    from imitation.rewards import reward_nets
    from imitation.util import networks

    obs_space = _space(obs)
    act_space = _space(act)
    if name == "Basic":
        return reward_nets.BasicRewardNet(obs_space, act_space, hid_sizes=(16, 16), **kwargs)
    if name == "BasicNorm":  # build_mlp's dropout and normalised input layer
        return reward_nets.BasicRewardNet(obs_space, act_space, hid_sizes=(16,), dropout_prob=0.1,
                                          normalize_input_layer=networks.RunningNorm, **kwargs)
    if name == "Shaped":
        return reward_nets.BasicShapedRewardNet(obs_space, act_space, reward_hid_sizes=(16,),
                                                potential_hid_sizes=(16, 16), **kwargs)
    if name == "Cnn":
        return reward_nets.CnnRewardNet(obs_space, act_space, hid_channels=(8, 8), **kwargs)
    if name == "ShapedCnn":
        base = reward_nets.CnnRewardNet(obs_space, act_space, hid_channels=(8, 8), **kwargs)
        potential = reward_nets.BasicPotentialCNN(obs_space, hid_sizes=(8, 8))
        return reward_nets.ShapedRewardNet(base, potential, discount_factor=0.99)
    if name == "Normalized":
        base = reward_nets.BasicRewardNet(obs_space, act_space, hid_sizes=(16,))
        norm = networks.EMANorm if kwargs.get("norm") == "EMA" else networks.RunningNorm
        return reward_nets.NormalizedRewardNet(base, norm)
    if name == "NormalizedShaped":
        base = reward_nets.BasicShapedRewardNet(obs_space, act_space, reward_hid_sizes=(16,),
                                                potential_hid_sizes=(16,))
        return reward_nets.NormalizedRewardNet(base, networks.RunningNorm)
    if name == "Ensemble":
        members = [reward_nets.BasicRewardNet(obs_space, act_space, hid_sizes=(8,)) for _ in range(3)]
        return reward_nets.AddSTDRewardWrapper(reward_nets.RewardEnsemble(obs_space, act_space, members),
                                               default_alpha=0.1)
    raise ValueError(name)


@functools.cache
def _wrappers():
    import torch as th
    from torch import nn

    class PredictTh(nn.Module):
        """``RewardNet.predict_th``: numpy transitions in, a reward tensor out (no grad)."""

        def __init__(self, net):
            super().__init__()
            self.net = net

        def forward(self, state, action, next_state, done):
            return self.net.predict_th(state, action, next_state, done)

    class PredictProcessed(nn.Module):
        """``predict_processed`` as ``RewardVecEnvWrapper`` calls it (numpy rewards, as a tensor)."""

        def __init__(self, net):
            super().__init__()
            self.net = net

        def forward(self, state, action, next_state, done):
            return th.as_tensor(self.net.predict_processed(state, action, next_state, done))

    class PreprocessForward(nn.Module):
        """Training's path: ``net(*net.preprocess(...))`` on numpy transitions."""

        def __init__(self, net):
            super().__init__()
            self.net = net

        def forward(self, state, action, next_state, done):
            return self.net(*self.net.preprocess(state, action, next_state, done))

    return PredictTh, PredictProcessed, PreprocessForward


def _mean(net, args, mode):
    if mode == "train":
        return mean_loss_module()(net), args, {}
    return net, args, {}


def _forward(name, **kwargs):
    """A reward net's ``forward`` on preprocessed tensors; train: the mean of the rewards."""

    def make(mode):
        net = _reward_net(name, **kwargs)
        return _mean(net, _th_inputs(net), mode)

    return make


def _predict(name, how, **kwargs):
    """Eval: ``predict_th`` / ``predict_processed`` on numpy; train: ``net(*net.preprocess(...))``."""

    def make(mode):
        net = _reward_net(name, **kwargs)
        predict_th, predict_processed, preprocess_forward = _wrappers()
        args = _np_inputs(net.observation_space, net.action_space)
        if mode == "train":
            train_net = net.base.members[0] if name == "Ensemble" else net
            return mean_loss_module()(preprocess_forward(train_net)), args, {}
        return (predict_th if how == "th" else predict_processed)(net), args, {}

    return make


def _norm_layer(kind):
    def make(mode):
        import torch
        from imitation.util import networks

        layer = networks.RunningNorm(5) if kind == "Running" else networks.EMANorm(5, decay=0.9)
        return _mean(layer, (torch.randn(_B, 5) * 2 + 1,), mode)

    return make


# --- adversarial ----------------------------------------------------------------------------

@functools.cache
def _adv_losses():
    import torch.nn.functional as F
    from imitation.algorithms.adversarial import common
    from imitation.data import types
    from torch import nn

    class Logits(nn.Module):
        """``logits_expert_is_high`` on one discriminator batch; train: ``train_disc``'s loss."""

        def __init__(self, trainer, loss):
            super().__init__()
            self.reward_net = trainer._reward_net
            object.__setattr__(self, "trainer", trainer)
            self.loss = loss

        def forward(self, state, action, next_state, done, labels_expert_is_one, log_policy_act_prob):
            disc_logits = self.trainer.logits_expert_is_high(state, action, next_state, done,
                                                             log_policy_act_prob)
            if not self.loss:
                return disc_logits
            loss = F.binary_cross_entropy_with_logits(disc_logits, labels_expert_is_one.float())
            loss *= self.trainer.demo_minibatch_size / self.trainer.demo_batch_size
            return loss

    class DiscStep(nn.Module):
        """``train_disc`` without the optimizer and the logger: numpy samples -> batches -> loss,
        then ``compute_train_stats``."""

        def __init__(self, trainer):
            super().__init__()
            self.reward_net = trainer._reward_net
            object.__setattr__(self, "trainer", trainer)

        def forward(self, expert_samples, gen_samples):
            trainer = self.trainer
            for batch in trainer._make_disc_train_batches(gen_samples=gen_samples,
                                                          expert_samples=expert_samples):
                disc_logits = trainer.logits_expert_is_high(batch["state"], batch["action"],
                                                            batch["next_state"], batch["done"],
                                                            batch["log_policy_act_prob"])
                loss = F.binary_cross_entropy_with_logits(disc_logits, batch["labels_expert_is_one"].float())
                loss *= trainer.demo_minibatch_size / trainer.demo_batch_size
            stats = common.compute_train_stats(disc_logits, batch["labels_expert_is_one"], loss)
            return loss, stats

    return Logits, DiscStep, types


def _trainer(algo, reward="Basic", gen="ppo"):
    import tempfile

    import gymnasium as gym
    from imitation.algorithms.adversarial.airl import AIRL
    from imitation.algorithms.adversarial.gail import GAIL
    from imitation.rewards import reward_nets
    from imitation.util import logger as imit_logger
    from stable_baselines3 import PPO, SAC
    from stable_baselines3.common.vec_env import DummyVecEnv

    env_id = "CartPole-v1" if gen == "ppo" else "Pendulum-v1"
    venv = DummyVecEnv([lambda: gym.make(env_id)])
    if gen == "ppo":
        gen_algo = PPO("MlpPolicy", venv, n_steps=8, batch_size=8, policy_kwargs=dict(net_arch=[16]),
                       device="cpu", seed=0)
    else:
        gen_algo = SAC("MlpPolicy", venv, buffer_size=16, learning_starts=0, batch_size=4,
                       policy_kwargs=dict(net_arch=[16]), device="cpu", seed=0)
    obs_space, act_space = venv.observation_space, venv.action_space
    if reward == "Basic":
        net = reward_nets.BasicRewardNet(obs_space, act_space, hid_sizes=(16,))
    else:
        net = reward_nets.BasicShapedRewardNet(obs_space, act_space, reward_hid_sizes=(16,),
                                               potential_hid_sizes=(16,))
    cls = GAIL if algo == "gail" else AIRL
    demos = _transitions(obs_space, act_space, 2 * _B, seed=3)
    trainer = cls(demonstrations=demos, demo_batch_size=_B, venv=venv, gen_algo=gen_algo, reward_net=net,
                  log_dir=tempfile.mkdtemp(), custom_logger=imit_logger.configure(tempfile.mkdtemp(), format_strs=[]))
    return trainer


def _disc_batch(trainer):
    from imitation.data import types

    obs_space, act_space = trainer.venv.observation_space, trainer.venv.action_space
    expert = types.dataclass_quick_asdict(_transitions(obs_space, act_space, _B, seed=4))
    gen = types.dataclass_quick_asdict(_transitions(obs_space, act_space, _B, seed=5))
    return expert, gen


def _adversarial(algo, reward="Basic", gen="ppo", part="logits"):
    def make(mode):
        logits_cls, disc_step_cls, _ = _adv_losses()
        trainer = _trainer(algo, reward, gen)
        expert, gen_samples = _disc_batch(trainer)
        if part == "disc_step":
            return disc_step_cls(trainer), (expert, gen_samples), {}
        if part in ("reward_train", "reward_test"):
            net = getattr(trainer, part)
            return _mean(net, _th_inputs(net), mode)
        if part == "predict_processed":
            predict_th, predict_processed, preprocess_forward = _wrappers()
            args = _np_inputs(trainer.venv.observation_space, trainer.venv.action_space)
            if mode == "train":
                return mean_loss_module()(preprocess_forward(trainer.reward_train)), args, {}
            return predict_processed(trainer.reward_train), args, {}
        batch = next(iter(trainer._make_disc_train_batches(expert_samples=expert, gen_samples=gen_samples)))
        args = tuple(batch[k] for k in ("state", "action", "next_state", "done", "labels_expert_is_one",
                                        "log_policy_act_prob"))
        return logits_cls(trainer, loss=mode == "train"), args, {}

    return make


# --- behavioural cloning ---------------------------------------------------------------------

@functools.cache
def _bc_module():
    from torch import nn

    class BCLoss(nn.Module):
        """``BC.loss_calculator(policy, obs, acts)``: the metrics (eval) or ``.loss`` (train)."""

        def __init__(self, bc, train):
            super().__init__()
            self.policy = bc.policy
            self.loss_calculator = bc.loss_calculator
            self.train_loss = train

        def forward(self, obs, acts):
            metrics = self.loss_calculator(self.policy, obs, acts)
            if self.train_loss:
                return metrics.loss
            return metrics.neglogp, metrics.entropy, metrics.prob_true_act, metrics.l2_norm

    return BCLoss


def _bc(obs="Box", act="action_Box", numpy=False, **kwargs):
    def make(mode):
        import numpy as np
        import torch
        from gymnasium import spaces
        from imitation.algorithms import bc

        if isinstance(obs, tuple):
            obs_space = spaces.Dict({"image": _space("image36"), "vector": _space("Box")})
        else:
            obs_space = _space(obs)
        act_space = _space(act)
        trainer = bc.BC(observation_space=obs_space, action_space=act_space, rng=np.random.default_rng(0),
                        batch_size=_B, device="cpu", **kwargs)
        rng = np.random.default_rng(2)
        o = _np_batch(obs_space, _B, rng)
        a = _np_batch(act_space, _B, rng)
        if not numpy:  # as the data loader's collate gives them
            o = {k: torch.as_tensor(v) for k, v in o.items()} if isinstance(o, dict) else torch.as_tensor(o)
            a = torch.as_tensor(a)
        return _bc_module()(trainer, mode == "train"), (o, a), {}

    return make


def _policy(kind):
    def make(mode):
        import torch
        from imitation.policies import base as policy_base
        from stable_baselines3.common import policies

        obs_space, act_space = _space("Box"), _space("Discrete")
        lr = lambda _: 1e-3  # noqa: E731
        if kind == "FeedForward32":
            policy = policy_base.FeedForward32Policy(observation_space=obs_space, action_space=act_space,
                                                     lr_schedule=lr)
        else:
            policy = policies.ActorCriticPolicy(obs_space, act_space, lr, net_arch=[16],
                                                features_extractor_class=policy_base.NormalizeFeaturesExtractor)
        return _mean(policy, (torch.randn(_B, _OBS),), mode)

    return make


# --- preference comparisons ------------------------------------------------------------------

@functools.cache
def _pref_modules():
    import numpy as np
    import torch
    from imitation.algorithms import preference_comparisons as pc
    from imitation.data import rollout
    from torch import nn

    class Preference(nn.Module):
        """Eval: ``PreferenceModel(fragment_pairs)`` (probabilities, ground-truth ones);
        train: ``CrossEntropyRewardLoss`` as ``BasicRewardTrainer._training_inner_loop`` (plus the
        regularizer's ``_loss_penalty`` where one is given)."""

        def __init__(self, preference_model, train, regularizer=None):
            super().__init__()
            self.preference_model = preference_model
            self.loss = pc.CrossEntropyRewardLoss()
            self.train_loss = train
            object.__setattr__(self, "regularizer", regularizer)

        def forward(self, fragment_pairs, preferences):
            if not self.train_loss:
                probs, gt_probs = self.preference_model(fragment_pairs)
                return probs if gt_probs is None else (probs, gt_probs)
            output = self.loss.forward(fragment_pairs, preferences, self.preference_model)
            loss = output.loss
            if self.regularizer is not None:
                loss = torch.add(loss, self.regularizer._loss_penalty(loss))
            return loss

    class ActiveSelection(nn.Module):
        """``ActiveSelectionFragmenter``'s scoring of candidate pairs: each fragment's rewards from
        every ensemble member (``PreferenceModel.rewards``, no grad), then ``variance_estimate``."""

        def __init__(self, fragmenter):
            super().__init__()
            self.preference_model = fragmenter.preference_model
            object.__setattr__(self, "fragmenter", fragmenter)

        def forward(self, fragment_pairs, preferences):
            var_estimates = np.zeros(len(fragment_pairs))
            for i, fragment in enumerate(fragment_pairs):
                frag1, frag2 = fragment
                trans1 = rollout.flatten_trajectories([frag1])
                trans2 = rollout.flatten_trajectories([frag2])
                with torch.no_grad():
                    rews1 = self.preference_model.rewards(trans1)
                    rews2 = self.preference_model.rewards(trans2)
                var_estimates[i] = self.fragmenter.variance_estimate(rews1, rews2)
            return torch.as_tensor(var_estimates)

    return Preference, ActiveSelection


def _preference(reward="Basic", obs="Box", act="action_Box", with_rew=True, regularizer=False,
                ensemble_member=False, **kwargs):
    def make(mode):
        import tempfile

        import numpy as np
        import torch
        from imitation.algorithms import preference_comparisons as pc
        from imitation.regularization import regularizers
        from imitation.util import logger as imit_logger

        net = _reward_net(reward, obs=obs, act=act)
        if reward == "Ensemble":  # PreferenceModel(AddSTDRewardWrapper(...)) fails eagerly (probability()
            net = net.base  # asks the wrapper for num_members): the bare ensemble, as get_base_model gives
        model = pc.PreferenceModel(net, **kwargs)
        reg = None
        if regularizer:
            optimizer = torch.optim.Adam(net.parameters())
            reg = regularizers.LpRegularizer.create(initial_lambda=1e-3, val_split=None, p=2)(
                optimizer=optimizer, logger=imit_logger.configure(tempfile.mkdtemp(), format_strs=[]))
        pairs, preferences = _fragment_pairs(net.observation_space, net.action_space, with_rew=with_rew)
        preference, active_selection = _pref_modules()
        if ensemble_member and mode == "eval":
            fragmenter = pc.ActiveSelectionFragmenter(model, pc.RandomFragmenter(rng=np.random.default_rng(0)),
                                                      fragment_sample_factor=2.0, uncertainty_on="probability")
            return active_selection(fragmenter), (pairs, preferences), {}
        if ensemble_member:  # EnsembleTrainer trains each member's model
            model = model.member_pref_models[0]
        return preference(model, mode == "train", reg), (pairs, preferences), {}

    return make


MODELS = {
    # reward nets' forward on preprocessed tensors
    "BasicRewardNet": _forward("Basic"),
    "BasicRewardNet_all_inputs": _forward("Basic", use_next_state=True, use_done=True),
    "BasicRewardNet_Discrete_onehot": _forward("Basic", act="Discrete"),
    "BasicRewardNet_dropout_RunningNorm_input": _forward("BasicNorm"),
    "BasicShapedRewardNet": _forward("Shaped"),
    "BasicShapedRewardNet_next_state_done": _forward("Shaped", act="Discrete", use_next_state=True, use_done=True),
    "CnnRewardNet": _forward("Cnn", obs="image", act="Discrete"),
    "CnnRewardNet_done_next_state": _forward("Cnn", obs="image", act="Discrete", use_next_state=True,
                                             use_done=True),
    "CnnRewardNet_chw_done_only": _forward("Cnn", obs="image_chw", act="Discrete", use_action=False,
                                           use_done=True, hwc_format=False),
    "ShapedRewardNet_BasicPotentialCNN": _forward("ShapedCnn", obs="image", act="Discrete"),
    # the numpy-facing prediction paths
    "BasicRewardNet_predict_th": _predict("Basic", "th"),
    "CnnRewardNet_predict_th": _predict("Cnn", "th", obs="image", act="Discrete"),
    "NormalizedRewardNet_RunningNorm_predict_processed": _predict("Normalized", "processed"),
    "NormalizedRewardNet_EMANorm_predict_processed": _predict("Normalized", "processed", act="Discrete",
                                                              norm="EMA"),
    "RewardEnsemble_AddSTD_predict_processed": _predict("Ensemble", "processed"),
    "RunningNorm": _norm_layer("Running"),
    "EMANorm": _norm_layer("EMA"),
    # adversarial
    "GAIL_logits_expert_is_high": _adversarial("gail"),
    "GAIL_reward_train_forward": _adversarial("gail", part="reward_train"),
    "GAIL_reward_train_predict_processed": _adversarial("gail", part="predict_processed"),
    "GAIL_disc_step": _adversarial("gail", part="disc_step"),
    "AIRL_logits_expert_is_high": _adversarial("airl", reward="Shaped"),
    "AIRL_basic_reward_logits": _adversarial("airl"),
    "AIRL_reward_test_unshaped": _adversarial("airl", reward="Shaped", part="reward_test"),
    "AIRL_disc_step": _adversarial("airl", reward="Shaped", part="disc_step"),
    "AIRL_SAC_disc_step": _adversarial("airl", reward="Shaped", gen="sac", part="disc_step"),
    # behavioural cloning
    "BC_loss_Box": _bc(),
    "BC_loss_Discrete": _bc(act="Discrete"),
    "BC_loss_MultiDiscrete_l2": _bc(act="MultiDiscrete", l2_weight=1e-3, ent_weight=1e-2),
    "BC_loss_Dict_obs": _bc(obs=("image", "vector"), act="Discrete"),
    "BC_loss_numpy": _bc(numpy=True),
    "FeedForward32Policy": _policy("FeedForward32"),
    "NormalizeFeaturesExtractor_policy": _policy("NormalizeFeatures"),
    # preference comparisons
    "PreferenceModel_gt_rewards": _preference(),
    "PreferenceModel_no_rewards_Discrete": _preference(act="Discrete", with_rew=False),
    "PreferenceModel_discount_noise": _preference(discount_factor=0.9, noise_prob=0.1, threshold=10),
    "PreferenceModel_CnnRewardNet": _preference(reward="Cnn", obs="image", act="Discrete"),
    "PreferenceModel_NormalizedShaped": _preference(reward="NormalizedShaped"),
    "PreferenceModel_RewardEnsemble_active_selection": _preference(reward="Ensemble", ensemble_member=True),
    "PreferenceLoss_LpRegularizer": _preference(regularizer=True),
}
