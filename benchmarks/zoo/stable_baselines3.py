"""Stable-Baselines3 2.9.2: the PyTorch policies and networks of each algorithm, built straight
from their classes on ``gymnasium`` spaces with a constant ``lr_schedule`` (no environment, no
``model.learn()``), as a user compiles a policy or its training step; tiny (batch 4, a 6-d vector
observation, 36x36 images so that ``NatureCNN``'s 8/4, 4/2, 3/1 convolutions fit, hidden layers of
16-32 units), random weights, no download:

- PPO / A2C ``ActorCriticPolicy`` (``MlpPolicy``): ``forward`` (stochastic, and deterministic) for
  ``Box``, ``Discrete``, ``MultiDiscrete`` and ``MultiBinary`` action spaces; ``evaluate_actions``;
  ``get_distribution(obs)`` then ``log_prob`` / ``entropy``; ``predict_values``; ``_predict``;
  separate actor / critic feature extractors with different ``net_arch``; gSDE (``use_sde=True``:
  the default single exploration matrix, one per environment after ``reset_noise(4)``, and
  ``squash_output`` with ``use_expln`` and ``full_std=False``); A2C's ReLU policy without orthogonal
  init; ``Discrete`` and ``MultiDiscrete`` observations (one-hot); ``ActorCriticCnnPolicy`` (NatureCNN
  on uint8 frames; and on float frames with ``normalize_images=False``); ``MultiInputActorCriticPolicy``
  (``CombinedExtractor`` over a ``Dict`` of an image, a vector and a ``Discrete``); ``extract_features``
  over a ``Dict`` of every space kind (``preprocess_obs``: /255, one-hot, per-dimension one-hot,
  float); the docs' ``CustomActorCriticPolicy`` (a ``CustomNetwork`` through ``_build_mlp_extractor``)
  and ``CustomCNN`` features extractor; the docs' export wrapper ``OnnxableSB3Policy``
  (``policy(obs, deterministic=True)``);
- DQN: ``QNetwork`` (``DQNPolicy.q_net``), ``DQNPolicy.forward`` (greedy actions, on a one-hot
  ``Discrete`` observation), the ``CnnPolicy`` and the ``MultiInputPolicy``;
- SAC: ``SACPolicy.forward``, the ``Actor``'s ``action_log_prob``, the ``ContinuousCritic`` (two
  Q-nets), gSDE, ``CnnPolicy``, ``MultiInputPolicy``, and the docs' export of the actor
  (``actor(obs, deterministic=True)``);
- TD3 / DDPG: ``TD3Policy.forward``, the critic's ``q1_forward``, the ``ContinuousCritic``, a
  ``CnnPolicy`` whose critic shares the actor's features extractor, and DDPG's one-critic policy;
- ``common.distributions`` on their own, each built from its ``proba_distribution_net`` over a small
  latent net and used as a policy uses it: ``DiagGaussianDistribution``,
  ``SquashedDiagGaussianDistribution`` (SAC's ``log_prob_from_params`` on a clamped ``log_std``),
  ``CategoricalDistribution``, ``MultiCategoricalDistribution`` (with ``kl_divergence`` against an
  older distribution), ``BernoulliDistribution`` and ``StateDependentNoiseDistribution``
  (``sample_weights`` each call, as SAC resamples the noise every gradient step).

Eval: the callable's outputs as the library returns them. Train: the algorithms' own losses where
the model is a policy, the math of ``train()`` copied without the logging ``.item()`` calls, the
optimizer steps and the Python-side update counters: PPO (clipped surrogate, optional value
clipping, value MSE, entropy or its ``-log_prob`` estimate; advantage normalisation) and A2C on a
``RolloutBufferSamples`` / ``DictRolloutBufferSamples`` minibatch; DQN's Huber TD loss against the
target net (``discounts`` given for the n-step ``Dict`` model); SAC's critic loss (entropy-corrected
target from ``critic_target``) and actor loss with the automatic entropy coefficient's loss (gSDE:
``reset_noise()`` first, as ``train()`` does), on a ``ReplayBufferSamples``; TD3's critic loss
(clipped target-policy noise drawn with ``.data.normal_``) and actor loss through ``q1_forward``,
DDPG's both at once. ``mean_loss_module`` for the rest (method wrappers, distributions, export
wrappers). Measured first as it came, before any rule looked at it.

    pip install --no-deps stable-baselines3==2.9.2 gymnasium==1.2.2 cloudpickle==3.1.3 farama-notifications==0.0.6

``stable_baselines3`` needs only torch, numpy, gymnasium and cloudpickle (its declared dependencies):
tqdm / rich, tensorboard, pandas and matplotlib (the ``extra`` group) are imported in ``try`` blocks
(callbacks, logger, utils, results_plotter) or under ``TYPE_CHECKING``, opencv only inside the Atari
wrappers and ``VecEnv`` rendering, none used here; gymnasium needs numpy, typing_extensions (both
there), cloudpickle and farama-notifications. Nothing stubbed.

Left out: the algorithm classes (``PPO(...)``, ``model.learn()``, ``predict()``): they need an
environment, and ``predict`` is numpy on both sides of a ``no_grad`` ``_predict`` (covered);
``HerReplayBuffer``, the rollout / replay buffers, ``VecEnv`` / ``VecNormalize``, callbacks and the
logger (numpy, no network); ``polyak_update`` and the optimizer steps (outside the loss);
``sb2_compat.RMSpropTFLike`` (an optimizer); TD3's delayed actor update and SAC's ``ent_coef``
optimizer step are Python-side bookkeeping around the losses kept.
Notes: the rollout buffer stores observations and actions as float32 (discrete actions too; PPO
casts ``Discrete`` ones to long and flattens them), the replay buffer keeps the space's dtype
(uint8 frames, int64 ``Discrete`` actions of shape (B, 1)); the policies are fed as ``obs_to_tensor``
would (uint8 frames, a (B,) ``Discrete`` observation). A gSDE exploration matrix sampled at build
time carries ``log_std``'s graph, so a loss that samples from it could be backpropagated once only:
the gSDE models here resample inside the forward (SAC, the distribution) or train on
``evaluate_actions`` (PPO), which does not sample. ``log_ent_coef`` is an ``nn.Parameter`` of the
SAC loss module (SAC keeps a bare tensor with ``requires_grad``).
"""

import functools

PACKAGE = "stable_baselines3"
DISTRIBUTION = "stable-baselines3"

mean_loss_module = None  # adapter.mean_loss_module, set by ZooSuite
_B = 4  # batch (environments / minibatch)
_OBS = 6  # vector observation size
_IMG = (3, 36, 36)  # NatureCNN's smallest input: 36 -> 8 -> 3 -> 1
_HID = [32, 32]
_LR = 3e-4


def _lr_schedule(_):
    return _LR


def warm_up():
    import gymnasium  # noqa: F401
    import stable_baselines3
    import stable_baselines3.common.distributions
    import stable_baselines3.common.policies
    import stable_baselines3.dqn.policies
    import stable_baselines3.sac.policies
    import stable_baselines3.td3.policies  # noqa: F401
    import torch  # noqa: F401


# --- spaces and data -------------------------------------------------------------------------

def _space(kind):
    import numpy as np
    from gymnasium import spaces

    if kind == "Box":  # observations: an unbounded vector
        return spaces.Box(-np.inf, np.inf, (_OBS,), np.float32)
    if kind == "action_Box":  # continuous actions in [-1, 1]
        return spaces.Box(-1.0, 1.0, (2,), np.float32)
    if kind == "vector":
        return spaces.Box(-np.inf, np.inf, (3,), np.float32)
    if kind == "image":  # channel-first uint8 frames
        return spaces.Box(0, 255, _IMG, np.uint8)
    if kind == "gray":
        return spaces.Box(0, 255, (1, 36, 36), np.uint8)
    if kind == "float_image":  # already normalised frames (normalize_images=False)
        return spaces.Box(0.0, 1.0, (1, 36, 36), np.float32)
    if kind == "Discrete":
        return spaces.Discrete(3)
    if kind == "MultiDiscrete":
        return spaces.MultiDiscrete([3, 2, 4])
    if kind == "MultiBinary":
        return spaces.MultiBinary(4)
    raise ValueError(kind)


def _dict_space(*keys):
    from gymnasium import spaces

    return spaces.Dict({k: _space(k) for k in keys})


def _obs(space, rollout=False):
    """A batch of observations as ``obs_to_tensor`` gives them to a policy (``rollout``: as the
    rollout buffer stores them, float32, a ``Discrete`` observation of shape (B, 1))."""
    import torch
    from gymnasium import spaces

    if isinstance(space, spaces.Dict):
        return {k: _obs(s, rollout) for k, s in space.spaces.items()}
    if isinstance(space, spaces.Box):
        if space.dtype == "uint8":
            x = torch.randint(0, 256, (_B, *space.shape), dtype=torch.uint8)
            return x.float() if rollout else x
        if space.is_bounded():
            return torch.rand(_B, *space.shape)
        return torch.randn(_B, *space.shape)
    if isinstance(space, spaces.Discrete):
        x = torch.randint(0, int(space.n), (_B, 1) if rollout else (_B,))
        return x.float() if rollout else x
    if isinstance(space, spaces.MultiDiscrete):
        x = torch.stack([torch.randint(0, int(n), (_B,)) for n in space.nvec], dim=1)
        return x.float() if rollout else x
    if isinstance(space, spaces.MultiBinary):
        return torch.randint(0, 2, (_B, int(space.n))).float()
    raise ValueError(space)


def _actions(space, replay=False):
    """Actions as the rollout buffer stores them, (B, action_dim) float32 (``replay``: as the
    replay buffer does, int64 for ``Discrete``)."""
    import torch
    from gymnasium import spaces

    if isinstance(space, spaces.Box):
        return (torch.rand(_B, *space.shape) * 2 - 1) * 0.9
    if isinstance(space, spaces.Discrete):
        a = torch.randint(0, int(space.n), (_B, 1))
        return a if replay else a.float()
    if isinstance(space, spaces.MultiDiscrete):
        return torch.stack([torch.randint(0, int(n), (_B,)) for n in space.nvec], dim=1).float()
    if isinstance(space, spaces.MultiBinary):
        return torch.randint(0, 2, (_B, int(space.n))).float()
    raise ValueError(space)


def _rollout(policy):
    """A PPO / A2C minibatch: ``RolloutBufferSamples`` (``DictRolloutBufferSamples`` for a Dict)."""
    import torch
    from gymnasium import spaces
    from stable_baselines3.common.type_aliases import (
        DictRolloutBufferSamples,
        RolloutBufferSamples,
    )

    cls = DictRolloutBufferSamples if isinstance(policy.observation_space, spaces.Dict) else RolloutBufferSamples
    return cls(observations=_obs(policy.observation_space, rollout=True),
               actions=_actions(policy.action_space),
               old_values=torch.randn(_B),
               old_log_prob=torch.randn(_B) * 0.1 - 1.0,
               advantages=torch.randn(_B),
               returns=torch.randn(_B))


def _replay(observation_space, action_space, discounts=False):
    """An off-policy minibatch: ``ReplayBufferSamples`` (``DictReplayBufferSamples`` for a Dict);
    ``discounts``: the n-step buffer's per-sample discount."""
    import torch
    from gymnasium import spaces
    from stable_baselines3.common.type_aliases import (
        DictReplayBufferSamples,
        ReplayBufferSamples,
    )

    cls = DictReplayBufferSamples if isinstance(observation_space, spaces.Dict) else ReplayBufferSamples
    return cls(observations=_obs(observation_space),
               actions=_actions(action_space, replay=True),
               next_observations=_obs(observation_space),
               dones=(torch.rand(_B, 1) < 0.25).float(),
               rewards=torch.randn(_B, 1),
               discounts=torch.full((_B, 1), 0.99 ** 3) if discounts else None)


# --- the user-side modules (built once, when the first model is) -----------------------------

@functools.cache
def _nets():
    import types

    import numpy as np
    import torch as th
    import torch.nn.functional as F
    from gymnasium import spaces
    from stable_baselines3.common import distributions as sb3_dist
    from stable_baselines3.common.policies import ActorCriticPolicy
    from stable_baselines3.common.torch_layers import BaseFeaturesExtractor
    from torch import nn

    # -- the on-policy losses (ppo/ppo.py and a2c/a2c.py ``train()``, one minibatch) --

    class PPOLoss(nn.Module):
        def __init__(self, policy, clip_range=0.2, clip_range_vf=None, ent_coef=0.0, vf_coef=0.5,
                     normalize_advantage=True):
            super().__init__()
            self.policy = policy
            self.action_space = policy.action_space
            self.clip_range, self.clip_range_vf = clip_range, clip_range_vf
            self.ent_coef, self.vf_coef, self.normalize_advantage = ent_coef, vf_coef, normalize_advantage

        def forward(self, rollout_data):
            clip_range = self.clip_range
            actions = rollout_data.actions
            if isinstance(self.action_space, spaces.Discrete):
                # Convert discrete action from float to long
                actions = rollout_data.actions.long().flatten()

            values, log_prob, entropy = self.policy.evaluate_actions(rollout_data.observations, actions)
            values = values.flatten()
            # Normalize advantage
            advantages = rollout_data.advantages
            if self.normalize_advantage and len(advantages) > 1:
                advantages = (advantages - advantages.mean()) / (advantages.std() + 1e-8)

            # ratio between old and new policy, should be one at the first iteration
            ratio = th.exp(log_prob - rollout_data.old_log_prob)

            # clipped surrogate loss
            policy_loss_1 = advantages * ratio
            policy_loss_2 = advantages * th.clamp(ratio, 1 - clip_range, 1 + clip_range)
            policy_loss = -th.min(policy_loss_1, policy_loss_2).mean()

            if self.clip_range_vf is None:
                values_pred = values
            else:
                # Clip the difference between old and new value
                values_pred = rollout_data.old_values + th.clamp(
                    values - rollout_data.old_values, -self.clip_range_vf, self.clip_range_vf
                )
            value_loss = F.mse_loss(rollout_data.returns, values_pred)

            if entropy is None:
                # Approximate entropy when no analytical form
                entropy_loss = -th.mean(-log_prob)
            else:
                entropy_loss = -th.mean(entropy)

            return policy_loss + self.ent_coef * entropy_loss + self.vf_coef * value_loss

    class A2CLoss(nn.Module):
        def __init__(self, policy, ent_coef=0.0, vf_coef=0.5, normalize_advantage=False):
            super().__init__()
            self.policy = policy
            self.action_space = policy.action_space
            self.ent_coef, self.vf_coef, self.normalize_advantage = ent_coef, vf_coef, normalize_advantage

        def forward(self, rollout_data):
            actions = rollout_data.actions
            if isinstance(self.action_space, spaces.Discrete):
                actions = actions.long().flatten()

            values, log_prob, entropy = self.policy.evaluate_actions(rollout_data.observations, actions)
            values = values.flatten()

            advantages = rollout_data.advantages
            if self.normalize_advantage:
                advantages = (advantages - advantages.mean()) / (advantages.std() + 1e-8)

            policy_loss = -(advantages * log_prob).mean()
            value_loss = F.mse_loss(rollout_data.returns, values)
            if entropy is None:
                entropy_loss = -th.mean(-log_prob)
            else:
                entropy_loss = -th.mean(entropy)
            return policy_loss + self.ent_coef * entropy_loss + self.vf_coef * value_loss

    # -- the off-policy losses (dqn.py, sac.py, td3.py ``train()``, one gradient step) --

    class DQNLoss(nn.Module):
        def __init__(self, policy, gamma=0.99):
            super().__init__()
            self.q_net, self.q_net_target, self.gamma = policy.q_net, policy.q_net_target, gamma

        def forward(self, replay_data):
            discounts = replay_data.discounts if replay_data.discounts is not None else self.gamma

            with th.no_grad():
                # Compute the next Q-values using the target network
                next_q_values = self.q_net_target(replay_data.next_observations)
                # Follow greedy policy: use the one with the highest value
                next_q_values, _ = next_q_values.max(dim=1)
                next_q_values = next_q_values.reshape(-1, 1)
                target_q_values = replay_data.rewards + (1 - replay_data.dones) * discounts * next_q_values

            current_q_values = self.q_net(replay_data.observations)
            current_q_values = th.gather(current_q_values, dim=1, index=replay_data.actions.long())
            return F.smooth_l1_loss(current_q_values, target_q_values)

    class SACLoss(nn.Module):
        """``which``: "critic", "actor" (with the entropy coefficient's loss) or "both"."""

        def __init__(self, policy, which, gamma=0.99, init_ent_coef=1.0):
            super().__init__()
            self.actor, self.critic, self.critic_target = policy.actor, policy.critic, policy.critic_target
            self.which, self.gamma = which, gamma
            self.use_sde = policy.actor.use_sde
            self.target_entropy = float(-np.prod(policy.action_space.shape).astype(np.float32))
            self.log_ent_coef = nn.Parameter(th.log(th.ones(1) * init_ent_coef))

        def forward(self, replay_data):
            discounts = replay_data.discounts if replay_data.discounts is not None else self.gamma
            # We need to sample because `log_std` may have changed between two gradient steps
            if self.use_sde:
                self.actor.reset_noise()

            actions_pi, log_prob = self.actor.action_log_prob(replay_data.observations)
            log_prob = log_prob.reshape(-1, 1)
            ent_coef = th.exp(self.log_ent_coef.detach())
            ent_coef_loss = -(self.log_ent_coef * (log_prob + self.target_entropy).detach()).mean()

            loss = 0.0
            if self.which in ("critic", "both"):
                with th.no_grad():
                    next_actions, next_log_prob = self.actor.action_log_prob(replay_data.next_observations)
                    next_q_values = th.cat(self.critic_target(replay_data.next_observations, next_actions), dim=1)
                    next_q_values, _ = th.min(next_q_values, dim=1, keepdim=True)
                    next_q_values = next_q_values - ent_coef * next_log_prob.reshape(-1, 1)
                    target_q_values = replay_data.rewards + (1 - replay_data.dones) * discounts * next_q_values
                current_q_values = self.critic(replay_data.observations, replay_data.actions)
                critic_loss = 0.5 * sum(F.mse_loss(current_q, target_q_values) for current_q in current_q_values)
                loss = loss + critic_loss
            if self.which in ("actor", "both"):
                q_values_pi = th.cat(self.critic(replay_data.observations, actions_pi), dim=1)
                min_qf_pi, _ = th.min(q_values_pi, dim=1, keepdim=True)
                actor_loss = (ent_coef * log_prob - min_qf_pi).mean()
                loss = loss + actor_loss + ent_coef_loss
            return loss

    class TD3Loss(nn.Module):
        """``which``: "critic", "actor" or "both" (DDPG: ``policy_delay=1``, noise 0.1 clipped to 0)."""

        def __init__(self, policy, which, gamma=0.99, target_policy_noise=0.2, target_noise_clip=0.5):
            super().__init__()
            self.actor, self.actor_target = policy.actor, policy.actor_target
            self.critic, self.critic_target = policy.critic, policy.critic_target
            self.which, self.gamma = which, gamma
            self.target_policy_noise, self.target_noise_clip = target_policy_noise, target_noise_clip

        def forward(self, replay_data):
            discounts = replay_data.discounts if replay_data.discounts is not None else self.gamma
            loss = 0.0
            if self.which in ("critic", "both"):
                with th.no_grad():
                    # Select action according to policy and add clipped noise
                    noise = replay_data.actions.clone().data.normal_(0, self.target_policy_noise)
                    noise = noise.clamp(-self.target_noise_clip, self.target_noise_clip)
                    next_actions = (self.actor_target(replay_data.next_observations) + noise).clamp(-1, 1)
                    next_q_values = th.cat(self.critic_target(replay_data.next_observations, next_actions), dim=1)
                    next_q_values, _ = th.min(next_q_values, dim=1, keepdim=True)
                    target_q_values = replay_data.rewards + (1 - replay_data.dones) * discounts * next_q_values
                current_q_values = self.critic(replay_data.observations, replay_data.actions)
                loss = loss + sum(F.mse_loss(current_q, target_q_values) for current_q in current_q_values)
            if self.which in ("actor", "both"):
                actor_loss = -self.critic.q1_forward(replay_data.observations,
                                                     self.actor(replay_data.observations)).mean()
                loss = loss + actor_loss
            return loss

    # -- a policy's methods other than forward, as a user calls them --

    class EvaluateActions(nn.Module):
        def __init__(self, policy):
            super().__init__()
            self.policy = policy

        def forward(self, obs, actions):
            return self.policy.evaluate_actions(obs, actions)

    class DistributionOf(nn.Module):
        """``policy.get_distribution(obs)``, then the log-likelihood of given actions and the entropy."""

        def __init__(self, policy):
            super().__init__()
            self.policy = policy

        def forward(self, obs, actions):
            distribution = self.policy.get_distribution(obs)
            return distribution.log_prob(actions), distribution.entropy()

    class PredictValues(nn.Module):
        def __init__(self, policy):
            super().__init__()
            self.policy = policy

        def forward(self, obs):
            return self.policy.predict_values(obs)

    class Predict(nn.Module):
        """``policy._predict``: what ``predict()`` runs under ``no_grad`` between its numpy steps."""

        def __init__(self, policy):
            super().__init__()
            self.policy = policy

        def forward(self, obs, deterministic=False):
            return self.policy._predict(obs, deterministic=deterministic)

    class ExtractFeatures(nn.Module):
        def __init__(self, policy):
            super().__init__()
            self.policy = policy

        def forward(self, obs):
            return self.policy.extract_features(obs)

    class ActionLogProb(nn.Module):
        def __init__(self, actor):
            super().__init__()
            self.actor = actor

        def forward(self, obs):
            return self.actor.action_log_prob(obs)

    class Q1Forward(nn.Module):
        def __init__(self, critic):
            super().__init__()
            self.critic = critic

        def forward(self, obs, actions):
            return self.critic.q1_forward(obs, actions)

    # -- the docs' examples (guide/custom_policy.rst, guide/export.rst) --

    class CustomNetwork(nn.Module):
        def __init__(self, feature_dim, last_layer_dim_pi=32, last_layer_dim_vf=32):
            super().__init__()
            # Save output dimensions, used to create the distributions
            self.latent_dim_pi = last_layer_dim_pi
            self.latent_dim_vf = last_layer_dim_vf
            self.policy_net = nn.Sequential(nn.Linear(feature_dim, last_layer_dim_pi), nn.ReLU())
            self.value_net = nn.Sequential(nn.Linear(feature_dim, last_layer_dim_vf), nn.ReLU())

        def forward(self, features):
            return self.forward_actor(features), self.forward_critic(features)

        def forward_actor(self, features):
            return self.policy_net(features)

        def forward_critic(self, features):
            return self.value_net(features)

    class CustomActorCriticPolicy(ActorCriticPolicy):
        def __init__(self, observation_space, action_space, lr_schedule, *args, **kwargs):
            super().__init__(observation_space, action_space, lr_schedule, *args, **kwargs)
            # Disable orthogonal initialization
            self.ortho_init = False

        def _build_mlp_extractor(self):
            self.mlp_extractor = CustomNetwork(self.features_dim)

    class CustomCNN(BaseFeaturesExtractor):
        def __init__(self, observation_space, features_dim=64):
            super().__init__(observation_space, features_dim)
            n_input_channels = observation_space.shape[0]
            self.cnn = nn.Sequential(
                nn.Conv2d(n_input_channels, 16, kernel_size=8, stride=4, padding=0),
                nn.ReLU(),
                nn.Conv2d(16, 32, kernel_size=4, stride=2, padding=0),
                nn.ReLU(),
                nn.Flatten(),
            )
            # Compute shape by doing one forward pass
            with th.no_grad():
                n_flatten = self.cnn(th.as_tensor(observation_space.sample()[None]).float()).shape[1]
            self.linear = nn.Sequential(nn.Linear(n_flatten, features_dim), nn.ReLU())

        def forward(self, observations):
            return self.linear(self.cnn(observations))

    class OnnxableSB3Policy(nn.Module):
        def __init__(self, policy):
            super().__init__()
            self.policy = policy

        def forward(self, observation):
            # NOTE: Preprocessing is included, but postprocessing
            # (clipping/inscaling actions) is not,
            # If needed, you also need to transpose the images so that they are channel first
            # use deterministic=False if you want to export the stochastic policy
            # policy() returns `actions, values, log_prob` for PPO
            return self.policy(observation, deterministic=True)

    class OnnxableSACActor(nn.Module):
        def __init__(self, actor):
            super().__init__()
            self.actor = actor

        def forward(self, observation):
            return self.actor(observation, deterministic=True)

    # -- the distributions on their own, each over a small latent net --

    class DistributionHead(nn.Module):
        """A latent MLP and the layers of ``proba_distribution_net``, used as a policy uses them."""

        def __init__(self, kind):
            super().__init__()
            self.kind = kind
            latent_dim = 16
            self.latent = nn.Sequential(nn.Linear(_OBS, latent_dim), nn.Tanh())
            if kind == "DiagGaussian":
                self.dist = sb3_dist.DiagGaussianDistribution(2)
                self.action_net, self.log_std = self.dist.proba_distribution_net(latent_dim, log_std_init=0.0)
            elif kind == "SquashedDiagGaussian":
                self.dist = sb3_dist.SquashedDiagGaussianDistribution(2)
                self.mu = nn.Linear(latent_dim, 2)  # SAC's actor: a state-dependent log_std head
                self.log_std = nn.Linear(latent_dim, 2)
            elif kind == "Categorical":
                self.dist = sb3_dist.CategoricalDistribution(3)
                self.action_net = self.dist.proba_distribution_net(latent_dim)
            elif kind == "MultiCategorical":
                self.dist = sb3_dist.MultiCategoricalDistribution([3, 2, 4])
                self.old_dist = sb3_dist.MultiCategoricalDistribution([3, 2, 4])
                self.action_net = self.dist.proba_distribution_net(latent_dim)
            elif kind == "Bernoulli":
                self.dist = sb3_dist.BernoulliDistribution(4)
                self.action_net = self.dist.proba_distribution_net(latent_dim)
            elif kind == "StateDependentNoise":
                self.dist = sb3_dist.StateDependentNoiseDistribution(2)
                self.action_net, self.log_std = self.dist.proba_distribution_net(
                    latent_dim, log_std_init=-2.0, latent_sde_dim=latent_dim)
            else:
                raise ValueError(kind)

        def forward(self, obs, actions, *old_logits):
            latent = self.latent(obs)
            if self.kind == "DiagGaussian":
                dist = self.dist.proba_distribution(self.action_net(latent), self.log_std)
                return dist.get_actions(), dist.log_prob(actions), dist.entropy(), dist.mode()
            if self.kind == "SquashedDiagGaussian":
                mean_actions = self.mu(latent)
                log_std = th.clamp(self.log_std(latent), -20, 2)
                sampled, log_prob = self.dist.log_prob_from_params(mean_actions, log_std)
                deterministic = self.dist.actions_from_params(mean_actions, log_std, deterministic=True)
                return sampled, log_prob, deterministic, self.dist.log_prob(actions)
            if self.kind == "StateDependentNoise":
                # a fresh exploration matrix per environment, as reset_noise(n_envs) draws it
                self.dist.sample_weights(self.log_std, batch_size=len(latent))
                dist = self.dist.proba_distribution(self.action_net(latent), self.log_std, latent)
                return dist.get_actions(), dist.log_prob(actions), dist.entropy()
            # discrete kinds: logits in, actions sampled / greedy, log-likelihood of given actions
            dist = self.dist.proba_distribution(action_logits=self.action_net(latent))
            out = (dist.log_prob(actions), dist.entropy(), dist.get_actions(deterministic=True), dist.sample())
            if self.kind == "MultiCategorical":
                old = self.old_dist.proba_distribution(action_logits=old_logits[0])
                out = out + (sb3_dist.kl_divergence(old, dist),)
            return out

    return types.SimpleNamespace(**{k: v for k, v in locals().items() if isinstance(v, type)})


# --- builders --------------------------------------------------------------------------------

def _mean(net, args, mode, kwargs=None):
    return (mean_loss_module()(net) if mode == "train" else net), args, kwargs or {}


def _actor_critic(action="Box", obs="Box", cls=None, **policy_kwargs):
    """An ``ActorCriticPolicy`` on the named spaces (a tuple of names: a Dict, then the
    ``MultiInputActorCriticPolicy``; an image: the ``ActorCriticCnnPolicy``), or ``cls``;
    ``activation_fn`` may name a ``torch.nn`` class."""
    import torch
    from stable_baselines3.common import policies

    if isinstance(obs, tuple):
        obs_space, default = _dict_space(*obs), policies.MultiInputActorCriticPolicy
        policy_kwargs.setdefault("features_extractor_kwargs", dict(cnn_output_dim=32))
    else:
        obs_space = _space(obs)
        default = policies.ActorCriticCnnPolicy if obs in ("image", "gray", "float_image") else policies.ActorCriticPolicy
    action_space = _space("action_Box" if action == "Box" else action)
    if isinstance(policy_kwargs.get("activation_fn"), str):
        policy_kwargs["activation_fn"] = getattr(torch.nn, policy_kwargs["activation_fn"])
    if default is policies.ActorCriticPolicy:
        policy_kwargs.setdefault("net_arch", _HID)
    return (cls or default)(obs_space, action_space, _lr_schedule, **policy_kwargs)


def _on_policy(action="Box", obs="Box", cls=None, deterministic=False, loss="ppo", loss_kwargs=None,
               reset_noise=False, **policy_kwargs):
    """``policy(obs)``: (actions, values, log_prob); train: the PPO (or A2C) loss on a minibatch
    (``deterministic``: ``policy(obs, deterministic=True)``, ``mean_loss_module`` in train)."""

    def make(mode):
        policy = _actor_critic(action, obs, cls, **policy_kwargs)
        if reset_noise:
            policy.reset_noise(_B)  # one exploration matrix per environment (the bmm path)
        if deterministic:  # the greedy forward a deployed policy runs (values, log_prob: the loss)
            return _mean(policy, (_obs(policy.observation_space),), mode, {"deterministic": True})
        if mode == "train":
            loss_cls = _nets().PPOLoss if loss == "ppo" else _nets().A2CLoss
            return loss_cls(policy, **(loss_kwargs or {})), (_rollout(policy),), {}
        return policy, (_obs(policy.observation_space),), {}

    return make


def _policy_method(wrapper, action="Box", obs="Box", with_actions=False, **kwargs):
    """A policy method through a thin user wrapper (``EvaluateActions``, ``DistributionOf``,
    ``PredictValues``, ``Predict``, ``ExtractFeatures``, ``OnnxableSB3Policy``)."""

    def make(mode):
        from gymnasium import spaces

        policy = _actor_critic(action, obs)
        args = (_obs(policy.observation_space),)
        if with_actions:
            actions = _actions(policy.action_space)
            if isinstance(policy.action_space, spaces.Discrete):
                actions = actions.long().flatten()
            args += (actions,)
        return _mean(getattr(_nets(), wrapper)(policy), args, mode, dict(kwargs))

    return make


def _custom_policy(mode):
    """The docs' ``CustomActorCriticPolicy`` (its ``CustomNetwork`` as the mlp extractor), Discrete."""
    policy = _nets().CustomActorCriticPolicy(_space("Box"), _space("Discrete"), _lr_schedule)
    if mode == "train":
        return _nets().PPOLoss(policy), (_rollout(policy),), {}
    return policy, (_obs(policy.observation_space),), {}


def _custom_cnn(mode):
    """The docs' ``CustomCNN`` features extractor in a ``CnnPolicy``, Discrete actions."""
    from stable_baselines3.common.policies import ActorCriticCnnPolicy

    policy = ActorCriticCnnPolicy(_space("image"), _space("Discrete"), _lr_schedule,
                                  features_extractor_class=_nets().CustomCNN,
                                  features_extractor_kwargs=dict(features_dim=64))
    if mode == "train":
        return _nets().PPOLoss(policy), (_rollout(policy),), {}
    return policy, (_obs(policy.observation_space),), {}


def _dqn(cls_name="MlpPolicy", obs="Box", forward="q_net", discounts=False):
    """A DQN policy: ``q_net`` (the Q-values) or the policy's forward (greedy actions); train:
    the TD loss against ``q_net_target``."""

    def make(mode):
        from stable_baselines3.dqn import policies

        obs_space = _dict_space(*obs) if isinstance(obs, tuple) else _space(obs)
        kwargs = {"net_arch": _HID}
        if cls_name == "CnnPolicy":
            kwargs = {"features_extractor_kwargs": dict(features_dim=64)}
        elif cls_name == "MultiInputPolicy":
            kwargs["features_extractor_kwargs"] = dict(cnn_output_dim=32)
        policy = getattr(policies, cls_name)(obs_space, _space("Discrete"), _lr_schedule, **kwargs)
        if mode == "train":
            return _nets().DQNLoss(policy), (_replay(obs_space, policy.action_space, discounts),), {}
        net = policy.q_net if forward == "q_net" else policy
        return net, (_obs(obs_space),), {}

    return make


def _off_policy_policy(algo, cls_name="MlpPolicy", obs="Box", **kwargs):
    from stable_baselines3.sac import policies as sac_policies
    from stable_baselines3.td3 import policies as td3_policies

    module = sac_policies if algo == "sac" else td3_policies
    obs_space = _dict_space(*obs) if isinstance(obs, tuple) else _space(obs)
    kwargs.setdefault("net_arch", _HID)
    if cls_name == "CnnPolicy":
        kwargs.setdefault("features_extractor_kwargs", dict(features_dim=64))
    elif cls_name == "MultiInputPolicy":
        kwargs.setdefault("features_extractor_kwargs", dict(cnn_output_dim=32))
    return getattr(module, cls_name)(obs_space, _space("action_Box"), _lr_schedule, **kwargs)


def _sac(part="policy", loss="actor", cls_name="MlpPolicy", obs="Box", deterministic=False, **kwargs):
    """A SAC policy's part (``policy``: ``forward``; ``actor``: ``action_log_prob``; ``critic``:
    the twin Q-nets; ``onnx``: the docs' deterministic actor export); train: ``loss``, SAC's
    critic or actor (+ entropy coefficient) loss, or "mean" (``mean_loss_module``)."""

    def make(mode):
        import torch

        policy = _off_policy_policy("sac", cls_name, obs, **kwargs)
        if mode == "train" and loss != "mean":
            return _nets().SACLoss(policy, loss), (_replay(policy.observation_space, policy.action_space),), {}
        obs_batch = _obs(policy.observation_space)
        if part == "policy":
            net, args = policy, (obs_batch,)
        elif part == "actor":
            if policy.actor.use_sde:
                policy.reset_noise(_B)
            net, args = _nets().ActionLogProb(policy.actor), (obs_batch,)
        elif part == "critic":
            net, args = policy.critic, (obs_batch, torch.rand(_B, 2) * 2 - 1)
        elif part == "onnx":
            net, args = _nets().OnnxableSACActor(policy.actor), (obs_batch,)
        else:
            raise ValueError(part)
        return _mean(net, args, mode, {"deterministic": True} if deterministic else {})

    return make


def _td3(part="policy", loss="actor", cls_name="MlpPolicy", obs="Box", ddpg=False, **kwargs):
    """A TD3 (or DDPG: one critic, ``policy_delay=1``, target noise 0.1 clipped to 0) policy's part:
    ``policy`` (the deterministic actor), ``critic`` (the twin Q-nets), ``q1`` (``q1_forward``)."""

    def make(mode):
        import torch

        if ddpg:
            kwargs.setdefault("n_critics", 1)
        policy = _off_policy_policy("td3", cls_name, obs, **kwargs)
        if mode == "train" and loss != "mean":
            noise = dict(target_policy_noise=0.1, target_noise_clip=0.0) if ddpg else {}
            batch = _replay(policy.observation_space, policy.action_space)
            return _nets().TD3Loss(policy, loss, **noise), (batch,), {}
        obs_batch = _obs(policy.observation_space)
        if part == "policy":
            return _mean(policy, (obs_batch,), mode)
        actions = torch.rand(_B, 2) * 2 - 1
        if part == "critic":
            return _mean(policy.critic, (obs_batch, actions), mode)
        if part == "q1":
            return _mean(_nets().Q1Forward(policy.critic), (obs_batch, actions), mode)
        raise ValueError(part)

    return make


def _distribution(kind):
    """A distribution from its ``proba_distribution_net``: (obs, actions[, old logits])."""

    def make(mode):
        import torch

        head = _nets().DistributionHead(kind)
        obs = torch.randn(_B, _OBS)
        if kind in ("DiagGaussian", "SquashedDiagGaussian", "StateDependentNoise"):
            actions = (torch.rand(_B, 2) * 2 - 1) * 0.9
        elif kind == "Categorical":
            actions = torch.randint(0, 3, (_B,))
        elif kind == "MultiCategorical":
            actions = _actions(_space("MultiDiscrete"))
        else:
            actions = _actions(_space("MultiBinary"))
        args = (obs, actions)
        if kind == "MultiCategorical":
            args += (torch.randn(_B, 9),)
        return _mean(head, args, mode)

    return make


MODELS = {
    # PPO / A2C ActorCriticPolicy (MlpPolicy): forward per action space; train: the PPO loss
    "ActorCriticPolicy_Box": _on_policy("Box", net_arch=None),  # the default 64x64 pi / vf nets
    "ActorCriticPolicy_Discrete": _on_policy("Discrete"),
    "ActorCriticPolicy_MultiDiscrete": _on_policy("MultiDiscrete"),
    "ActorCriticPolicy_MultiBinary": _on_policy("MultiBinary"),
    "ActorCriticPolicy_Discrete_deterministic": _on_policy("Discrete", deterministic=True),
    "ActorCriticPolicy_separate_extractors_clip_vf": _on_policy(
        "Box", share_features_extractor=False, net_arch=dict(pi=[32, 32], vf=[16]),
        loss_kwargs=dict(clip_range_vf=0.2, ent_coef=0.01)),
    "ActorCriticPolicy_A2C": _on_policy("Discrete", loss="a2c", activation_fn="ReLU", ortho_init=False,
                                        loss_kwargs=dict(ent_coef=0.01)),
    "ActorCriticPolicy_gSDE": _on_policy("Box", use_sde=True),
    "ActorCriticPolicy_gSDE_reset_noise": _on_policy("Box", use_sde=True, reset_noise=True),
    "ActorCriticPolicy_gSDE_squash_expln": _on_policy("Box", use_sde=True, squash_output=True, use_expln=True,
                                                      full_std=False),
    "ActorCriticPolicy_obs_Discrete": _on_policy("Discrete", obs="Discrete"),
    "ActorCriticPolicy_obs_MultiDiscrete": _on_policy("Box", obs="MultiDiscrete"),
    "ActorCriticCnnPolicy": _on_policy("Discrete", obs="image"),
    "ActorCriticCnnPolicy_unnormalized_Box": _on_policy("Box", obs="float_image", normalize_images=False,
                                                        features_extractor_kwargs=dict(features_dim=64)),
    "MultiInputActorCriticPolicy": _on_policy("Discrete", obs=("gray", "vector", "Discrete")),
    # the policy's other methods
    "ActorCriticPolicy_evaluate_actions_Box": _policy_method("EvaluateActions", "Box", with_actions=True),
    "ActorCriticPolicy_evaluate_actions_Discrete": _policy_method("EvaluateActions", "Discrete", with_actions=True),
    "ActorCriticPolicy_get_distribution_MultiDiscrete": _policy_method("DistributionOf", "MultiDiscrete",
                                                                       with_actions=True),
    "ActorCriticPolicy_get_distribution_MultiBinary": _policy_method("DistributionOf", "MultiBinary",
                                                                     with_actions=True),
    "ActorCriticPolicy_predict_values": _policy_method("PredictValues", "Box"),
    "ActorCriticPolicy__predict_Box": _policy_method("Predict", "Box"),
    "ActorCriticPolicy__predict_MultiBinary_deterministic": _policy_method("Predict", "MultiBinary",
                                                                           deterministic=True),
    "MultiInput_extract_features_all_spaces": _policy_method(
        "ExtractFeatures", "Box", obs=("gray", "vector", "Discrete", "MultiDiscrete", "MultiBinary")),
    # the docs' custom policy network, custom CNN and export wrapper
    "CustomActorCriticPolicy_docs": _custom_policy,
    "CustomCNN_docs": _custom_cnn,
    "OnnxableSB3Policy_PPO_docs": _policy_method("OnnxableSB3Policy", "Box"),
    # DQN
    "DQN_QNetwork": _dqn(),
    "DQNPolicy_forward_obs_Discrete": _dqn(obs="Discrete", forward="policy"),
    "DQN_CnnPolicy": _dqn("CnnPolicy", obs="image"),
    "DQN_MultiInputPolicy_n_step": _dqn("MultiInputPolicy", obs=("gray", "vector"), discounts=True),
    # SAC
    "SACPolicy_forward": _sac("policy", "actor"),
    "SACPolicy_forward_deterministic": _sac("policy", "mean", deterministic=True),
    "SAC_Actor_action_log_prob": _sac("actor", "mean"),
    "SAC_ContinuousCritic": _sac("critic", "critic"),
    "SACPolicy_gSDE": _sac("actor", "both", use_sde=True),
    "SAC_CnnPolicy": _sac("policy", "critic", cls_name="CnnPolicy", obs="image"),
    "SAC_MultiInputPolicy": _sac("actor", "actor", cls_name="MultiInputPolicy", obs=("gray", "vector")),
    "SAC_OnnxableActor_docs": _sac("onnx", "mean"),
    # TD3 / DDPG
    "TD3Policy_forward": _td3("policy", "actor"),
    "TD3_ContinuousCritic": _td3("critic", "critic"),
    "TD3_critic_q1_forward": _td3("q1", "mean"),
    "TD3_CnnPolicy_shared_extractor": _td3("policy", "both", cls_name="CnnPolicy", obs="image",
                                           share_features_extractor=True),
    "DDPG_policy": _td3("policy", "both", ddpg=True),
    # the distributions on their own
    "DiagGaussianDistribution": _distribution("DiagGaussian"),
    "SquashedDiagGaussianDistribution": _distribution("SquashedDiagGaussian"),
    "CategoricalDistribution": _distribution("Categorical"),
    "MultiCategoricalDistribution_kl": _distribution("MultiCategorical"),
    "BernoulliDistribution": _distribution("Bernoulli"),
    "StateDependentNoiseDistribution": _distribution("StateDependentNoise"),
}
