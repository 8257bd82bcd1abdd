"""ElegantRL 0.3.6: the actor / critic / Q networks of ``elegantrl.agents.net`` and the agents of
``elegantrl.agents`` (DQN, DoubleDQN, DuelingDQN, D3QN, DDPG, TD3, SAC, ModSAC, PPO, DiscretePPO, A2C,
DiscreteA2C), built as the README's ``agent = AgentXXX(net_dims, state_dim, action_dim, gpu_id, args)``
with a ``Config`` of tiny sizes (a 5-d state, 3 actions, ``net_dims=[16, 16]``, batch 4, a 16-step
horizon), on the CPU (``gpu_id=-1``), random weights, no environment, no download:

- the networks' ``forward`` and each method the agents call: ``QNet`` / ``QNetDuel`` / ``QNetTwin`` /
  ``QNetTwinDuel`` (``forward``, ``get_q1_q2``, the epsilon-greedy / softmax-sampled ``get_action``),
  ``Actor`` (``forward``, ``get_action``, ``get_action_noise``), ``ActorSAC`` / ``ActorFixSAC``
  (``forward``, ``get_action``, ``get_action_logprob``), ``ActorPPO`` / ``ActorDiscretePPO`` (``forward``,
  ``get_action``, ``get_logprob_entropy``), ``Critic``, ``CriticTwin`` (``forward``, ``get_q_min``,
  ``get_q1_q2``), ``CriticPPO``, and the utility encoders ``DenseNet`` and ``ConvNet`` (112x112 uint8
  frames, channel-last, as its ``check()`` feeds it);
- the agents: eval runs one step of the exploration loop's tensor part (``explore_vec_env``: the
  actor's ``get_action`` on a batch of states, then ``convert_action_for_env`` for PPO / A2C); train
  runs one gradient step's objectives of ``update_net`` as the library writes them, without the
  ``.item()`` logging, the optimizer steps and ``soft_update`` (outside the loss): off-policy agents
  take a ``ReplayBuffer`` filled through ``buffer.update`` and run the ``no_grad`` head of
  ``update_net`` (``get_cumulative_rewards`` and ``update_avg_std_for_normalization`` on
  ``buffer.add_item``), then ``agent.get_obj_critic(buffer, batch_size)`` (the library's own sampling
  and critic loss; ``get_obj_critic_per`` with ``if_use_per=True``: the ``SumTree`` prioritized
  sampling and ``td_error_update_for_per``), then the actor's objective (DDPG / TD3 through
  ``cri_target``; SAC / ModSAC's ``alpha_log`` objective, the ``alpha_log`` clamp under ``no_grad`` and
  the entropy-regularised actor objective); on-policy agents take the rollout ``(states, actions,
  logprobs, rewards, undones)`` of ``explore_vec_env``'s shapes and run ``update_net``'s ``no_grad``
  head (critic values, ``get_advantages`` (GAE, or V-trace with ``if_use_v_trace``), advantage
  normalisation, ``update_avg_std_for_normalization``) and one minibatch: the random ``ids`` sampling,
  the critic's SmoothL1 loss, ``get_logprob_entropy`` and the clipped surrogate (PPO) or the plain
  policy gradient (A2C). ``state_value_tau=0.01`` in one variant each, so that the running state /
  value normalisation is updated (the default 0 returns early). Critic and actor objectives are
  summed into one scalar (``obj_critic - obj_actor``).

    pip install --no-deps elegantrl==0.3.6

``elegantrl``'s declared dependencies are torch, numpy, gym and matplotlib; the agents and networks
import only torch and numpy (``train/config.py`` imports ``gym`` inside ``build_env`` only; nothing
imports matplotlib at the top), and numpy was already installed. Nothing stubbed, nothing else
installed (gym 0.26.2 happened to be installed already; it is not imported here).

Left out: ``AgentREDQ``, ``AgentVMPO``, ``AgentMAPPO``, ``AgentQMix``, ``AgentVDN`` (they import
names that 0.3.6's ``agents/net.py`` no longer has, ``CriticREDQ``, ``ActorMAPPO``, ``QMix``, ``VDN``,
or a top-level ``util`` module: ImportError), ``AgentMADDPG`` / ``AgentMATD3`` (written for the old
``AgentBase()`` / ``init()`` API: they call ``AgentBase.__init__()`` without arguments and an undefined
``AgentDDPG``); ``train_agent`` / ``Evaluator`` / ``explore_one_env`` (environment loops: numpy on
both sides); the ``envs`` package (environments, not models); ``optimizer_update`` /
``optimizer_update_amp`` / ``soft_update`` (outside the loss).
Notes: ``AgentBase`` takes ``gpu_id=-1`` for the CPU. The ReplayBuffer tensors are made with
``torch.empty``: they are zeroed once after construction so that ``sample_for_per``'s
``states[ids0 + 1]`` (one past the filled part) reads zeros, not uninitialised memory. The PER buffer
is 40 long with 16 steps in it: ``SumTree`` propagates a priority up ``depth - 2`` levels only, so
with a power-of-two length (16, 32, 64) the root keeps 0 and ``important_sampling``'s
``assert 0 <= indices.min()`` fails eagerly; 40 (and 33, 48, 100) reach it; and a full buffer lets
``sample_for_per`` index one past the end.
Measured first as it came, before any rule looked at it.
"""

import functools

PACKAGE = "elegantrl"

mean_loss_module = None  # adapter.mean_loss_module, set by ZooSuite
_B = 4  # batch of states / minibatch
_S = 5  # state_dim
_A = 3  # action_dim (continuous) or number of discrete actions
_DIMS = [16, 16]  # net_dims
_T = 16  # horizon_len of a rollout / steps put in the replay buffer
_ENVS = 2  # num_envs of the on-policy rollout


def warm_up():
    import elegantrl  # noqa: F401
    import elegantrl.agents  # noqa: F401
    import elegantrl.agents.net  # noqa: F401
    import torch  # noqa: F401


# --- the user-side modules -------------------------------------------------------------------

@functools.cache
def _mods():
    import types

    import torch
    from torch import nn

    class Method(nn.Module):
        """``net.<name>(...)``: a network method the agents call."""

        def __init__(self, net, name):
            super().__init__()
            self.net = net
            self.name = name

        def forward(self, *args):
            return getattr(self.net, self.name)(*args)

    class Explore(nn.Module):
        """One step of ``explore_vec_env``'s tensor part: the actor's ``get_action`` on the states."""

        def __init__(self, agent, on_policy):
            super().__init__()
            self.act = agent.act
            self.on_policy = on_policy

        def forward(self, state):
            if self.on_policy:
                action, logprob = self.act.get_action(state)
                return self.act.convert_action_for_env(action), action, logprob
            return self.act.get_action(state).detach()

    class OffPolicyStep(nn.Module):
        """One gradient step of ``update_net`` (``kind``: dqn, ddpg, td3, sac) on a ReplayBuffer."""

        def __init__(self, agent, kind):
            super().__init__()
            self.act, self.cri = agent.act, agent.cri
            self.act_target, self.cri_target = agent.act_target, agent.cri_target
            self.agent = types.SimpleNamespace(agent=agent)  # not a module: keep it out of the tree
            self.kind = kind

        def forward(self, buffer):
            agent = self.agent.agent
            with torch.no_grad():
                states, actions, rewards, undones = buffer.add_item
                agent.update_avg_std_for_normalization(
                    states=states.reshape((-1, agent.state_dim)),
                    returns=agent.get_cumulative_rewards(rewards=rewards, undones=undones).reshape((-1,))
                )

            obj_critic, state = agent.get_obj_critic(buffer, agent.batch_size)
            if self.kind == "dqn":
                return obj_critic
            if self.kind in ("ddpg", "td3"):
                action_pg = agent.act(state)  # policy gradient
                obj_actor = agent.cri_target(state, action_pg).mean()  # use cri_target is more stable than cri
                return obj_critic - obj_actor
            # sac
            action_pg, log_prob = agent.act.get_action_logprob(state)  # policy gradient
            obj_alpha = (agent.alpha_log * (agent.target_entropy - log_prob).detach()).mean()
            alpha = agent.alpha_log.exp().detach()
            with torch.no_grad():
                agent.alpha_log[:] = agent.alpha_log.clamp(-16, 2)
            q_value_pg = agent.cri_target(state, action_pg).mean()
            obj_actor = (q_value_pg - log_prob * alpha).mean()
            return obj_critic + obj_alpha - obj_actor

    class OnPolicyStep(nn.Module):
        """``update_net`` of PPO / A2C: the ``no_grad`` head and one minibatch's objectives."""

        def __init__(self, agent, kind):
            super().__init__()
            self.act, self.cri = agent.act, agent.cri
            self.agent = types.SimpleNamespace(agent=agent)
            self.kind = kind

        def forward(self, states, actions, logprobs, rewards, undones):
            agent = self.agent.agent
            with torch.no_grad():
                buffer_size = states.shape[0]
                buffer_num = states.shape[1]

                '''get advantages and reward_sums'''
                bs = 2 ** 10  # set a smaller 'batch_size' to avoiding out of GPU memory.
                values = torch.empty_like(rewards)  # values.shape == (buffer_size, buffer_num)
                for i in range(0, buffer_size, bs):
                    for j in range(buffer_num):
                        values[i:i + bs, j] = agent.cri(states[i:i + bs, j])

                advantages = agent.get_advantages(rewards, undones, values)  # shape == (buffer_size, buffer_num)
                reward_sums = advantages + values  # shape == (buffer_size, buffer_num)
                del rewards, undones, values

                if self.kind == "a2c":
                    advantages = (advantages - advantages.mean()) / (advantages.std(dim=0) + 1e-5)
                else:
                    advantages = (advantages - advantages.mean()) / (advantages.std(dim=0) + 1e-4)
                if self.kind == "ppo":
                    agent.update_avg_std_for_normalization(
                        states=states.reshape((-1, agent.state_dim)),
                        returns=reward_sums.reshape((-1,))
                    )

            sample_len = buffer_size - 1
            ids = torch.randint(sample_len * buffer_num, size=(agent.batch_size,), requires_grad=False)
            ids0 = torch.fmod(ids, sample_len)  # ids % sample_len
            ids1 = torch.div(ids, sample_len, rounding_mode='floor')  # ids // sample_len

            state = states[ids0, ids1]
            action = actions[ids0, ids1]
            logprob = logprobs[ids0, ids1]
            advantage = advantages[ids0, ids1]
            reward_sum = reward_sums[ids0, ids1]

            value = agent.cri(state)  # critic network predicts the reward_sum (Q value) of state
            obj_critic = agent.criterion(value, reward_sum)

            new_logprob, obj_entropy = agent.act.get_logprob_entropy(state, action)
            if self.kind == "a2c":
                obj_actor = (advantage * new_logprob).mean()  # obj_actor without Trust Region
                return obj_critic - obj_actor
            ratio = (new_logprob - logprob.detach()).exp()
            surrogate1 = advantage * ratio
            surrogate2 = advantage * ratio.clamp(1 - agent.ratio_clip, 1 + agent.ratio_clip)
            obj_surrogate = torch.min(surrogate1, surrogate2).mean()
            obj_actor = obj_surrogate + obj_entropy.mean() * agent.lambda_entropy
            return obj_critic - obj_actor

    return types.SimpleNamespace(Method=Method, Explore=Explore, OffPolicyStep=OffPolicyStep,
                                 OnPolicyStep=OnPolicyStep)


# --- the networks ----------------------------------------------------------------------------

def _states(n=_B):
    import torch

    return torch.randn(n, _S)


def _net(cls_name, method="forward", inputs="state", loss=True):
    """``elegantrl.agents.net.<cls_name>(net_dims, state_dim, action_dim)`` and one of its methods;
    train: ``mean_loss_module`` over the float outputs (``loss=False``: integer actions only, the
    method as it is, with gradients on)."""

    def make(mode):
        import torch
        from elegantrl.agents import net as erl_net

        net = getattr(erl_net, cls_name)(_DIMS, _S, _A)
        fn = net if method == "forward" else _mods().Method(net, method)
        if inputs == "state":
            args = (_states(),)
        elif inputs == "state_action":  # a critic's (state, action in [-1, 1])
            args = (_states(), torch.rand(_B, _A) * 2 - 1)
        elif inputs == "state_noise":  # get_action_noise(state, action_std)
            args = (_states(), 0.1)
        elif inputs == "state_cont_action":  # ActorPPO: the raw (pre-tanh) action of get_action
            args = (_states(), torch.randn(_B, _A))
        elif inputs == "state_disc_action":  # ActorDiscretePPO: (B, 1) int actions as the rollout keeps them
            args = (_states(), torch.randint(0, _A, (_B, 1)))
        else:
            raise ValueError(inputs)
        if mode == "train" and loss:
            fn = mean_loss_module()(fn)
        return fn, args, {}

    return make


def _dense_net(mode):
    import torch
    from elegantrl.agents.net import DenseNet

    net = DenseNet(8)
    return (mean_loss_module()(net) if mode == "train" else net), (torch.randn(_B, 8),), {}


def _conv_net(mode):
    import torch
    from elegantrl.agents.net import ConvNet

    net = ConvNet(inp_dim=3, out_dim=16, image_size=112)
    image = torch.randint(0, 256, (2, 112, 112, 3), dtype=torch.uint8)
    return (mean_loss_module()(net) if mode == "train" else net), (image,), {}


# --- the agents ------------------------------------------------------------------------------

def _config(agent_class, **kwargs):
    from elegantrl.train.config import Config

    args = Config(agent_class=agent_class, env_args={
        'env_name': 'Tiny', 'num_envs': 1, 'max_step': 100, 'state_dim': _S, 'action_dim': _A,
        'if_discrete': False})
    args.net_dims = tuple(_DIMS)
    args.batch_size = _B
    args.horizon_len = _T
    args.repeat_times = 1.0
    for k, v in kwargs.items():
        setattr(args, k, v)
    return args


def _agent(name, **cfg):
    import elegantrl.agents as agents

    agent_class = getattr(agents, name)
    args = _config(agent_class, **cfg)
    agent = agent_class(list(_DIMS), _S, _A, gpu_id=-1, args=args)
    return agent, args


def _replay_buffer(agent, args, discrete):
    import torch
    from elegantrl.train.replay_buffer import ReplayBuffer

    per = bool(getattr(args, 'if_use_per', False))
    action_dim = 1 if discrete else _A
    buffer = ReplayBuffer(max_size=40 if per else _T, state_dim=_S, action_dim=action_dim, gpu_id=-1,
                          num_envs=1, if_use_per=per, args=args)
    for t in (buffer.states, buffer.actions, buffer.rewards, buffer.undones):
        t.zero_()
    states = torch.randn(_T, 1, _S)
    if discrete:
        actions = torch.randint(0, _A, (_T, 1, 1)).float()
    else:
        actions = torch.rand(_T, 1, _A) * 2 - 1
    rewards = torch.randn(_T, 1)
    undones = 1.0 - (torch.rand(_T, 1) < 0.1).float()
    buffer.update((states, actions, rewards, undones))
    agent.last_state = torch.randn(1, _S)
    return buffer


def _off_policy(name, kind, discrete=False, **cfg):
    def make(mode):
        agent, args = _agent(name, **cfg)
        if mode == "eval":
            return _mods().Explore(agent, on_policy=False), (_states(),), {}
        buffer = _replay_buffer(agent, args, discrete)
        return _mods().OffPolicyStep(agent, kind), (buffer,), {}

    return make


def _on_policy(name, kind, discrete=False, **cfg):
    def make(mode):
        import torch

        agent, args = _agent(name, **cfg)
        agent.num_envs = _ENVS
        if mode == "eval":
            return _mods().Explore(agent, on_policy=True), (_states(),), {}
        agent.last_state = torch.randn(_ENVS, _S)
        states = torch.randn(_T, _ENVS, _S)
        if discrete:  # explore_vec_env of AgentDiscretePPO: (T, envs, 1) float actions after unsqueeze
            actions = torch.randint(0, _A, (_T, _ENVS, 1)).float()
        else:
            actions = torch.randn(_T, _ENVS, _A)
        logprobs = torch.randn(_T, _ENVS) * 0.1 - 1.0
        rewards = torch.randn(_T, _ENVS)
        undones = 1.0 - (torch.rand(_T, _ENVS) < 0.1).float()
        return _mods().OnPolicyStep(agent, kind), (states, actions, logprobs, rewards, undones), {}

    return make


MODELS = {
    # DQN family networks
    "QNet": _net("QNet"),
    "QNet_get_action": _net("QNet", "get_action", loss=False),
    "QNetDuel": _net("QNetDuel"),
    "QNetDuel_get_action": _net("QNetDuel", "get_action", loss=False),
    "QNetTwin": _net("QNetTwin"),
    "QNetTwin_get_q1_q2": _net("QNetTwin", "get_q1_q2"),
    "QNetTwin_get_action": _net("QNetTwin", "get_action", loss=False),
    "QNetTwinDuel": _net("QNetTwinDuel"),
    "QNetTwinDuel_get_q1_q2": _net("QNetTwinDuel", "get_q1_q2"),
    "QNetTwinDuel_get_action": _net("QNetTwinDuel", "get_action", loss=False),
    # actors
    "Actor": _net("Actor"),
    "Actor_get_action": _net("Actor", "get_action"),
    "Actor_get_action_noise": _net("Actor", "get_action_noise", inputs="state_noise"),
    "ActorSAC": _net("ActorSAC"),
    "ActorSAC_get_action": _net("ActorSAC", "get_action"),
    "ActorSAC_get_action_logprob": _net("ActorSAC", "get_action_logprob"),
    "ActorFixSAC_get_action_logprob": _net("ActorFixSAC", "get_action_logprob"),
    "ActorPPO": _net("ActorPPO"),
    "ActorPPO_get_action": _net("ActorPPO", "get_action"),
    "ActorPPO_get_logprob_entropy": _net("ActorPPO", "get_logprob_entropy", inputs="state_cont_action"),
    "ActorDiscretePPO": _net("ActorDiscretePPO", loss=False),
    "ActorDiscretePPO_get_action": _net("ActorDiscretePPO", "get_action"),
    "ActorDiscretePPO_get_logprob_entropy": _net("ActorDiscretePPO", "get_logprob_entropy",
                                                 inputs="state_disc_action"),
    # critics
    "Critic": _net("Critic", inputs="state_action"),
    "CriticTwin": _net("CriticTwin", inputs="state_action"),
    "CriticTwin_get_q_min": _net("CriticTwin", "get_q_min", inputs="state_action"),
    "CriticTwin_get_q1_q2": _net("CriticTwin", "get_q1_q2", inputs="state_action"),
    "CriticPPO": _net("CriticPPO"),
    # utility encoders
    "DenseNet": _dense_net,
    "ConvNet": _conv_net,
    # off-policy agents: eval explores, train runs update_net's objectives on a ReplayBuffer
    "AgentDQN": _off_policy("AgentDQN", "dqn", discrete=True),
    "AgentDQN_PER": _off_policy("AgentDQN", "dqn", discrete=True, if_use_per=True),
    "AgentDoubleDQN": _off_policy("AgentDoubleDQN", "dqn", discrete=True),
    "AgentDuelingDQN": _off_policy("AgentDuelingDQN", "dqn", discrete=True, state_value_tau=0.01),
    "AgentD3QN": _off_policy("AgentD3QN", "dqn", discrete=True),
    "AgentD3QN_PER": _off_policy("AgentD3QN", "dqn", discrete=True, if_use_per=True),
    "AgentDDPG": _off_policy("AgentDDPG", "ddpg"),
    "AgentDDPG_PER": _off_policy("AgentDDPG", "ddpg", if_use_per=True),
    "AgentTD3": _off_policy("AgentTD3", "td3", state_value_tau=0.01),
    "AgentSAC": _off_policy("AgentSAC", "sac"),
    "AgentSAC_PER": _off_policy("AgentSAC", "sac", if_use_per=True),
    "AgentModSAC": _off_policy("AgentModSAC", "sac"),
    # on-policy agents: eval explores, train runs update_net on a rollout
    "AgentPPO": _on_policy("AgentPPO", "ppo"),
    "AgentPPO_vtrace_state_norm": _on_policy("AgentPPO", "ppo", if_use_v_trace=True, state_value_tau=0.01),
    "AgentDiscretePPO": _on_policy("AgentDiscretePPO", "ppo", discrete=True),
    "AgentA2C": _on_policy("AgentA2C", "a2c"),
    "AgentDiscreteA2C": _on_policy("AgentDiscreteA2C", "a2c", discrete=True),
}
