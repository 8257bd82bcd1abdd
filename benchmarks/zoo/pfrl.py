"""PFRL 0.4.0 (Preferred Networks): the networks its agents train and the losses its agents
compute on them, as its examples (``examples/gym``, ``examples/atari``, ``examples/mujoco``) and
its tests (``tests/nn_tests``, ``tests/q_functions_tests``, ``tests/agents_tests``) build them;
tiny (batch 2, a 4-d vector observation, 3 discrete actions or a 2-d continuous action, hidden
layers of 16 units; Atari frames of 4 x 84 x 84 where a library class hard-codes the 3136-unit
flatten of an 84 x 84 frame), random weights, no environment, no download:

- ``q_functions``: ``FCStateQFunctionWithDiscreteAction`` (``train_dqn_gym.py``) under DQN,
  under DoubleDQN after ``nn.to_factorized_noisy`` with prioritized-replay weights (its
  ``--noisy-net-sigma`` / ``--prioritized-replay``), under PAL and DPP;
  ``DistributionalFCStateQFunctionWithDiscreteAction`` under CategoricalDQN
  (``train_categorical_dqn_gym.py``: 51 atoms in [-10, 10]); ``DistributionalDuelingDQN`` made
  noisy under CategoricalDoubleDQN with 3-step returns and weights (``train_rainbow.py``);
  ``DuelingDQN`` under DoubleDQN and ``LargeAtariCNN`` / ``SmallAtariCNN`` + ``Linear`` +
  ``DiscreteActionValueHead`` under DQN (``train_dqn_ale.py``'s ``nature`` / ``nips`` archs,
  ``batch_accumulator="sum"`` for the first); ``FCQuadraticStateQFunction`` (NAF, a 3-d action:
  ``lower_triangular_matrix``; a 1-d action: the diagonal-only branch) under DQN; the state-action
  Q-functions of ``test_state_action_q_function.py`` (``FCSAQFunction``, ``FCBNSAQFunction``,
  ``FCBNLateActionSAQFunction``, ``FCLateActionSAQFunction``);
- ``agents.iqn``: ``ImplicitQuantileQFunction`` (``CosineBasisLinear``) and
  ``RecurrentImplicitQuantileQFunction`` (a ``RecurrentSequential`` with an RNN) under IQN
  (``test_iqn.py``; N = N' = 8, K = 4 thresholds);
- recurrent: the DRQN of ``train_drqn_ale.py`` (``RecurrentSequential`` with an LSTM and a
  ``DiscreteActionValueHead``) under recurrent DoubleDQN on two episodes (lengths 3 and 2) from
  ``batch_recurrent_experiences``; ``RecurrentSequential`` (Linear, ELU, LSTM, Linear, RNN, Tanh
  on packed sequences of lengths 4, 1, 3) and ``RecurrentBranched`` (LSTM, RNN, Linear) from
  ``test_recurrent_sequential.py`` / ``test_recurrent_branched.py``;
- ``policies``: ``GaussianHeadWithStateIndependentCovariance`` (diagonal, ``exp(2x)``) + a value
  function in ``nn.Branched`` behind ``nn.EmpiricalNormalization`` under PPO (``train_ppo.py``),
  under TRPO (``train_trpo.py``), and under A2C with GAE (``test_a2c.py``, spherical variance);
  ``SoftmaxCategoricalHead`` + value in ``Branched`` under PPO with value clipping
  (``train_ppo_ale.py``) and A2C (``train_a2c_ale.py``); ``RecurrentBranched`` of two LSTM
  ``RecurrentSequential``s under recurrent PPO (``test_ppo.py``); ``SoftmaxCategoricalHead`` and
  ``GaussianHeadWithFixedCovariance`` under REINFORCE (``train_reinforce_gym.py``);
  ``DeterministicHead`` (``distributions.Delta``) with ``nn.BoundByTanh`` under DDPG
  (``train_ddpg.py``) and with ``Tanh`` under TD3 (``train_td3.py``); SAC's tanh-squashed
  diagonal Gaussian behind ``nn.Lambda`` with ``ConcatObsAndAction`` critics and a learned
  ``TemperatureHolder`` (``train_soft_actor_critic.py``); ACER's ``ACERDiscreteActionHead`` and
  ``ACERContinuousActionHead`` (``GaussianHeadWithDiagonalCovariance``, a sampled
  ``SingleActionValue``) from ``test_acer.py``, with the trust region;
- ``nn``: ``MLPBN`` (``test_mlp_bn.py``: hidden (7, 8), both normalizations, ELU, last_wscale
  1e-3) and ``EmpiricalNormalization`` (``until``, ``clip_threshold=5``).

Eval: what the agent's act computes from the network (tensors only: the greedy actions and max of
an ``ActionValue``, IQN's quantile thresholds, ``mode_of_distribution`` or ``sample`` of a policy,
``one_step_forward`` for a recurrent one); the plain modules' outputs. Train: the agent's own
loss. Where the agent has a loss method it is called on a batch built by the library's own
``batch_experiences`` / ``batch_recurrent_experiences`` (the DQN family's ``_compute_loss``,
DDPG's ``compute_critic_loss`` + ``compute_actor_loss``, PPO's ``_lossfun``, TRPO's
``_compute_gain``, ACER's ``compute_loss`` over two steps); where the loss sits inside an
update that also steps an optimizer (SAC, TD3, A2C, REINFORCE), the math of that update is copied
without the ``backward()`` / ``step()`` calls, with the agent's own helpers (SAC's
``temperature``, TD3's ``default_target_policy_smoothing_func``, A2C's ``_compute_returns``).
``mean_loss_module`` for the plain modules. Measured first as it came, before any rule looked at
it.

    pip install --no-deps pfrl==0.4.0
    pip install --no-deps gym==0.26.2
    pip install --no-deps gym-notices==0.1.0   # (+ numpy 2.4.6, pillow 13.0.0, filelock 4.3.1,
                                               #  cloudpickle 3.1.3: installed)

``pfrl/__init__.py`` imports ``envs`` and ``wrappers``, which import ``gym`` at their top (a
deprecation notice is printed; gym needs numpy, cloudpickle and gym_notices); ``pillow`` and
``filelock`` are declared but imported only by the Atari wrappers / pretrained-model download.
Only ``gym.spaces.Box`` is used (NAF's action bounds). Nothing stubbed.

Capture (torch 2.13.0+cpu): 35 models, 70 runs, all built, all 70 ran under Dynamo (35 eval, 35
train), none failed or timed out. 52 runs have no break at all: the feed-forward Q-functions, heads
and ``ActionValue`` reads, and most losses (the DQN family's ``_compute_loss``, its
``q_record.extend(y.detach().cpu().numpy())`` traced through numpy, CategoricalDQN's projection,
IQN's quantile Huber loss, TD3, A2C, REINFORCE). 18 runs break: the ten recurrent runs (an LSTM,
RNN or GRU is refused, GB0014, with frame skips at ``RecurrentSequential.recurrent_children`` /
``is_recurrent`` / ``RecurrentBranched.forward``; ``pack_sequence`` is skipped, GB0007;
``pack_sequences_recursive`` hits a TypeError on fake tensors, GB0112); ACER's two trainings
(``assert np.isscalar(...)`` on values that are tensors under Dynamo, GB0208, ``torch.autograd.grad``
GB9186, ``if kk_dot > 0`` GB0170, ``float(kl)``, the graph break in ``compute_loss``'s loop GB7000,
a ``DiscreteActionValue`` whose default ``lambda`` formatter cannot be reconstructed, GB0092); the
statistics ``float()``s of PPO's ``_lossfun`` (three runs) and DDPG's ``compute_*_loss`` (GB0124,
GB0033); SAC's ``temperature`` property (``float`` of the holder: a frame skip); the ``until`` test
of ``EmpiricalNormalization.experience`` (GB0170); TRPO's ``kl_divergence`` (a ``min`` over a
generator, GB0059, reported on this file's line). Outside the package: this file's ``Packed``
wrapper (``pack_sequence``) and the lines calling into ACER / TRPO. First numbers with the frozen
linter (``/tmp/lint-start56``): graph-break statement recall 0.16 (4/25), precision 1.00 (4/4),
12 findings (7 in files run), 3 unjudged (1 shadowed, 2 not reached). Missed: the recurrent
breaks, ACER's ``np.isscalar`` asserts and ``if kk_dot > 0``, the logging ``float()``s of PPO,
DDPG and SAC.

Left out: ``FCLSTMSAQFunction`` (its ``__init__`` raises ``NotImplementedError`` in 0.4.0); the
agents' ``act`` / ``observe`` / ``update`` drivers themselves (numpy on both sides, optimizer
steps, replay buffers), the environments, wrappers, explorers, replay buffers and optimizers (no
network); A3C (the A2C model and loss over shared memory) and AL / DPPL / DPPGreedy (the same
``_compute_loss`` as PAL / DPP with another operator); the TRPO line search and conjugate gradient
(``torch.autograd.grad`` around the loss, not the loss). ACER runs one environment, batch 1 per
step, as it asserts.
"""

import functools

PACKAGE = "pfrl"

mean_loss_module = None  # adapter.py's, set by ZooSuite

_B, _OBS, _NA, _AD, _H = 2, 4, 3, 2, 16  # batch, observation size, actions, action dims, hidden
_FRAME = (4, 84, 84)
_GAMMA = 0.99


@functools.cache
def _modules():
    import torch
    from torch import nn
    import torch.nn.functional as F

    import pfrl
    from pfrl.utils.mode_of_distribution import mode_of_distribution
    from pfrl.utils.recurrent import one_step_forward, pack_and_forward

    class QAct(nn.Module):
        """A DQN-family act: the ``ActionValue``'s greedy actions and max."""

        def __init__(self, model, recurrent=False):
            super().__init__()
            self.model, self.recurrent = model, recurrent

        def forward(self, x):
            if self.recurrent:
                av, _ = one_step_forward(self.model, x, None)
            else:
                av = self.model(x)
            return av.greedy_actions, av.max

    class IQNAct(nn.Module):
        """IQN's act: K sampled quantile thresholds, then the greedy actions."""

        def __init__(self, model, k=4, recurrent=False):
            super().__init__()
            self.model, self.k, self.recurrent = model, k, recurrent

        def forward(self, x):
            if self.recurrent:
                tau2av, _ = one_step_forward(self.model, x, None)
            else:
                tau2av = self.model(x)
            taus = torch.rand(x.shape[0], self.k, dtype=torch.float)
            av = tau2av(taus)
            return av.greedy_actions, av.q_values

    class AgentLoss(nn.Module):
        """``agent._compute_loss(exp_batch)`` (the DQN family)."""

        def __init__(self, agent):
            super().__init__()
            self.model = agent.model
            object.__setattr__(self, "agent", agent)

        def forward(self, exp_batch):
            return self.agent._compute_loss(exp_batch)

    class PolicyAct(nn.Module):
        """A policy's act: the mode (``act_deterministically``) or a sample of its distribution
        (the first output of a ``Branched`` actor-critic), optionally after the observation
        normalizer; ``recurrent``: ``one_step_forward``."""

        def __init__(self, model, deterministic=False, normalizer=None, branched=False, recurrent=False):
            super().__init__()
            self.model, self.normalizer = model, normalizer
            self.deterministic, self.branched, self.recurrent = deterministic, branched, recurrent

        def forward(self, x):
            if self.normalizer is not None:
                x = self.normalizer(x, update=False)
            if self.recurrent:
                out, _ = one_step_forward(self.model, x, None)
            else:
                out = self.model(x)
            distrib = out[0] if self.branched else out
            if self.deterministic:
                return mode_of_distribution(distrib)
            return distrib.sample()

    class PPOLoss(nn.Module):
        """PPO's ``_update`` on one minibatch: standardized advantages, then ``_lossfun``."""

        def __init__(self, agent):
            super().__init__()
            self.model, self.normalizer = agent.model, agent.obs_normalizer
            object.__setattr__(self, "agent", agent)

        def forward(self, states, actions, advs, log_probs_old, vs_pred_old, vs_teacher):
            if self.normalizer is not None:
                states = self.normalizer(states, update=False)
            distribs, vs_pred = self.model(states)
            std_advs, mean_advs = torch.std_mean(advs, unbiased=False)
            advs = (advs - mean_advs) / (std_advs + 1e-8)
            return self.agent._lossfun(distribs.entropy(), vs_pred, distribs.log_prob(actions),
                                       vs_pred_old=vs_pred_old, log_probs_old=log_probs_old, advs=advs,
                                       vs_teacher=vs_teacher)

    class RecurrentPPOLoss(nn.Module):
        """PPO's ``_update_once_recurrent``: ``pack_and_forward`` over episodes, then ``_lossfun``."""

        def __init__(self, agent):
            super().__init__()
            self.model = agent.model
            object.__setattr__(self, "agent", agent)

        def forward(self, seqs_states, actions, advs, log_probs_old, vs_pred_old, vs_teacher):
            (distribs, vs_pred), _ = pack_and_forward(self.model, seqs_states, None)
            return self.agent._lossfun(entropy=distribs.entropy(), vs_pred=vs_pred,
                                       log_probs=distribs.log_prob(actions), vs_pred_old=vs_pred_old,
                                       log_probs_old=log_probs_old, advs=advs, vs_teacher=vs_teacher)

    class TRPOLoss(nn.Module):
        """TRPO: ``_compute_gain`` of the policy, the KL it constrains, and the value function's
        MSE (``_update_vf``)."""

        def __init__(self, agent):
            super().__init__()
            self.policy, self.vf, self.normalizer = agent.policy, agent.vf, agent.obs_normalizer
            object.__setattr__(self, "agent", agent)

        def forward(self, states, actions, advs, log_prob_old, vs_teacher):
            states = self.normalizer(states, update=False)
            std_advs, mean_advs = torch.std_mean(advs, unbiased=False)
            advs = (advs - mean_advs) / (std_advs + 1e-8)
            action_distrib = self.policy(states)
            gain = self.agent._compute_gain(log_prob=action_distrib.log_prob(actions), log_prob_old=log_prob_old,
                                            entropy=action_distrib.entropy(), advs=advs)
            with torch.no_grad():
                action_distrib_old = self.policy(states)
            kl = torch.mean(torch.distributions.kl_divergence(action_distrib_old, action_distrib))
            vf_loss = F.mse_loss(self.vf(states), vs_teacher)
            return -gain + kl + vf_loss

    class A2CLoss(nn.Module):
        """A2C's ``update``: the bootstrap value, ``_compute_returns`` into the agent's storage,
        and the value / policy / entropy terms (without the optimizer step)."""

        def __init__(self, agent):
            super().__init__()
            self.model = agent.model
            object.__setattr__(self, "agent", agent)

        def forward(self, states, actions):
            agent = self.agent
            with torch.no_grad():
                _, next_value = self.model(states[-1])
                next_value = next_value[:, 0]
            agent._compute_returns(next_value)
            pout, values = self.model(states[:-1].reshape(-1, *agent.obs_shape))
            actions = actions.reshape(-1, *agent.action_shape)
            dist_entropy = pout.entropy().mean()
            action_log_probs = pout.log_prob(actions)
            values = values.reshape((agent.update_steps, agent.num_processes))
            action_log_probs = action_log_probs.reshape((agent.update_steps, agent.num_processes))
            advantages = agent.returns[:-1] - values
            value_loss = (advantages * advantages).mean()
            action_loss = -(advantages.detach() * action_log_probs).mean()
            return (value_loss * agent.v_loss_coef + action_loss * agent.pi_loss_coef
                    - dist_entropy * agent.entropy_coeff)

    class REINFORCELoss(nn.Module):
        """REINFORCE: ``_act_train``'s sample / log-prob / entropy per step of one episode, then
        ``accumulate_grad``'s ``-R * log_prob - beta * entropy`` (the returns, its reversed cumsum of
        the rewards, computed when the module is built)."""

        def __init__(self, agent, rewards):
            super().__init__()
            import numpy as np

            self.model = agent.model
            object.__setattr__(self, "agent", agent)
            self.returns = [float(r) for r in np.cumsum(list(reversed(rewards)))[::-1]]

        def forward(self, obs_seq):
            log_probs, entropies = [], []
            for t in range(obs_seq.shape[0]):
                distrib = self.model(obs_seq[t:t + 1])
                action = distrib.sample()
                log_probs.append(distrib.log_prob(action))
                entropies.append(distrib.entropy())
            losses = [-R * lp - self.agent.beta * ent for R, lp, ent in zip(self.returns, log_probs, entropies)]
            return torch.stack(losses).sum() / self.agent.batchsize

    class DDPGLoss(nn.Module):
        """DDPG's ``compute_critic_loss`` + ``compute_actor_loss`` on one batch."""

        def __init__(self, agent):
            super().__init__()
            self.model = agent.model
            object.__setattr__(self, "agent", agent)

        def forward(self, batch):
            return self.agent.compute_critic_loss(batch) + self.agent.compute_actor_loss(batch)

    class TD3Loss(nn.Module):
        """TD3's ``update_q_func`` (target policy smoothing, clipped double Q) and
        ``update_policy`` losses, without the optimizer steps."""

        def __init__(self, agent):
            super().__init__()
            self.policy, self.q_func1, self.q_func2 = agent.policy, agent.q_func1, agent.q_func2
            object.__setattr__(self, "agent", agent)

        def forward(self, batch):
            a = self.agent
            with torch.no_grad(), pfrl.utils.evaluating(a.target_policy), pfrl.utils.evaluating(
                    a.target_q_func1), pfrl.utils.evaluating(a.target_q_func2):
                next_actions = a.target_policy_smoothing_func(a.target_policy(batch["next_state"]).sample())
                next_q1 = a.target_q_func1((batch["next_state"], next_actions))
                next_q2 = a.target_q_func2((batch["next_state"], next_actions))
                next_q = torch.min(next_q1, next_q2)
                target_q = batch["reward"] + batch["discount"] * (1.0 - batch["is_state_terminal"]) * torch.flatten(
                    next_q)
            predict_q1 = torch.flatten(self.q_func1((batch["state"], batch["action"])))
            predict_q2 = torch.flatten(self.q_func2((batch["state"], batch["action"])))
            loss1 = F.mse_loss(target_q, predict_q1)
            loss2 = F.mse_loss(target_q, predict_q2)
            onpolicy_actions = self.policy(batch["state"]).rsample()
            q = self.q_func1((batch["state"], onpolicy_actions))
            return loss1 + loss2 - torch.mean(q)

    class SACLoss(nn.Module):
        """SAC's ``update_q_func``, ``update_policy_and_temperature`` and ``update_temperature``
        losses, without the optimizer steps (the temperature read through ``agent.temperature``)."""

        def __init__(self, agent):
            super().__init__()
            self.policy, self.q_func1, self.q_func2 = agent.policy, agent.q_func1, agent.q_func2
            self.temperature_holder = agent.temperature_holder
            object.__setattr__(self, "agent", agent)

        def forward(self, batch):
            a = self.agent
            with torch.no_grad(), pfrl.utils.evaluating(self.policy), pfrl.utils.evaluating(
                    a.target_q_func1), pfrl.utils.evaluating(a.target_q_func2):
                next_action_distrib = self.policy(batch["next_state"])
                next_actions = next_action_distrib.sample()
                next_log_prob = next_action_distrib.log_prob(next_actions)
                next_q1 = a.target_q_func1((batch["next_state"], next_actions))
                next_q2 = a.target_q_func2((batch["next_state"], next_actions))
                next_q = torch.min(next_q1, next_q2)
                entropy_term = a.temperature * next_log_prob[..., None]
                target_q = batch["reward"] + batch["discount"] * (1.0 - batch["is_state_terminal"]) * torch.flatten(
                    next_q - entropy_term)
            predict_q1 = torch.flatten(self.q_func1((batch["state"], batch["action"])))
            predict_q2 = torch.flatten(self.q_func2((batch["state"], batch["action"])))
            q_loss = 0.5 * F.mse_loss(target_q, predict_q1) + 0.5 * F.mse_loss(target_q, predict_q2)

            action_distrib = self.policy(batch["state"])
            actions = action_distrib.rsample()
            log_prob = action_distrib.log_prob(actions)
            q = torch.min(self.q_func1((batch["state"], actions)), self.q_func2((batch["state"], actions)))
            policy_loss = torch.mean(a.temperature * log_prob[..., None] - q)
            temperature_loss = -torch.mean(self.temperature_holder() * (log_prob.detach() + a.entropy_target))
            return q_loss + policy_loss + temperature_loss

    class ACERLoss(nn.Module):
        """ACER's on-policy update over ``t_max`` steps of one environment: ``_act_train``'s
        model and average-model calls per step, then ``compute_loss`` (trust region on)."""

        def __init__(self, agent, rewards):
            super().__init__()
            self.model = agent.model
            object.__setattr__(self, "agent", agent)
            self.rewards = rewards

        def forward(self, obs_seq):
            a = self.agent
            actions, values, action_values, distribs, avg_distribs = {}, {}, {}, {}, {}
            for t in range(obs_seq.shape[0]):
                statevar = obs_seq[t:t + 1]
                action_distrib, action_value, v = self.model(statevar)
                action_values[t], values[t], distribs[t] = action_value, v, action_distrib
                actions[t] = action_distrib.sample()[0]
                with torch.no_grad():
                    avg_distribs[t], _, _ = a.shared_average_model(statevar)
            return a.compute_loss(t_start=0, t_stop=obs_seq.shape[0], R=0.0, actions=actions,
                                  rewards=dict(enumerate(self.rewards)), values=values,
                                  action_values=action_values, action_distribs=distribs,
                                  action_distribs_mu=None, avg_action_distribs=avg_distribs)

    class ACERAct(nn.Module):
        """ACER's act: the policy's mode (``act_deterministically``), the greedy Q and the value."""

        def __init__(self, model):
            super().__init__()
            self.model = model

        def forward(self, x):
            action_distrib, action_value, v = self.model(x)
            action = mode_of_distribution(action_distrib)
            return action, action_value.evaluate_actions(action), v

    class QSA(nn.Module):
        """A state-action Q-function called on its two inputs."""

        def __init__(self, q):
            super().__init__()
            self.q = q

        def forward(self, state, action):
            return self.q(state, action)

    class Packed(nn.Module):
        """A recurrent module on sequences packed inside the forward (``pack_sequence``,
        unsorted), from no recurrent state: its outputs' data and the new state."""

        def __init__(self, rnn):
            super().__init__()
            self.rnn = rnn

        def forward(self, *seqs):
            packed = nn.utils.rnn.pack_sequence(list(seqs), enforce_sorted=False)
            out, rs = self.rnn(packed, None)
            if isinstance(out, tuple):
                return tuple(o.data for o in out), rs
            return out.data, rs

    class Normalize(nn.Module):
        """``EmpiricalNormalization``: learns the statistics in training (``update``), not in eval;
        a learned scale after it so a loss has a gradient."""

        def __init__(self, norm):
            super().__init__()
            self.norm = norm
            self.scale = nn.Parameter(torch.ones(()))

        def forward(self, x):
            return self.norm(x, update=self.training) * self.scale

    return {k: v for k, v in locals().items() if isinstance(v, type)}


# --- data ------------------------------------------------------------------------------------

def _rng():
    import numpy as np

    return np.random.RandomState(0)


def _obs(rng, kind):
    import numpy as np

    if kind == "frame":
        return rng.rand(*_FRAME).astype(np.float32)
    return rng.randn(_OBS).astype(np.float32)


def _action(rng, action):
    import numpy as np

    if action == "discrete":
        return int(rng.randint(_NA))
    return rng.uniform(-1, 1, size=action).astype(np.float32)


def _exp_batch(obs="vec", action="discrete", n_step=1, weights=False):
    """``batch_experiences`` over ``_B`` experiences of ``n_step`` transitions each."""
    import torch

    from pfrl.replay_buffer import batch_experiences

    rng = _rng()
    exps = []
    for i in range(_B):
        exp = []
        for j in range(n_step):
            exp.append(dict(state=_obs(rng, obs), action=_action(rng, action), reward=float(rng.randn()),
                            next_state=_obs(rng, obs), next_action=None,
                            is_state_terminal=bool(i == 1 and j == n_step - 1)))
        exps.append(exp)
    batch = batch_experiences(exps, torch.device("cpu"), lambda x: x, _GAMMA)
    if weights:
        batch["weights"] = torch.tensor([0.5, 1.0])
    return batch


def _recurrent_exp_batch(obs="frame", lengths=(3, 2)):
    """``batch_recurrent_experiences`` over episodes of ``lengths`` (sorted, longest first)."""
    import torch

    from pfrl.replay_buffer import batch_recurrent_experiences

    rng = _rng()
    episodes = []
    for n in lengths:
        ep = []
        for t in range(n):
            ep.append(dict(state=_obs(rng, obs), action=_action(rng, "discrete"), reward=float(rng.randn()),
                           next_state=_obs(rng, obs), next_action=None, is_state_terminal=t == n - 1,
                           recurrent_state=None, next_recurrent_state=None))
        episodes.append(ep)
    return batch_recurrent_experiences(episodes, torch.device("cpu"), lambda x: x, _GAMMA)


# --- the DQN family --------------------------------------------------------------------------

def _fc_q():
    import pfrl

    return pfrl.q_functions.FCStateQFunctionWithDiscreteAction(_OBS, _NA, n_hidden_channels=_H, n_hidden_layers=2)


def _fc_q_noisy():
    import pfrl

    q = _fc_q()
    pfrl.nn.to_factorized_noisy(q, sigma_scale=0.5)
    return q


def _distributional_fc_q():
    import pfrl

    return pfrl.q_functions.DistributionalFCStateQFunctionWithDiscreteAction(
        _OBS, _NA, 51, -10, 10, n_hidden_channels=_H, n_hidden_layers=2)


def _rainbow_q():
    import pfrl

    q = pfrl.q_functions.DistributionalDuelingDQN(_NA, 51, -10, 10)
    pfrl.nn.to_factorized_noisy(q, sigma_scale=0.5)
    return q


def _dueling_q():
    import pfrl

    return pfrl.q_functions.DuelingDQN(_NA)


def _atari_q(arch):
    def build():
        from torch import nn

        import pfrl
        from pfrl.initializers import init_chainer_default
        from pfrl.q_functions import DiscreteActionValueHead

        if arch == "nature":
            return nn.Sequential(pfrl.nn.LargeAtariCNN(), init_chainer_default(nn.Linear(512, _NA)),
                                 DiscreteActionValueHead())
        return nn.Sequential(pfrl.nn.SmallAtariCNN(), init_chainer_default(nn.Linear(256, _NA)),
                             DiscreteActionValueHead())

    return build


def _naf(n_dim_action):
    def build():
        import numpy as np
        from gym import spaces

        import pfrl

        space = spaces.Box(low=-np.ones(n_dim_action, np.float32), high=np.ones(n_dim_action, np.float32))
        return pfrl.q_functions.FCQuadraticStateQFunction(_OBS, n_dim_action, n_hidden_channels=_H,
                                                           n_hidden_layers=2, action_space=space)

    return build


def _drqn():
    from torch import nn

    import pfrl
    from pfrl.q_functions import DiscreteActionValueHead

    return pfrl.nn.RecurrentSequential(
        nn.Conv2d(4, 32, 8, stride=4), nn.ReLU(), nn.Conv2d(32, 64, 4, stride=2), nn.ReLU(),
        nn.Conv2d(64, 64, 3, stride=1), nn.Flatten(), nn.ReLU(), nn.LSTM(input_size=3136, hidden_size=_H),
        nn.Linear(_H, _NA), DiscreteActionValueHead())


def _iqn_q(recurrent=False):
    def build():
        from torch import nn

        import pfrl
        from pfrl.agents import iqn

        phi = nn.Sequential(iqn.CosineBasisLinear(32, _H), nn.ReLU())
        if recurrent:
            psi = pfrl.nn.RecurrentSequential(nn.Linear(_OBS, _H), nn.ReLU(),
                                              nn.RNN(num_layers=1, input_size=_H, hidden_size=_H))
            return iqn.RecurrentImplicitQuantileQFunction(psi=psi, phi=phi, f=nn.Linear(_H, _NA))
        psi = nn.Sequential(nn.Linear(_OBS, _H), nn.ReLU())
        return iqn.ImplicitQuantileQFunction(psi=psi, phi=phi, f=nn.Linear(_H, _NA))

    return build


def _dqn_agent(agent_cls, q, recurrent=False, **kwargs):
    import torch

    import pfrl

    agent = getattr(pfrl.agents, agent_cls)
    rbuf = pfrl.replay_buffers.EpisodicReplayBuffer(1000) if recurrent else pfrl.replay_buffers.ReplayBuffer(1000)
    return agent(q, torch.optim.Adam(q.parameters(), lr=1e-3), rbuf, gamma=_GAMMA,
                 explorer=pfrl.explorers.Greedy(), replay_start_size=10, minibatch_size=_B, target_update_interval=100,
                 recurrent=recurrent, **kwargs)


def _dqn(agent_cls, q_builder, obs="vec", action="discrete", n_step=1, weights=False, recurrent=False,
         iqn=False, **agent_kwargs):
    """Eval: the act on a batch of states; train: ``agent._compute_loss`` on an experience batch."""

    def make(mode):
        m = _modules()
        q = q_builder()
        if mode == "train":
            agent = _dqn_agent(agent_cls, q, recurrent=recurrent, **agent_kwargs)
            batch = _recurrent_exp_batch(obs) if recurrent else _exp_batch(obs, action, n_step, weights)
            return m["AgentLoss"](agent), (batch,), {}
        batch = _exp_batch(obs, action)
        if recurrent and iqn:
            return m["IQNAct"](q, recurrent=True), (batch["state"],), {}
        if iqn:
            return m["IQNAct"](q), (batch["state"],), {}
        return m["QAct"](q, recurrent=recurrent), (batch["state"],), {}

    return make


# --- policies --------------------------------------------------------------------------------

def _gaussian_head(var_type="diagonal"):
    import torch

    import pfrl

    if var_type == "diagonal":
        return pfrl.policies.GaussianHeadWithStateIndependentCovariance(
            action_size=_AD, var_type="diagonal", var_func=lambda x: torch.exp(2 * x), var_param_init=0)
    return pfrl.policies.GaussianHeadWithStateIndependentCovariance(action_size=_AD, var_type="spherical")


def _mujoco_actor_critic(var_type="diagonal"):
    """``train_ppo.py`` / ``train_trpo.py``: tanh MLPs, orthogonal init, a Gaussian head."""
    import torch
    from torch import nn

    policy = nn.Sequential(nn.Linear(_OBS, _H), nn.Tanh(), nn.Linear(_H, _H), nn.Tanh(), nn.Linear(_H, _AD),
                           _gaussian_head(var_type))
    vf = nn.Sequential(nn.Linear(_OBS, _H), nn.Tanh(), nn.Linear(_H, _H), nn.Tanh(), nn.Linear(_H, 1))
    for layer, gain in ((policy[0], 1), (policy[2], 1), (policy[4], 1e-2), (vf[0], 1), (vf[2], 1), (vf[4], 1)):
        nn.init.orthogonal_(layer.weight, gain=gain)
        nn.init.zeros_(layer.bias)
    return policy, vf


def _atari_actor_critic(large=False):
    """``train_ppo_ale.py`` (large) / ``train_a2c_ale.py`` (small): convs, ``Branched`` heads."""
    from torch import nn

    import pfrl
    from pfrl.policies import SoftmaxCategoricalHead

    if large:
        trunk = [nn.Conv2d(4, 32, 8, stride=4), nn.ReLU(), nn.Conv2d(32, 64, 4, stride=2), nn.ReLU(),
                 nn.Conv2d(64, 64, 3, stride=1), nn.ReLU(), nn.Flatten(), nn.Linear(3136, _H), nn.ReLU()]
    else:
        trunk = [nn.Conv2d(4, 16, 8, stride=4), nn.ReLU(), nn.Conv2d(16, 32, 4, stride=2), nn.ReLU(),
                 nn.Flatten(), nn.Linear(2592, _H), nn.ReLU()]
    return nn.Sequential(*trunk, pfrl.nn.Branched(nn.Sequential(nn.Linear(_H, _NA), SoftmaxCategoricalHead()),
                                                  nn.Linear(_H, 1)))


def _on_policy_batch(obs="vec", action="discrete", n=_B):
    import torch

    g = torch.Generator().manual_seed(0)
    states = torch.rand(n, *_FRAME, generator=g) if obs == "frame" else torch.randn(n, _OBS, generator=g)
    if action == "discrete":
        actions = torch.randint(_NA, (n,), generator=g)
    else:
        actions = torch.rand(n, _AD, generator=g) * 2 - 1
    advs = torch.randn(n, generator=g)
    log_probs_old = -torch.rand(n, generator=g)
    vs_pred_old = torch.randn(n, 1, generator=g)
    vs_teacher = torch.randn(n, 1, generator=g)
    return states, actions, advs, log_probs_old, vs_pred_old, vs_teacher


def _ppo(kind):
    def make(mode):
        import torch

        import pfrl

        m = _modules()
        normalizer = None
        clip_eps_vf = None
        if kind == "mujoco":
            policy, vf = _mujoco_actor_critic()
            model = pfrl.nn.Branched(policy, vf)
            normalizer = pfrl.nn.EmpiricalNormalization(_OBS, clip_threshold=5)
            obs, action = "vec", (_AD,)
        else:
            model = _atari_actor_critic(large=True)
            clip_eps_vf = 0.1
            obs, action = "frame", "discrete"
        agent = pfrl.agents.PPO(model, torch.optim.Adam(model.parameters(), lr=3e-4), obs_normalizer=normalizer,
                                update_interval=_B, minibatch_size=_B, epochs=1, clip_eps_vf=clip_eps_vf,
                                entropy_coef=0 if kind == "mujoco" else 0.01, standardize_advantages=True,
                                gamma=0.995, lambd=0.97)
        batch = _on_policy_batch(obs, "discrete" if action == "discrete" else "box")
        if mode == "train":
            return m["PPOLoss"](agent), batch, {}
        return m["PolicyAct"](model, normalizer=normalizer, branched=True), (batch[0],), {}

    return make


def _ppo_recurrent_model():
    """``test_ppo.py``'s recurrent discrete model."""
    import torch
    from torch import nn

    from pfrl.nn import RecurrentBranched, RecurrentSequential
    from pfrl.policies import SoftmaxCategoricalHead

    def weight_scale(layer, scale):
        with torch.no_grad():
            layer.weight.mul_(scale)
        return layer

    v = RecurrentSequential(nn.LSTM(num_layers=1, input_size=_OBS, hidden_size=_H),
                            weight_scale(nn.Linear(_H, 1), 1e-1))
    pi = RecurrentSequential(nn.LSTM(num_layers=1, input_size=_OBS, hidden_size=_H),
                             weight_scale(nn.Linear(_H, _NA), 1e-1), SoftmaxCategoricalHead())
    return RecurrentBranched(pi, v)


def _ppo_recurrent(mode):
    import torch

    import pfrl

    m = _modules()
    model = _ppo_recurrent_model()
    agent = pfrl.agents.PPO(model, torch.optim.Adam(model.parameters(), lr=1e-2), update_interval=5,
                            minibatch_size=2, epochs=1, recurrent=True, entropy_coef=1e-5,
                            act_deterministically=True, max_grad_norm=1.0)
    g = torch.Generator().manual_seed(0)
    if mode == "train":
        seqs = [torch.randn(3, _OBS, generator=g), torch.randn(2, _OBS, generator=g)]  # longest first
        n = 5
        args = (seqs, torch.randint(_NA, (n,), generator=g), torch.randn(n, generator=g),
                -torch.rand(n, generator=g), torch.randn(n, 1, generator=g), torch.randn(n, 1, generator=g))
        return m["RecurrentPPOLoss"](agent), args, {}
    return m["PolicyAct"](model, deterministic=True, branched=True, recurrent=True), (torch.randn(_B, _OBS, generator=g),), {}


def _trpo(mode):
    import torch

    import pfrl

    m = _modules()
    policy, vf = _mujoco_actor_critic()
    normalizer = pfrl.nn.EmpiricalNormalization(_OBS, clip_threshold=5)
    agent = pfrl.agents.TRPO(policy=policy, vf=vf, vf_optimizer=torch.optim.Adam(vf.parameters()),
                             obs_normalizer=normalizer, update_interval=_B, max_kl=0.01,
                             conjugate_gradient_max_iter=20, conjugate_gradient_damping=1e-1, gamma=0.995,
                             lambd=0.97, vf_epochs=5, entropy_coef=0)
    states, actions, advs, log_probs_old, _, vs_teacher = _on_policy_batch("vec", "box")
    if mode == "train":
        return m["TRPOLoss"](agent), (states, actions, advs, log_probs_old, vs_teacher), {}
    return m["PolicyAct"](policy, normalizer=normalizer), (states,), {}


def _a2c(kind):
    """A2C over ``update_steps=2`` steps of ``_B`` environments: ``train_a2c_ale.py`` (Atari,
    Softmax) or ``test_a2c.py``'s continuous model (spherical Gaussian) with GAE."""

    def make(mode):
        import torch

        import pfrl

        m = _modules()
        g = torch.Generator().manual_seed(0)
        steps = 2
        if kind == "atari":
            model = _atari_actor_critic()
            obs_shape, use_gae = _FRAME, False
            actions = torch.randint(_NA, (steps, _B), generator=g).float()
        else:
            policy, vf = _mujoco_actor_critic("spherical")
            model = pfrl.nn.Branched(policy, vf)
            obs_shape, use_gae = (_OBS,), True
            actions = torch.rand(steps, _B, _AD, generator=g) * 2 - 1
        states = torch.rand(steps + 1, _B, *obs_shape, generator=g)
        if mode == "eval":
            return m["PolicyAct"](model, branched=True), (states[0],), {}
        agent = pfrl.agents.A2C(model, torch.optim.RMSprop(model.parameters(), lr=7e-4), gamma=0.99,
                                num_processes=_B, update_steps=steps, use_gae=use_gae)
        agent._flush_storage(states[0].shape, actions[0])
        agent.rewards.copy_(torch.randn(steps, _B, generator=g))
        agent.masks[1, 1] = 0.0
        agent.value_preds.copy_(torch.randn(steps + 1, _B, generator=g))
        return m["A2CLoss"](agent), (states, actions), {}

    return make


def _reinforce(kind):
    """``train_reinforce_gym.py``: LeakyReLU MLP, a Softmax or fixed-covariance Gaussian head."""

    def make(mode):
        import torch
        from torch import nn

        import pfrl
        from pfrl.policies import GaussianHeadWithFixedCovariance, SoftmaxCategoricalHead

        m = _modules()
        head = [nn.Linear(_H, _NA), SoftmaxCategoricalHead()] if kind == "softmax" else [
            nn.Linear(_H, _AD), GaussianHeadWithFixedCovariance(0.3)]
        model = nn.Sequential(nn.Linear(_OBS, _H), nn.LeakyReLU(0.2), nn.Linear(_H, _H), nn.LeakyReLU(0.2), *head)
        g = torch.Generator().manual_seed(0)
        if mode == "eval":
            return m["PolicyAct"](model), (torch.randn(_B, _OBS, generator=g),), {}
        agent = pfrl.agents.REINFORCE(model, torch.optim.Adam(model.parameters(), lr=1e-3), beta=1e-4,
                                      batchsize=1, max_grad_norm=1.0)
        return m["REINFORCELoss"](agent, [0.0, 1.0, -0.5]), (torch.randn(3, _OBS, generator=g),), {}

    return make


def _continuous_batch():
    return _exp_batch("vec", (_AD,))


def _sac_policy():
    """``train_soft_actor_critic.py``'s policy: a tanh-squashed diagonal Gaussian."""
    import torch
    from torch import distributions, nn

    from pfrl.nn.lmbda import Lambda

    def squashed_diagonal_gaussian_head(x):
        assert x.shape[-1] == _AD * 2
        mean, log_scale = torch.chunk(x, 2, dim=1)
        log_scale = torch.clamp(log_scale, -20.0, 2.0)
        var = torch.exp(log_scale * 2)
        base_distribution = distributions.Independent(distributions.Normal(loc=mean, scale=torch.sqrt(var)), 1)
        return distributions.transformed_distribution.TransformedDistribution(
            base_distribution, [distributions.transforms.TanhTransform(cache_size=1)])

    policy = nn.Sequential(nn.Linear(_OBS, _H), nn.ReLU(), nn.Linear(_H, _H), nn.ReLU(), nn.Linear(_H, _AD * 2),
                           Lambda(squashed_diagonal_gaussian_head))
    for i in (0, 2, 4):
        torch.nn.init.xavier_uniform_(policy[i].weight)
    return policy


def _critic():
    """The examples' critic: ``ConcatObsAndAction`` then an MLP."""
    from torch import nn

    import pfrl

    return nn.Sequential(pfrl.nn.ConcatObsAndAction(), nn.Linear(_OBS + _AD, _H), nn.ReLU(), nn.Linear(_H, _H),
                         nn.ReLU(), nn.Linear(_H, 1))


def _sac(mode):
    import torch

    import pfrl

    m = _modules()
    policy = _sac_policy()
    batch = _continuous_batch()
    if mode == "eval":
        return m["PolicyAct"](policy, deterministic=True), (batch["state"],), {}
    q1, q2 = _critic(), _critic()
    agent = pfrl.agents.SoftActorCritic(
        policy, q1, q2, torch.optim.Adam(policy.parameters(), lr=3e-4), torch.optim.Adam(q1.parameters(), lr=3e-4),
        torch.optim.Adam(q2.parameters(), lr=3e-4), pfrl.replay_buffers.ReplayBuffer(1000), gamma=0.99,
        replay_start_size=10, minibatch_size=_B, entropy_target=-_AD, temperature_optimizer_lr=3e-4)
    return m["SACLoss"](agent), (batch,), {}


def _td3(mode):
    import torch
    from torch import nn

    import pfrl

    m = _modules()
    policy = nn.Sequential(nn.Linear(_OBS, _H), nn.ReLU(), nn.Linear(_H, _H), nn.ReLU(), nn.Linear(_H, _AD), nn.Tanh(),
                           pfrl.policies.DeterministicHead())
    batch = _continuous_batch()
    if mode == "eval":
        return m["PolicyAct"](policy), (batch["state"],), {}
    q1, q2 = _critic(), _critic()
    agent = pfrl.agents.TD3(
        policy, q1, q2, torch.optim.Adam(policy.parameters()), torch.optim.Adam(q1.parameters()),
        torch.optim.Adam(q2.parameters()), pfrl.replay_buffers.ReplayBuffer(1000), gamma=0.99,
        soft_update_tau=5e-3, explorer=pfrl.explorers.AdditiveGaussian(scale=0.1, low=-1, high=1),
        replay_start_size=10, minibatch_size=_B)
    return m["TD3Loss"](agent), (batch,), {}


def _ddpg(mode):
    import numpy as np
    import torch
    from torch import nn

    import pfrl
    from pfrl.nn import BoundByTanh
    from pfrl.policies import DeterministicHead

    m = _modules()
    low, high = -np.ones(_AD, np.float32), np.ones(_AD, np.float32)
    policy = nn.Sequential(nn.Linear(_OBS, _H), nn.ReLU(), nn.Linear(_H, _H), nn.ReLU(), nn.Linear(_H, _AD),
                           BoundByTanh(low=low, high=high), DeterministicHead())
    batch = _continuous_batch()
    if mode == "eval":
        return m["PolicyAct"](policy), (batch["state"],), {}
    q_func = _critic()
    agent = pfrl.agents.DDPG(
        policy, q_func, torch.optim.Adam(policy.parameters()), torch.optim.Adam(q_func.parameters()),
        pfrl.replay_buffers.ReplayBuffer(1000), gamma=0.99,
        explorer=pfrl.explorers.AdditiveGaussian(scale=0.1, low=low, high=high), replay_start_size=10,
        target_update_method="soft", target_update_interval=1, update_interval=1, soft_update_tau=5e-3,
        minibatch_size=_B)
    return m["DDPGLoss"](agent), (batch,), {}


def _acer(kind):
    """``test_acer.py``'s feed-forward models (hidden 16), the trust region on, ``t_max=2``."""

    def make(mode):
        import torch
        from torch import nn

        import pfrl
        from pfrl.agents import acer
        from pfrl.nn import ConcatObsAndAction
        from pfrl.policies import GaussianHeadWithDiagonalCovariance, SoftmaxCategoricalHead
        from pfrl.q_functions import DiscreteActionValueHead

        m = _modules()
        if kind == "discrete":
            head = acer.ACERDiscreteActionHead(
                pi=nn.Sequential(nn.Linear(_H, _NA), SoftmaxCategoricalHead()),
                q=nn.Sequential(nn.Linear(_H, _NA), DiscreteActionValueHead()))
        else:
            head = acer.ACERContinuousActionHead(
                pi=nn.Sequential(nn.Linear(_H, _AD * 2), GaussianHeadWithDiagonalCovariance()),
                v=nn.Sequential(nn.Linear(_H, 1)),
                adv=nn.Sequential(ConcatObsAndAction(), nn.Linear(_H + _AD, 1)))
        model = nn.Sequential(nn.Linear(_OBS, _H), nn.LeakyReLU(), head)
        g = torch.Generator().manual_seed(0)
        if mode == "eval":
            return m["ACERAct"](model), (torch.randn(_B, _OBS, generator=g),), {}
        opt = pfrl.optimizers.SharedRMSpropEpsInsideSqrt(model.parameters(), lr=1e-3, eps=1e-8, alpha=0.99)
        agent = acer.ACER(model, opt, replay_buffer=pfrl.replay_buffers.EpisodicReplayBuffer(10 ** 4), t_max=2,
                          gamma=0.5, beta=1e-5, n_times_replay=1, act_deterministically=True,
                          replay_start_size=100, use_trust_region=True)
        return m["ACERLoss"](agent, [1.0, 0.0]), (torch.randn(2, _OBS, generator=g),), {}

    return make


# --- plain modules ---------------------------------------------------------------------------

def _wrap(net, mode):
    return mean_loss_module()(net) if mode == "train" else net


def _saq(cls, **kwargs):
    """``test_state_action_q_function.py``: obs 5, action 3, 2 hidden layers of 2 (here 16)."""

    def make(mode):
        import torch
        import torch.nn.functional as F

        import pfrl

        q = getattr(pfrl.q_functions, cls)(n_dim_obs=5, n_dim_action=3, n_hidden_channels=_H, n_hidden_layers=2,
                                           nonlinearity=F.elu, **kwargs)
        g = torch.Generator().manual_seed(0)
        return _wrap(_modules()["QSA"](q), mode), (torch.randn(_B, 5, generator=g), torch.randn(_B, 3, generator=g)), {}

    return make


def _mlpbn(mode):
    import torch
    import torch.nn.functional as F

    import pfrl

    mlp = pfrl.nn.MLPBN(in_size=5, out_size=3, hidden_sizes=(7, 8), normalize_input=True, normalize_output=True,
                        nonlinearity=F.elu, last_wscale=1e-3)
    return _wrap(mlp, mode), (torch.rand(_B, 5),), {}


def _recurrent_sequential(mode):
    import torch
    from torch import nn

    from pfrl.nn import RecurrentSequential

    rseq = RecurrentSequential(nn.Linear(2, 3), nn.ELU(), nn.LSTM(num_layers=1, input_size=3, hidden_size=4),
                               nn.Linear(4, 5), nn.RNN(num_layers=1, input_size=5, hidden_size=6), nn.Tanh())
    seqs = (torch.rand(4, 2), torch.rand(1, 2), torch.rand(3, 2))
    return _wrap(_modules()["Packed"](rseq), mode), seqs, {}


def _recurrent_branched(mode):
    import torch
    from torch import nn

    from pfrl.nn import RecurrentBranched, RecurrentSequential

    par = RecurrentBranched(nn.LSTM(num_layers=1, input_size=2, hidden_size=3),
                            RecurrentSequential(nn.RNN(num_layers=1, input_size=2, hidden_size=4)),
                            RecurrentSequential(nn.Linear(2, 1)))
    seqs = (torch.rand(1, 2), torch.rand(3, 2))
    return _wrap(_modules()["Packed"](par), mode), seqs, {}


def _empirical_normalization(mode):
    import torch

    import pfrl

    norm = pfrl.nn.EmpiricalNormalization(10, until=20, clip_threshold=5)
    g = torch.Generator().manual_seed(0)
    norm(torch.randn(3, 10, generator=g) * 2 + 4)  # some statistics first, as the tests feed it
    return _wrap(_modules()["Normalize"](norm), mode), (torch.randn(_B, 10, generator=g) * 2 + 4,), {}


MODELS = {
    # --- the DQN family (eval: act; train: agent._compute_loss) ---
    "FCStateQFunction_DQN": _dqn("DQN", _fc_q),
    "FCStateQFunction_noisy_DoubleDQN_prioritized": _dqn("DoubleDQN", _fc_q_noisy, weights=True),
    "FCStateQFunction_PAL": _dqn("PAL", _fc_q),
    "FCStateQFunction_DPP": _dqn("DPP", _fc_q, eta=1.0),
    "DistributionalFCStateQFunction_CategoricalDQN": _dqn("CategoricalDQN", _distributional_fc_q),
    "DistributionalDuelingDQN_Rainbow": _dqn("CategoricalDoubleDQN", _rainbow_q, obs="frame", n_step=3, weights=True),
    "DuelingDQN_DoubleDQN": _dqn("DoubleDQN", _dueling_q, obs="frame"),
    "LargeAtariCNN_DQN_nature": _dqn("DQN", _atari_q("nature"), obs="frame", batch_accumulator="sum"),
    "SmallAtariCNN_DQN_nips": _dqn("DQN", _atari_q("nips"), obs="frame"),
    "FCQuadraticStateQFunction_NAF": _dqn("DQN", _naf(3), action=(3,)),
    "FCQuadraticStateQFunction_NAF_1d": _dqn("DQN", _naf(1), action=(1,)),
    "DRQN_RecurrentSequential_DoubleDQN": _dqn("DoubleDQN", _drqn, obs="frame", recurrent=True),
    "ImplicitQuantileQFunction_IQN": _dqn("IQN", _iqn_q(), iqn=True, quantile_thresholds_N=8,
                                          quantile_thresholds_N_prime=8, quantile_thresholds_K=4),
    "RecurrentImplicitQuantileQFunction_IQN": _dqn("IQN", _iqn_q(recurrent=True), recurrent=True, iqn=True, obs="vec",
                                                   quantile_thresholds_N=8, quantile_thresholds_N_prime=8,
                                                   quantile_thresholds_K=4),
    # --- policies and actor-critics ---
    "GaussianPolicy_PPO_EmpiricalNormalization": _ppo("mujoco"),
    "SoftmaxPolicy_PPO_atari_clip_vf": _ppo("atari"),
    "RecurrentBranched_PPO_recurrent": _ppo_recurrent,
    "GaussianPolicy_TRPO": _trpo,
    "SoftmaxPolicy_A2C_atari": _a2c("atari"),
    "SphericalGaussianPolicy_A2C_gae": _a2c("gaussian"),
    "SoftmaxPolicy_REINFORCE": _reinforce("softmax"),
    "FixedCovarianceGaussian_REINFORCE": _reinforce("gaussian"),
    "SquashedGaussian_SAC": _sac,
    "DeterministicHead_TD3": _td3,
    "BoundByTanh_DDPG": _ddpg,
    "ACERDiscreteActionHead": _acer("discrete"),
    "ACERContinuousActionHead": _acer("continuous"),
    # --- plain modules ---
    "FCSAQFunction": _saq("FCSAQFunction", last_wscale=1e-3),
    "FCBNSAQFunction": _saq("FCBNSAQFunction", normalize_input=True),
    "FCBNLateActionSAQFunction": _saq("FCBNLateActionSAQFunction"),
    "FCLateActionSAQFunction": _saq("FCLateActionSAQFunction"),
    "MLPBN": _mlpbn,
    "RecurrentSequential": _recurrent_sequential,
    "RecurrentBranched": _recurrent_branched,
    "EmpiricalNormalization": _empirical_normalization,
}
