"""torch-struct (harvardnlp pytorch-struct) 0.5: structured distributions over semirings, used
inside small user modules as its README, docs, examples and tests use them. Tiny (batch 3,
6 tokens, 4 tags, hidden 16), random weights, no download.

Each model is a user ``nn.Module`` that scores log-potentials with ``nn.Embedding`` /
``nn.Linear`` (an LSTM for the span parser, a biaffine scorer for the dependency parsers, the
examples' ``NeuralCFG`` for the grammar) and hands them to the library:

- ``LinearChainCRF``: a tagger (emission + transition) with ``argmax`` / ``from_parts`` decode and
  ``-log_prob(gold)`` (gold from ``LinearChain.to_parts``, once in the forward as bert-dep does);
  ``partition``, ``marginals``, ``lengths`` masking, ``entropy`` (regularised NLL), ``sample``
  (REINFORCE on ``log_prob`` of samples), ``kmax`` / ``topk``, ``kl`` / ``cross_entropy`` between two
  heads, ``max`` and ``count``, ``gumbel_crf`` (straight-through);
- ``HMM`` (transition / emission / init log-softmaxed): marginals, ``-partition``;
- ``SemiMarkovCRF``: segmenter ``-log_prob`` (gold from ``SemiMarkov.to_parts``) and argmax;
  lengths + marginals + entropy; samples;
- ``DependencyCRF`` (biaffine parser): ``-log_prob`` (``DepTree.to_parts``) and argmax; labeled arcs
  (B x N x N x L) partition / marginals; lengths + samples; ``multiroot=False`` entropy; ``topk``;
- ``NonProjectiveDependencyCRF``: ``log_prob`` / marginals (single root); multi-root with lengths;
- ``TreeCRF`` (LSTM span scores): ``-log_prob`` of a gold tree, argmax + ``from_parts``; the
  structured-VAE example's ``SelfCritical``-style loss (samples vs argmax reward, entropy bonus);
  lengths + marginals;
- ``SentCFG`` over the examples' ``NeuralCFG``: ``-partition`` / argmax; lengths + marginals;
- ``Autoregressive`` (an RNN ``AutoregressiveModel`` as ``test_ar2``): ``greedy_max`` and
  ``log_prob`` of a gold path, ``beam_topk``, ``sample`` / ``sample_without_replacement``,
  ``greedy_tempmax``; an LSTM state tuple;
- the semirings on the ``_Struct`` backends (as ``test_algorithms`` uses them): ``LinearChain``
  with ``SparseMaxSemiring``, ``CheckpointSemiring`` / ``CheckpointShardSemiring``, ``StdSemiring``,
  ``SampledSemiring`` / ``MultiSampledSemiring`` (``to_discrete``), ``KMaxSemiring`` on SemiMarkov,
  ``EntropySemiring`` / ``KLDivergenceSemiring`` / ``CrossEntropySemiring`` ``sum``, ``MaxSemiring``
  on ``DepTree`` (labeled) and ``LinearChain.hmm``.

Eval: the decode or quantity the user asks for. Train: the user's loss (NLL, negative partition,
REINFORCE, KL, ...) through the library, so the DP and its backward-by-autograd run; where a
model's forward has no loss of its own, ``mean_loss_module``.

    pip install --no-deps torch-struct==0.5

``torch_struct`` needs only torch; ``genbmm`` (CUDA kernels) is imported in ``try`` blocks and not
installed; ``torch_struct/test_algorithms.py`` (shipped in the wheel) imports hypothesis but is
never imported by the package. Nothing stubbed. ``torch_struct.networks`` / ``torch_struct.data``
(TreeLSTM, SpanLSTM, NeuralCFG, datasets) are not in the 0.5 wheel: the examples' ``NeuralCFG``
is copied here as user code.

Left out: ``AlignmentCRF`` (and ``Alignment``): in 0.5 its scan's ``merge`` builds
``genbmm.BandedMatrix`` unconditionally, so any alignment larger than 1 x 1 fails eagerly with
``NameError: name 'genbmm' is not defined`` without the CUDA-only ``genbmm`` extension (the repo's
alignment test is disabled, ``ignore_alignment``); ``NonProjectiveDependencyCRF.argmax`` / ``entropy`` / ``sample`` (not implemented in
0.5: ``pass`` / ``NotImplementedError``); ``CKY.to_networkx`` (networkx); ``genbmm`` banded
matrices (CUDA extension).

Notes: every user module's forward runs its body under ``torch.enable_grad()`` (``GradModule``):
torch-struct computes marginals, argmax and samples with ``torch.autograd.grad`` through the DP,
so an eval run under ``no_grad`` fails eagerly otherwise (``element 0 of tensors does not require
grad``); in train it is a no-op. The biaffine arc scores get ``.contiguous()`` (``DepTree`` views
them and fails eagerly on einsum's strided output). ``DependencyCRF.__init__`` sets ``multiroot`` on
the ``DepTree`` class itself (library behaviour, kept). ``SampledSemiring`` / ``KMaxSemiring``
marginals are 0/1 without a gradient, so those models return them multiplied by the potentials
(the structures' scores). 43 models, all built eagerly in both modes.
"""

import functools

PACKAGE = "torch_struct"
DISTRIBUTION = "torch-struct"

mean_loss_module = None  # adapter.mean_loss_module, set by ZooSuite

_B, _N, _C, _V, _H = 3, 6, 4, 20, 16
_K = 3  # semi-Markov max width
_L = 2  # dependency labels
_NT, _T = 3, 4  # grammar nonterminals / preterminals


def warm_up():
    import torch  # noqa: F401

    import torch_struct  # noqa: F401


# --- data ----------------------------------------------------------------------------------

def _words(n=_N):
    import torch

    return torch.randint(0, _V, (_B, n))


def _lengths(n=_N):
    import torch

    return torch.tensor([n, n - 2, n - 1])


def _tags(n=_N):
    import torch

    return torch.randint(0, _C, (_B, n))


# --- user modules --------------------------------------------------------------------------

@functools.cache
def _classes():
    import torch
    import torch.nn as nn
    import torch_struct
    from torch_struct import (
        HMM, Autoregressive, DependencyCRF, LinearChainCRF, NonProjectiveDependencyCRF,
        SemiMarkovCRF, SentCFG, TreeCRF,
    )

    class GradModule(nn.Module):
        """torch-struct computes marginals / argmax / samples by backprop through the DP
        (``torch.autograd.grad``): decode under ``enable_grad`` so it also works in an eval loop
        run under ``no_grad``."""

        def forward(self, *args, **kwargs):
            with torch.enable_grad():
                return self._forward(*args, **kwargs)

    class Encoder(nn.Module):
        def __init__(self):
            super().__init__()
            self.emb = nn.Embedding(_V, _H)
            self.proj = nn.Linear(_H, _H)

        def forward(self, words):
            return torch.tanh(self.proj(self.emb(words)))

    class ChainScorer(nn.Module):
        """Emission + transition potentials for a linear-chain CRF: (B, N-1, C, C)."""

        def __init__(self, C=_C):
            super().__init__()
            self.enc = Encoder()
            self.emit = nn.Linear(_H, C)
            self.trans = nn.Parameter(torch.randn(C, C) * 0.1)

        def forward(self, words):
            e = self.emit(self.enc(words))  # B x N x C
            pot = e[:, 1:, :, None] + self.trans[None, None]  # z_n, z_{n-1}
            pot = pot.clone()
            pot[:, 0] = pot[:, 0] + e[:, 0, None, :]
            return pot

    class CRFTagger(GradModule):
        """`what`: the distribution call the user makes."""

        def __init__(self, what, train_loss, with_lengths=False):
            super().__init__()
            self.scorer = ChainScorer()
            self.what, self.train_loss, self.with_lengths = what, train_loss, with_lengths

        def _forward(self, words, gold=None, lengths=None):
            pot = self.scorer(words)
            dist = LinearChainCRF(pot, lengths=lengths if self.with_lengths else None)
            w = self.what
            if not self.train_loss:
                if w == "argmax":
                    return dist.argmax
                if w == "decode":  # argmax to tag sequences
                    return dist.struct.from_parts(dist.argmax.long())[0]
                if w == "partition":
                    return dist.partition
                if w == "marginals":
                    return dist.marginals
                if w == "entropy":
                    return dist.entropy
                if w == "sample":
                    return dist.sample((3,))
                if w == "topk":
                    return dist.topk(2)
                if w == "max_count":
                    return dist.max, dist.count
                if w == "gumbel":
                    return dist.gumbel_crf(0.5)
                if w == "log_prob":
                    return dist.log_prob(gold)
                raise ValueError(w)
            if w == "to_parts":  # gold tags converted in the step
                event = dist.struct.to_parts(gold, _C, lengths=lengths).type_as(pot)
                return -dist.log_prob(event).mean()
            if w in ("argmax", "decode", "log_prob"):
                return -dist.log_prob(gold).mean()
            if w == "partition":
                return (dist.partition - dist.struct().score(pot, gold.type_as(pot))).mean()
            if w == "marginals":
                return -(dist.marginals * gold).sum(dim=(1, 2, 3)).mean()
            if w == "entropy":
                return (-dist.log_prob(gold) - 0.01 * dist.entropy).mean()
            if w == "sample":
                samples = dist.sample((3,))
                reward = samples.sum(dim=(2, 3, 4)) * 0.1
                return -(dist.log_prob(samples) * reward).mean()
            if w == "topk":
                return -dist.kmax(2).mean()
            if w == "max_count":
                return (dist.partition - dist.max).mean()
            if w == "gumbel":
                st = dist.gumbel_crf(0.5)
                return ((st - gold) ** 2).mean()
            raise ValueError(w)

    class TwoHeadKL(GradModule):
        """Two CRF heads (e.g. a teacher and a student) compared with kl / cross_entropy."""

        def __init__(self, train_loss):
            super().__init__()
            self.p, self.q = ChainScorer(), ChainScorer()
            self.train_loss = train_loss

        def _forward(self, words, lengths):
            p = LinearChainCRF(self.p(words), lengths=lengths)
            q = LinearChainCRF(self.q(words), lengths=lengths)
            if self.train_loss:
                return p.kl(q).mean()
            return p.kl(q), p.cross_entropy(q)

    class NeuralHMM(GradModule):
        def __init__(self, train_loss):
            super().__init__()
            self.trans = nn.Parameter(torch.randn(_C, _C))
            self.emit = nn.Parameter(torch.randn(_V, _C))
            self.init = nn.Parameter(torch.randn(_C))
            self.train_loss = train_loss

        def _forward(self, words):
            dist = HMM(self.trans.log_softmax(0), self.emit.log_softmax(0), self.init.log_softmax(0), words)
            if self.train_loss:
                return -dist.partition.mean()
            return dist.marginals

    class SemiScorer(nn.Module):
        def __init__(self):
            super().__init__()
            self.enc = Encoder()
            self.seg = nn.Linear(_H, _K * _C)
            self.trans = nn.Parameter(torch.randn(_C, _C) * 0.1)

        def forward(self, words):
            b, n = words.shape
            s = self.seg(self.enc(words))[:, 1:].view(b, n - 1, _K, _C)
            return s[..., :, None] + self.trans[None, None, None]  # B x N-1 x K x C x C

    class Segmenter(GradModule):
        def __init__(self, what, train_loss):
            super().__init__()
            self.scorer = SemiScorer()
            self.what, self.train_loss = what, train_loss

        def _forward(self, words, gold=None, lengths=None):
            dist = SemiMarkovCRF(self.scorer(words), lengths=lengths)
            w = self.what
            if w == "log_prob":
                if self.train_loss:
                    return -dist.log_prob(gold).mean()
                return dist.argmax
            if w == "marginals":
                if self.train_loss:
                    return (-(dist.marginals * gold).sum(dim=(1, 2, 3, 4)) - 0.01 * dist.entropy).mean()
                return dist.marginals, dist.entropy
            if w == "sample":
                samples = dist.sample((2,))
                if self.train_loss:
                    return -dist.log_prob(samples).mean()
                return samples
            raise ValueError(w)

    class Biaffine(nn.Module):
        """Arc scores with root scores on the diagonal: (B, N, N) or (B, N, N, L)."""

        def __init__(self, labels=None):
            super().__init__()
            self.enc = Encoder()
            self.head = nn.Linear(_H, _H)
            self.dep = nn.Linear(_H, _H)
            self.labels = labels
            self.W = nn.Parameter(torch.randn(labels or 1, _H, _H) * 0.1)

        def forward(self, words):
            x = self.enc(words)
            h, d = self.head(x), self.dep(x)
            s = torch.einsum("bih,lhk,bjk->bijl", h, self.W, d).contiguous()
            return s if self.labels else s.squeeze(-1).contiguous()

    class DepParser(GradModule):
        def __init__(self, what, train_loss, labels=None, multiroot=True, nonproj=False):
            super().__init__()
            self.scorer = Biaffine(labels)
            self.what, self.train_loss = what, train_loss
            self.multiroot, self.nonproj = multiroot, nonproj

        def _forward(self, words, gold=None, lengths=None):
            arcs = self.scorer(words)
            if self.nonproj:
                dist = NonProjectiveDependencyCRF(arcs, lengths=lengths, multiroot=self.multiroot)
            else:
                dist = DependencyCRF(arcs, lengths=lengths, multiroot=self.multiroot)
            w = self.what
            if w == "log_prob" and self.nonproj:  # no `struct` in 0.5: log_prob by hand
                log_prob = (arcs * gold).sum(dim=(1, 2)) - dist.partition
                if self.train_loss:
                    return -log_prob.mean()
                return log_prob, dist.marginals
            if w == "log_prob":
                if self.train_loss:
                    return -dist.log_prob(gold).mean()
                return dist.argmax
            if w == "labeled":
                if self.train_loss:
                    return (dist.partition - dist.log_potentials.mul(gold).sum(dim=(1, 2, 3))).mean()
                return dist.partition, dist.marginals
            if w == "sample":
                if self.train_loss:
                    samples = dist.sample((2,))
                    return -(dist.log_prob(samples).mean() + 0.1 * dist.marginals.sum(-1).mean())
                return dist.marginals, dist.sample((2,))
            if w == "entropy":
                if self.train_loss:
                    return (-dist.log_prob(gold) - 0.01 * dist.entropy).mean()
                return dist.entropy
            if w == "topk":
                if self.train_loss:
                    return -dist.kmax(2)[0].mean()
                return dist.topk(2)
            if w == "partition":  # nonprojective, lengths
                if self.train_loss:
                    return (dist.partition - (arcs * gold).sum(dim=(1, 2))).mean()
                return dist.partition, dist.marginals
            raise ValueError(w)

    class SpanScorer(nn.Module):
        """A SpanLSTM-style span scorer: (B, N, N, NT)."""

        def __init__(self):
            super().__init__()
            self.emb = nn.Embedding(_V, _H)
            self.lstm = nn.LSTM(_H, _H // 2, batch_first=True, bidirectional=True)
            self.out = nn.Linear(_H, _NT)

        def forward(self, words):
            x, _ = self.lstm(self.emb(words))
            spans = x[:, :, None, :] - x[:, None, :, :]  # i, j
            return self.out(torch.tanh(spans))

    class SpanParser(GradModule):
        def __init__(self, what, train_loss):
            super().__init__()
            self.scorer = SpanScorer()
            self.what, self.train_loss = what, train_loss

        def _forward(self, words, gold=None, lengths=None):
            dist = TreeCRF(self.scorer(words), lengths=lengths)
            w = self.what
            if w == "log_prob":
                if self.train_loss:
                    return -dist.log_prob(gold).mean()
                return dist.struct.from_parts(dist.argmax.detach())[0]
            if w == "self_critical":  # examples/tree.py: samples vs the argmax baseline
                samples = dist.sample((2,))
                argmax = dist.argmax.detach()
                reward = samples.sum(dim=(2, 3, 4)) - argmax.sum(dim=(1, 2, 3))[None]
                if self.train_loss:
                    obj = (dist.log_prob(samples) * reward.detach()).mean()
                    return -(obj + 0.001 * dist.entropy.div(lengths.float()).mean())
                return reward, dist.entropy
            if w == "marginals":
                if self.train_loss:
                    return -(dist.marginals * gold).sum(dim=(1, 2, 3)).mean()
                return dist.marginals
            raise ValueError(w)

    class Res(nn.Module):
        def __init__(self, H):
            super().__init__()
            self.u1, self.u2 = nn.Linear(H, H), nn.Linear(H, H)
            self.v1, self.v2 = nn.Linear(H, H), nn.Linear(H, H)
            self.w = nn.Linear(H, H)

        def forward(self, y):
            y = self.w(y)
            y = y + torch.relu(self.v1(torch.relu(self.u1(y))))
            return y + torch.relu(self.v2(torch.relu(self.u2(y))))

    class NeuralCFG(nn.Module):
        """examples/networks/NeuralCFG.py (Kim et al.), as in the Unsupervised_CFG notebook."""

        def __init__(self, V, T, NT, H):
            super().__init__()
            self.NT, self.V, self.T = NT, V, T
            self.word_emb = nn.Parameter(torch.Tensor(V, H))
            self.term_emb = nn.Parameter(torch.Tensor(T, H))
            self.nonterm_emb = nn.Parameter(torch.Tensor(NT, H))
            self.nonterm_emb_c = nn.Parameter(torch.Tensor(NT + T, NT + T, H))
            self.root_emb = nn.Parameter(torch.Tensor(NT, H))
            self.s_emb = nn.Parameter(torch.Tensor(1, H))
            self.mlp1, self.mlp2 = Res(H), Res(H)
            for p in self.parameters():
                if p.dim() > 1:
                    torch.nn.init.xavier_uniform_(p)

        def forward(self, input):
            T, NT = self.T, self.NT
            b, n = input.shape[:2]
            term_prob = (
                torch.einsum("vh,th->tv", self.word_emb, self.mlp1(self.term_emb))
                .log_softmax(-1).unsqueeze(0).unsqueeze(0).expand(b, n, self.T, self.V)
            )
            indices = input.unsqueeze(2).expand(b, n, self.T).unsqueeze(3)
            terms = torch.gather(term_prob, 3, indices).squeeze(3)
            rules = (
                torch.einsum("sh,tuh->stu", self.nonterm_emb, self.nonterm_emb_c)
                .view(NT, -1).log_softmax(-1).view(1, NT, NT + T, NT + T).expand(b, NT, NT + T, NT + T)
            )
            roots = (
                torch.einsum("ah,th->t", self.s_emb, self.mlp2(self.root_emb))
                .log_softmax(-1).view(1, NT).expand(b, NT)
            )
            return terms, rules, roots

    class GrammarInduction(GradModule):
        def __init__(self, what, train_loss):
            super().__init__()
            self.cfg = NeuralCFG(_V, _T, _NT, _H)
            self.what, self.train_loss = what, train_loss

        def _forward(self, words, lengths=None):
            params = self.cfg(words)
            dist = SentCFG(params, lengths=lengths)
            if self.what == "partition":
                if self.train_loss:
                    return -dist.partition.mean()
                return dist.argmax
            if self.what == "marginals":
                if self.train_loss:
                    return -dist.partition.sum() / lengths.sum()
                return dist.marginals
            raise ValueError(self.what)

    def t(a):
        return tuple(s.transpose(0, 1) for s in a)

    class AR(torch_struct.AutoregressiveModel):
        """test_ar2's RNN decoder (an LSTM with `lstm=True`)."""

        def __init__(self, lstm=False, sparse=True, C=_C):
            super().__init__()
            self.sparse, self.C = sparse, C
            self.rnn = (nn.LSTM if lstm else nn.RNN)(_H, _H, batch_first=True)
            self.proj = nn.Linear(_H, C)
            self.embed = nn.Embedding(C, _H) if sparse else nn.Linear(C, _H)
            self.lstm = lstm

        def forward(self, inputs, state):
            if not self.sparse and inputs.dim() == 2:
                inputs = torch.nn.functional.one_hot(inputs, self.C).float()
            inputs = self.embed(inputs)
            if self.lstm:
                out, state = self.rnn(inputs, t(state))
                return self.proj(out), t(state)
            out, state = self.rnn(inputs, t(state)[0])
            return self.proj(out), t((state,))

    class Generator(GradModule):
        """A conditional decoder: an encoder gives the initial state, Autoregressive decodes."""

        def __init__(self, what, train_loss, lstm=False, sparse=True, normalize=True):
            super().__init__()
            self.enc = Encoder()
            self.model = AR(lstm=lstm, sparse=sparse)
            self.what, self.train_loss, self.lstm, self.normalize = what, train_loss, lstm, normalize

        def _forward(self, src, gold=None):
            h = self.enc(src).mean(1)[:, None, :]  # B x layer x H
            init = (h, torch.zeros_like(h)) if self.lstm else (h,)
            dist = Autoregressive(self.model, init, _C, _N, normalize=self.normalize)
            w = self.what
            if w == "greedy":
                if self.train_loss:
                    return -dist.log_prob(gold).mean()
                path, score, logits = dist.greedy_max()
                return path, score
            if w == "beam":
                if self.train_loss:
                    return -dist._beam_max(3).mean()
                return dist.beam_topk(3)
            if w == "sample":
                if self.train_loss:
                    samples = dist.sample((2,))
                    return -dist.log_prob(samples).mean()
                return dist.sample_without_replacement((2,))
            if w == "tempmax":
                path, score, logits = dist.greedy_tempmax(1.0)
                if self.train_loss:
                    return -(path * logits.log_softmax(-1)).sum(dim=(1, 2)).mean()
                return path
            raise ValueError(w)

    class SemiringSum(GradModule):
        """A `_Struct` backend run with a semiring, as test_algorithms does (`what`: the call)."""

        def __init__(self, struct, semiring, what, scorer, two=False):
            super().__init__()
            self.struct, self.semiring, self.what, self.scorer = struct, semiring, what, scorer
            self.scorer2 = ChainScorer() if two else None

        def _forward(self, words):
            pot = self.scorer(words)
            s = self.struct(self.semiring)
            if self.what == "sum":
                return s.sum(pot)
            if self.what == "sum2":
                return s.sum([pot, self.scorer2(words)])
            if self.what == "marginals":
                return s.marginals(pot)
            if self.what == "sum_raw":
                return s.sum(pot, _raw=True)
            if self.what == "marginals_raw":  # k-best structures, scored
                return s.marginals(pot, _raw=True) * pot[None]
            if self.what == "sample":  # a sampled structure, scored
                return s.marginals(pot) * pot
            if self.what == "multisample":
                m = s.marginals(pot)
                return torch.stack([self.semiring.to_discrete(m, k) for k in (1, 2, 3)]) * pot[None]
            if self.what == "score":  # max == score of the argmax
                m = s.marginals(pot)
                return s.sum(pot) - s.score(pot, m)
            raise ValueError(self.what)

    class HMMChain(GradModule):
        """LinearChain.hmm then the DP's sum, as test_hmm."""

        def __init__(self):
            super().__init__()
            self.trans = nn.Parameter(torch.rand(_C, _C))
            self.emit = nn.Parameter(torch.rand(_V, _C))
            self.init = nn.Parameter(torch.rand(_C))

        def _forward(self, obs):
            out = torch_struct.LinearChain.hmm(self.trans, self.emit, self.init, obs)
            return torch_struct.LinearChain().sum(out)

    return {k: v for k, v in locals().items() if isinstance(v, type) or callable(v)}


# --- factories -----------------------------------------------------------------------------

def _gold_chain(n=_N, lengths=None):
    from torch_struct import LinearChain

    return LinearChain.to_parts(_tags(n), _C, lengths=lengths).float()


def _crf(what, with_lengths=False, inline_parts=False):
    def make(mode):
        train = mode == "train"
        net = _classes()["CRFTagger"]("to_parts" if (inline_parts and train) else what, train, with_lengths)
        words = _words()
        lengths = _lengths() if with_lengths else None
        if inline_parts and train:
            gold = _tags()
        else:
            gold = _gold_chain(lengths=lengths)
        if not train and what not in ("log_prob",):
            return net, (words,), ({"lengths": lengths} if with_lengths else {})
        return net, (words, gold), ({"lengths": lengths} if with_lengths else {})

    return make


def _two_head_kl(mode):
    return _classes()["TwoHeadKL"](mode == "train"), (_words(), _lengths()), {}


def _hmm(mode):
    return _classes()["NeuralHMM"](mode == "train"), (_words(),), {}


def _semi(what, with_lengths=False):
    def make(mode):
        import torch
        from torch_struct import SemiMarkov

        train = mode == "train"
        net = _classes()["Segmenter"](what, train)
        seq = torch.full((_B, _N), -1, dtype=torch.long)
        seq[:, 0], seq[:, 2], seq[:, 3] = 1, 0, 2  # segments of width 2, 1, 3
        gold = SemiMarkov.to_parts(seq, (_C, _K)).float()
        kw = {"lengths": torch.tensor([_N, _N, _N])} if with_lengths else {}
        if not train or what == "sample":
            return net, (_words(),), kw
        return net, (_words(), gold), kw

    return make


def _dep(what, labels=None, multiroot=True, nonproj=False, with_lengths=False):
    def make(mode):
        import torch
        from torch_struct import DepTree

        train = mode == "train"
        net = _classes()["DepParser"](what, train, labels=labels, multiroot=multiroot, nonproj=nonproj)
        heads = torch.tensor([[2, 0, 2, 3, 4, 4], [0, 1, 2, 3, 1, 5], [3, 1, 0, 3, 6, 4]])  # 0: root
        lengths = _lengths() if with_lengths else None
        gold = DepTree.to_parts(heads, lengths=lengths).float()
        if labels:
            gold = gold[..., None] * torch.nn.functional.one_hot(torch.arange(_N) % labels, labels)[None, None]
        kw = {"lengths": lengths} if with_lengths else {}
        needs_gold = (what in ("log_prob", "labeled", "entropy", "partition")) if train else (
            what == "log_prob" and nonproj)
        return net, ((_words(), gold) if needs_gold else (_words(),)), kw

    return make


def _tree(what, with_lengths=False):
    def make(mode):
        import torch
        from torch_struct import TreeCRF

        train = mode == "train"
        net = _classes()["SpanParser"](what, train)
        lengths = _lengths() if (with_lengths or what == "self_critical") else None
        gold = TreeCRF(torch.randn(_B, _N, _N, _NT), lengths=lengths).argmax.detach()
        kw = {"lengths": lengths} if lengths is not None else {}
        if not train or what == "self_critical":
            return net, (_words(),), kw
        return net, (_words(), gold), kw

    return make


def _cfg(what):
    def make(mode):
        net = _classes()["GrammarInduction"](what, mode == "train")
        kw = {"lengths": _lengths()} if what == "marginals" else {}
        return net, (_words(),), kw

    return make


def _ar(what, lstm=False, sparse=True, normalize=True):
    def make(mode):
        import torch

        train = mode == "train"
        net = _classes()["Generator"](what, train, lstm=lstm, sparse=sparse, normalize=normalize)
        if train and what == "greedy":
            gold = torch.randint(0, _C, (1, _B, _N))
            return net, (_words(), torch.nn.functional.one_hot(gold, _C)), {}
        return net, (_words(),), {}

    return make


def _semiring(struct, semiring, what, scorer="chain", two=False, wrap=True):
    def make(mode):
        import torch_struct

        c = _classes()
        sc = {"chain": lambda: c["ChainScorer"](), "semi": lambda: c["SemiScorer"](),
              "dep": lambda: c["Biaffine"](), "dep_labeled": lambda: c["Biaffine"](_L)}[scorer]()
        sr = semiring(torch_struct)
        net = c["SemiringSum"](getattr(torch_struct, struct), sr, what, sc, two)
        if mode == "train":
            net = mean_loss_module()(net)
        return net, (_words(),), {}

    return make


def _hmm_chain(mode):
    net = _classes()["HMMChain"]()
    if mode == "train":
        net = mean_loss_module()(net)
    return net, (_words(),), {}


def _sr(name, *args):
    return lambda ts: getattr(ts, name)(*args) if args else getattr(ts, name)


MODELS = {
    # LinearChainCRF
    "LinearChainCRF_argmax": _crf("argmax"),
    "LinearChainCRF_decode_to_parts": _crf("decode", inline_parts=True),
    "LinearChainCRF_log_prob_lengths": _crf("log_prob", with_lengths=True),
    "LinearChainCRF_partition": _crf("partition"),
    "LinearChainCRF_marginals": _crf("marginals", with_lengths=True),
    "LinearChainCRF_entropy": _crf("entropy"),
    "LinearChainCRF_sample": _crf("sample"),
    "LinearChainCRF_topk": _crf("topk"),
    "LinearChainCRF_max_count": _crf("max_count"),
    "LinearChainCRF_gumbel": _crf("gumbel"),
    "LinearChainCRF_kl": _two_head_kl,
    "HMM": _hmm,
    # SemiMarkovCRF
    "SemiMarkovCRF_log_prob": _semi("log_prob"),
    "SemiMarkovCRF_marginals_entropy": _semi("marginals", with_lengths=True),
    "SemiMarkovCRF_sample": _semi("sample"),
    # DependencyCRF / NonProjectiveDependencyCRF
    "DependencyCRF_log_prob": _dep("log_prob"),
    "DependencyCRF_labeled": _dep("labeled", labels=_L),
    "DependencyCRF_sample_lengths": _dep("sample", with_lengths=True),
    "DependencyCRF_singleroot_entropy": _dep("entropy", multiroot=False),
    "DependencyCRF_topk": _dep("topk"),
    "NonProjectiveDependencyCRF": _dep("log_prob", multiroot=False, nonproj=True),
    "NonProjectiveDependencyCRF_multiroot_lengths": _dep("partition", nonproj=True, with_lengths=True),
    # TreeCRF / SentCFG
    "TreeCRF_log_prob": _tree("log_prob"),
    "TreeCRF_self_critical": _tree("self_critical"),
    "TreeCRF_marginals_lengths": _tree("marginals", with_lengths=True),
    "SentCFG_NeuralCFG": _cfg("partition"),
    "SentCFG_marginals_lengths": _cfg("marginals"),
    # Autoregressive
    "Autoregressive_greedy": _ar("greedy"),
    "Autoregressive_beam_lstm": _ar("beam", lstm=True),
    "Autoregressive_sample": _ar("sample", normalize=True),
    "Autoregressive_tempmax_dense": _ar("tempmax", sparse=False, normalize=False),
    # semirings on the DP backends
    "LinearChain_SparseMax": _semiring("LinearChain", _sr("SparseMaxSemiring"), "marginals"),
    "LinearChain_Checkpoint": _semiring("LinearChain", lambda ts: ts.CheckpointSemiring(ts.LogSemiring, 1), "marginals"),
    "LinearChain_CheckpointShard": _semiring("LinearChain", lambda ts: ts.CheckpointShardSemiring(ts.LogSemiring, 1), "sum"),
    "LinearChain_Std": _semiring("LinearChain", _sr("StdSemiring"), "sum"),
    "LinearChain_Sampled": _semiring("LinearChain", _sr("SampledSemiring"), "sample"),
    "LinearChain_MultiSampled": _semiring("LinearChain", _sr("MultiSampledSemiring"), "multisample"),
    "LinearChain_KLDivergence": _semiring("LinearChain", _sr("KLDivergenceSemiring"), "sum2", two=True),
    "LinearChain_CrossEntropy": _semiring("LinearChain", _sr("CrossEntropySemiring"), "sum2", two=True),
    "SemiMarkov_KMax": _semiring("SemiMarkov", _sr("KMaxSemiring", 2), "marginals_raw", scorer="semi"),
    "SemiMarkov_Entropy": _semiring("SemiMarkov", _sr("EntropySemiring"), "sum", scorer="semi"),
    "DepTree_Max_labeled": _semiring("DepTree", _sr("MaxSemiring"), "score", scorer="dep_labeled"),
    "LinearChain_hmm": _hmm_chain,
}
