"""torch-hd 5.8.4 (``torchhd``): hyperdimensional computing / vector symbolic architectures, used
as its README, docs and examples use it; tiny (4 samples, 8 features, 3 classes, 256-d
hypervectors; 64-d for the block-code VSAs), random item memories, no download:

- functional ops on each VSA model (MAP, BSC, HRR, FHRR, BSBC, VTB, MCR, CGR): ``random``,
  ``bind`` / ``bundle`` / ``permute`` / ``inverse`` / ``negative``, ``hash_table``, ``multiset``,
  ``multibind``, ``bundle_sequence`` / ``bind_sequence``, ``ngrams``, ``graph``, ``cross_product``,
  ``cleanup``, ``resonator``, ``randsel`` / ``multirandsel``, ``hard_quantize`` /
  ``soft_quantize`` / ``normalize``, ``cosine`` / ``dot`` / ``hamming_similarity``, the
  ``level`` / ``thermometer`` / ``circular`` basis builders, ``map_range`` / ``value_to_index`` /
  ``index_to_value``, ``ridge_regression``; the ``structures`` (``HashTable``, ``Multiset``,
  ``BundleSequence``, ``Graph``, ``FiniteStateAutomata``) as the docs' examples use them;
- ``embeddings``: ``Random`` (+ ``ngrams``, the language-recognition example), ``Level`` (the
  VoiceHD / MNIST example: ``hash_table(keys, levels(x))``, also FHRR with ``randomness``),
  ``Thermometer``, ``Circular``, ``Projection``, ``Sinusoid``, ``Density``, ``FractionalPower``
  (sinc and gaussian kernels, FHRR), ``Empty`` / ``Identity``, ``Level`` on BSC;
- ``models``: ``Centroid`` (cosine and, after ``normalize()``, ``dot=True``), ``IntRVFL``;
- ``classifiers``: ``Vanilla``, ``AdaptHD``, ``OnlineHD``, ``NeuralHD``, ``DistHD``, ``LeHDC``,
  ``CompHD``, ``SparseHD``, ``QuantHD``, ``IntRVFL`` (``predict`` in eval after one ``fit``, ``fit``
  in train, on a one-batch list ``[(x, y)]`` as the data loader: 16 samples, random labels,
  ``epochs=2``, NeuralHD ``epochs=3`` and NeuralHD / DistHD ``regen_freq=1`` so that the
  dimension regeneration runs);
- ``memory``: ``SparseDistributed`` and ``Hopfield`` (``read`` / ``write``), ``hopfield``,
  ``modern_hopfield``, ``attention``.

Eval: the encoder then the classifier / similarity, as a user's inference runs it. Train: the
library's own update step where it has one: the encoder then ``Centroid.add`` / ``add_online``
/ ``add_adapt`` (returning the updated prototypes), ``IntRVFL.fit_ridge_regression``, the
classifiers' ``fit``, the memories' ``write`` then ``read``. The bare functional ops and
structures have no training step: ``mean_loss_module`` over their float outputs (similarities).
Measured as it came, before any rule looked at it.

    pip install --no-deps torch-hd==5.8.4

(installed from the downloaded wheel torch_hd-5.8.4-py3-none-any.whl). Its declared
dependencies scipy 1.17.1, pandas 3.0.6, numpy 2.4.6, requests 2.34.2 and tqdm 4.70.1 were
already installed; openpyxl is only used by ``pandas.read_excel`` inside ``torchhd.datasets``
(downloads, not used here) and is not installed. Nothing stubbed.

Left out: ``torchhd.datasets`` (downloads); ``utils.plot_*`` (matplotlib); ``Tree`` and
``Memory`` structures (Python lists of keys, a dict-like store); ``Classifier.accuracy``
(a ``.item()`` counting loop over a loader, the same ``predict`` as eval); ``FractionalPower``
with ``vsa="HRR"`` into a ``Centroid``: fails eagerly (``HRRTensor.cosine_similarity`` against
the Centroid's plain weight, seen as a ``MAPTensor``: ``HRRTensor * MAPTensor`` raises
TypeError), and ``dot=True`` fails in ``matmul`` dispatch the same way.
Notes: the eval ``Centroid`` pipelines get their prototypes from one ``add`` at build time;
the functional models keep their item memories as buffers of an ``Op`` module (a user's
function of tensors); the BSC / BSBC / MCR / CGR similarities are returned as plain float
tensors (``as_subclass(torch.Tensor)``) so ``mean_loss_module`` can stack them; VTB binds
need equal shapes (keys ``expand``-ed, VTB does not broadcast). DistHD's ``regen_score``
returns the int 0 when every sample is already right (then ``torch.topk(0)`` raises eagerly):
hence random labels on 16 samples.
"""

PACKAGE = "torchhd"
DISTRIBUTION = "torch-hd"

mean_loss_module = None  # adapter.mean_loss_module, set by ZooSuite
_B, _F, _C, _D = 4, 8, 3, 256
_BLOCK_D, _BLOCK = 64, 8  # BSBC / MCR / CGR: 64 dims, block size 8


def warm_up():
    import torch  # noqa: F401
    import torchhd  # noqa: F401
    import torchhd.classifiers  # noqa: F401
    import torchhd.memory  # noqa: F401


def _nn():
    import torch

    return torch.nn


def _labels():
    import torch

    return torch.arange(_B) % _C


def _x():
    import torch

    return torch.rand(_B, _F)


class _Lazy:
    """Module classes built on first use (torch is imported inside the factories only)."""


def _op_module():
    import torch

    class Op(torch.nn.Module):
        """A user's function of tensors (a functional-op pipeline) as a module."""

        def __init__(self, fn, **tensors):
            super().__init__()
            self.fn = fn
            for k, v in tensors.items():
                self.register_buffer(k, v)

        def forward(self, *args):
            return self.fn(self, *args)

    return Op


def _functional(fn, inputs, mode, **tensors):
    net = _op_module()(fn, **tensors)
    if mode == "train":
        net = mean_loss_module()(net)
    return net, inputs, {}


def _centroid_pipeline(encoder, mode, inputs, *, dims=_D, update="add", dtype=None, dot=False):
    """An encoder and a ``Centroid``: eval = similarities, train = one update step."""
    import torch
    from torchhd.models import Centroid

    class HDClassifier(torch.nn.Module):
        def __init__(self):
            super().__init__()
            self.encoder = encoder
            self.model = Centroid(dims, _C, dtype=dtype)
            if mode == "eval":  # a trained model: prototypes from a first pass
                with torch.no_grad():
                    self.model.add(self.encode(*inputs), _labels())

        def encode(self, *xs):
            return self.encoder(*xs)

        def forward(self, *xs):
            return self.model(self.encode(*xs), dot=dot)

    class HDTrainStep(HDClassifier):
        def forward(self, *xs):
            y = xs[-1]
            getattr(self.model, update)(self.encode(*xs[:-1]), y)
            return self.model.weight.clone()

    if mode == "eval":
        return HDClassifier(), inputs, {}
    return HDTrainStep(), (*inputs, _labels()), {}


# --- functional ops across VSA models ------------------------------------------------------

def _bind_bundle(vsa):
    def make(mode):
        import torch
        import torchhd

        kw = {"block_size": _BLOCK} if vsa in ("BSBC", "MCR", "CGR") else {}
        d = _BLOCK_D if kw else _D
        keys = torchhd.random(_F, d, vsa, **kw)
        memory = torchhd.random(_C, d, vsa, **kw)
        values = torchhd.random(_B * _F, d, vsa, **kw).view(_B, _F, d)

        def fn(self, values):
            k, m = self.keys, self.memory
            pairs = torchhd.bind(k.expand(values.shape) if vsa == "VTB" else k, values)  # (B, F, d)
            record = torchhd.multiset(pairs)  # (B, d)
            two = torchhd.bundle(record, torchhd.permute(record, shifts=1))
            k0 = torchhd.inverse(k[0])
            unbound = torchhd.bind(record, k0.expand(record.shape) if vsa == "VTB" else k0)
            sim = torchhd.cosine_similarity(two, m) if vsa != "BSC" else torchhd.hamming_similarity(two, m).float()
            return sim.as_subclass(torch.Tensor), torchhd.dot_similarity(unbound, k).float().as_subclass(torch.Tensor)

        return _functional(fn, (values,), mode, keys=keys, memory=memory)

    return make


def _hash_table_cleanup(mode):
    import torch
    import torchhd

    keys = torchhd.random(_F, _D)
    memory = torchhd.random(10, _D)
    idx = torch.randint(0, 10, (_B, _F))

    def fn(self, idx):
        values = torchhd.MAPTensor(self.memory)[idx]
        record = torchhd.hash_table(torchhd.MAPTensor(self.keys), values)
        value0 = torchhd.bind(record, torchhd.MAPTensor(self.keys)[0].inverse())
        clean = torchhd.cleanup(value0[0], torchhd.MAPTensor(self.memory))
        return torchhd.cosine_similarity(value0, self.memory), clean

    return _functional(fn, (idx,), mode, keys=keys, memory=memory)


def _sequences(mode):
    import torchhd

    def fn(self, seq):
        bun = torchhd.bundle_sequence(seq)
        bnd = torchhd.bind_sequence(seq)
        tri = torchhd.ngrams(seq, n=3)
        s1 = torchhd.cosine_similarity(torchhd.permute(bun, shifts=-1), seq)
        s2 = torchhd.cosine_similarity(tri, bnd)
        return s1, s2

    return _functional(fn, (torchhd.random(6, _D),), mode)


def _graph_ops(mode):
    import torch
    import torchhd

    nodes = torchhd.random(6, _D)
    edges = torch.tensor([[0, 1, 2, 3, 4], [1, 2, 3, 4, 5]])

    def fn(self, edges):
        n = torchhd.MAPTensor(self.nodes)
        e = torch.stack((n[edges[0]], n[edges[1]]), dim=-2)
        g = torchhd.graph(e, directed=True)
        und = torchhd.graph(e)
        cp = torchhd.cross_product(n[:3], n[3:])
        neigh = torchhd.bind(g, torchhd.permute(n[1]).inverse())
        return torchhd.cosine_similarity(neigh, n), torchhd.cosine_similarity(und, cp)

    return _functional(fn, (edges,), mode, nodes=nodes)


def _bsc_random_select(mode):
    import torch
    import torchhd

    def fn(self, hv):
        a = torchhd.randsel(hv[0], hv[1], p=0.3)
        b = torchhd.multirandsel(hv)
        m = torchhd.multiset(hv)
        mb = torchhd.multibind(hv)
        return torchhd.hamming_similarity(torch.stack((a, b, m, mb)), hv).float()

    return _functional(fn, (torchhd.random(5, _D, "BSC"),), mode)


def _resonator(mode):
    import torch
    import torchhd

    X, Y, Z = torchhd.random(5, _D), torchhd.random(5, _D), torchhd.random(5, _D)
    domains = torch.stack((X, Y, Z), dim=0)

    def fn(self, s):
        est = torchhd.multiset(self.domains.as_subclass(torchhd.MAPTensor))
        for _ in range(3):
            est = torchhd.resonator(s, est, self.domains.as_subclass(torchhd.MAPTensor))
        return torchhd.cosine_similarity(est.unsqueeze(-2), self.domains).squeeze(-2)

    s = X[0].bind(Y[1]).bind(Z[2])
    return _functional(fn, (s,), mode, domains=domains)


def _hrr_algebra(mode):
    import torchhd

    def fn(self, a, b):
        c = torchhd.bind(a, b)
        b2 = torchhd.bind(c, torchhd.inverse(a))
        n = torchhd.normalize(torchhd.bundle(c, torchhd.negative(a)))
        return (torchhd.cosine_similarity(b2, b), torchhd.dot_similarity(n, a),
                torchhd.soft_quantize(n), torchhd.hard_quantize(n))

    return _functional(fn, (torchhd.random(_B, _D, "HRR"), torchhd.random(_B, _D, "HRR")), mode)


def _basis_and_ranges(mode):
    import torch
    import torchhd

    def fn(self, x):
        lv = torchhd.level(10, _D)
        th = torchhd.thermometer(10, _D)
        ci = torchhd.circular(10, _D)
        idx = torchhd.value_to_index(x, 0.0, 1.0, 10)
        back = torchhd.index_to_value(idx, 10, 0.0, 1.0)
        scaled = torchhd.map_range(x, 0.0, 1.0, -1.0, 1.0)
        hv = torchhd.hash_table(th[: _F], lv[idx]) + torchhd.multiset(ci[idx])
        return torchhd.cosine_similarity(hv, lv), back, scaled

    return _functional(fn, (torch.rand(_B, _F),), mode)


def _ridge_regression(mode):
    import torch
    import torchhd

    def fn(self, samples, targets):
        w = torchhd.ridge_regression(samples, targets, alpha=1.0)
        return samples @ w.T

    return _functional(fn, (torch.randn(16, 32), torch.randn(16, _C)), mode)


def _structures_hash_multiset(mode):
    import torchhd
    from torchhd import structures

    def fn(self, keys, values):
        h = structures.HashTable(_D)
        for i in range(keys.size(0)):
            h.add(keys[i], values[i])
        got = h.get(keys[0])
        m = structures.Multiset.from_tensor(values)
        m.remove(values[1])
        return torchhd.cosine_similarity(got, values), m.contains(values[0])

    return _functional(fn, (torchhd.random(4, _D), torchhd.random(4, _D)), mode)


def _structures_sequence_graph(mode):
    import torch
    import torchhd
    from torchhd import structures

    def fn(self, letters):
        seq = structures.BundleSequence(_D)
        for i in range(letters.size(0)):
            seq.append(letters[i])
        bs = structures.BindSequence.from_tensor(letters)
        g = structures.Graph(_D, directed=True)
        g.add_edge(letters[0], letters[1])
        g.add_edge(letters[1], letters[2])
        neigh = g.node_neighbors(letters[1])
        return (torchhd.cosine_similarity(seq[2], letters), g.contains(g.encode_edge(letters[0], letters[1])),
                torchhd.cosine_similarity(neigh, letters), torchhd.cosine_similarity(bs.value, letters))

    return _functional(fn, (torchhd.random(5, _D),), mode)


def _structures_fsa(mode):
    import torchhd
    from torchhd import structures

    def fn(self, states, actions):
        fsa = structures.FiniteStateAutomata(_D)
        fsa.add_transition(actions[0], states[0], states[1])
        fsa.add_transition(actions[1], states[1], states[2])
        nxt = fsa.transition(states[1], actions[1])
        return torchhd.cosine_similarity(nxt, states)

    return _functional(fn, (torchhd.random(3, _D), torchhd.random(2, _D)), mode)


# --- embeddings: encoder + Centroid ---------------------------------------------------------

def _keys_levels_encoder(vsa="MAP", levels_cls="Level", **kw):
    import torch
    from torchhd import embeddings, functional

    class KeysLevels(torch.nn.Module):  # the VoiceHD / MNIST / classifiers encoder
        def __init__(self):
            super().__init__()
            self.keys = embeddings.Random(_F, _D, vsa)
            self.levels = getattr(embeddings, levels_cls)(10, _D, vsa, **kw)

        def forward(self, x):
            hv = functional.hash_table(self.keys.weight, self.levels(x))
            return hv.sign() if vsa == "MAP" else hv

    return KeysLevels()


def _emb_level(mode):
    return _centroid_pipeline(_keys_levels_encoder(), mode, (_x(),))


def _emb_level_fhrr(mode):
    import torch

    enc = _keys_levels_encoder("FHRR", randomness=0.5)
    return _centroid_pipeline(enc, mode, (_x(),), dtype=torch.complex64)


def _emb_level_bsc(mode):
    import torch
    import torchhd
    from torchhd import embeddings

    class BSCEncoder(torch.nn.Module):
        def __init__(self):
            super().__init__()
            self.keys = embeddings.Random(_F, _D, "BSC")
            self.levels = embeddings.Level(10, _D, "BSC")

        def forward(self, x):
            return torchhd.multiset(torchhd.bind(self.keys.weight, self.levels(x)))

    enc = BSCEncoder()
    if mode == "eval":
        memory = torchhd.random(_C, _D, "BSC")
        return _op_module()(lambda self, x: torchhd.hamming_similarity(enc(x), self.memory), memory=memory), (_x(),), {}
    return mean_loss_module()(_op_module()(lambda self, x: torchhd.hard_quantize(enc(x).float() - _F / 2))), (_x(),), {}


def _emb_thermometer(mode):
    return _centroid_pipeline(_keys_levels_encoder(levels_cls="Thermometer"), mode, (_x(),))


def _emb_circular(mode):
    import math
    import torch
    from torchhd import embeddings, functional

    class Angles(torch.nn.Module):
        def __init__(self):
            super().__init__()
            self.keys = embeddings.Random(_F, _D)
            self.angle = embeddings.Circular(12, _D, phase=0.0, period=2 * math.pi)

        def forward(self, theta):
            return functional.hash_table(self.keys.weight, self.angle(theta))

    return _centroid_pipeline(Angles(), mode, (torch.rand(_B, _F) * 2 * math.pi,), update="add_online")


def _emb_random_ngrams(mode):
    import torch
    from torchhd import embeddings, functional

    class Language(torch.nn.Module):  # the language-recognition example
        def __init__(self):
            super().__init__()
            self.symbol = embeddings.Random(27, _D, padding_idx=0)

        def forward(self, x):
            symbols = self.symbol(x)
            return functional.hard_quantize(functional.ngrams(symbols, n=3))

    return _centroid_pipeline(Language(), mode, (torch.randint(1, 27, (_B, 12)),))


def _emb_projection(mode):
    import torch
    from torchhd import embeddings

    class Proj(torch.nn.Module):
        def __init__(self):
            super().__init__()
            self.project = embeddings.Projection(_F, _D)

        def forward(self, x):
            return self.project(x).sign()

    return _centroid_pipeline(Proj(), mode, (torch.randn(_B, _F),), update="add_adapt")


def _emb_sinusoid(mode):
    import torch
    from torchhd import embeddings

    return _centroid_pipeline(embeddings.Sinusoid(_F, _D), mode, (torch.randn(_B, _F),), update="add_online")


def _emb_density(mode):
    from torchhd import embeddings

    return _centroid_pipeline(embeddings.Density(_F, _D), mode, (_x(),))


def _emb_fractional_power(vsa, dist):
    def make(mode):
        import torch
        from torchhd import embeddings

        enc = embeddings.FractionalPower(_F, _D, dist, 1.0 if dist == "sinc" else 2.0, vsa)
        return _centroid_pipeline(enc, mode, (torch.randn(_B, _F),), dtype=torch.complex64)

    return make


def _emb_empty_identity(mode):
    import torch
    import torchhd
    from torchhd import embeddings

    class Accumulate(torch.nn.Module):
        def __init__(self):
            super().__init__()
            self.empty = embeddings.Empty(_C, _D)
            self.identity = embeddings.Identity(_C, _D)
            self.items = embeddings.Random(10, _D)

        def forward(self, idx, cls):
            acc = torchhd.bundle(self.empty(cls), torchhd.multiset(self.items(idx)))
            return torchhd.bind(acc, self.identity(cls))

    net = Accumulate()
    inputs = (torch.randint(0, 10, (_B, 5)), _labels())
    if mode == "train":
        return mean_loss_module()(net), inputs, {}
    return net, inputs, {}


# --- models ---------------------------------------------------------------------------------

def _centroid_normalized_dot(mode):
    import torch
    from torchhd.models import Centroid

    enc = _keys_levels_encoder()

    class Normalized(torch.nn.Module):  # the MNIST example's test loop
        def __init__(self):
            super().__init__()
            self.encoder = enc
            self.model = Centroid(_D, _C)
            with torch.no_grad():
                self.model.add(self.encoder(_x()), _labels())
            self.model.normalize()

        def forward(self, x):
            return self.model(self.encoder(x), dot=True)

    if mode == "eval":
        return Normalized(), (_x(),), {}

    class NormalizeStep(Normalized):  # train: add, then normalize the prototypes
        def forward(self, x, y):
            self.model.add(self.encoder(x), y)
            self.model.normalize()
            return self.model.weight.clone()

    return NormalizeStep(), (_x(), _labels()), {}


def _intrvfl_model(mode):
    import torch
    from torchhd.models import IntRVFL

    net = IntRVFL(_F, _D, _C, kappa=3)
    x = _x()
    if mode == "eval":
        net.fit_ridge_regression(torch.rand(16, _F), torch.arange(16) % _C)
        return net, (x,), {}

    class Fit(torch.nn.Module):
        def __init__(self):
            super().__init__()
            self.net = net

        def forward(self, x, y):
            self.net.fit_ridge_regression(x, y, alpha=1.0)
            return self.net(x)

    return Fit(), (torch.rand(16, _F), torch.arange(16) % _C), {}


def _classifier(name, **kw):
    def make(mode):
        import torch
        from torchhd import classifiers

        clf = getattr(classifiers, name)(_F, _D, _C, **kw)
        # 16 samples, random labels: DistHD's regen_score returns the int 0 when every sample
        # is already right (then torch.topk(0) raises), so the batch must not be fit perfectly
        x, y = torch.rand(16, _F), torch.randint(0, _C, (16,))
        if mode == "eval":
            clf.fit([(x, y)])

            class Predict(torch.nn.Module):
                def __init__(self):
                    super().__init__()
                    self.clf = clf

                def forward(self, samples):
                    return self.clf.predict(samples)

            return Predict(), (x,), {}

        class FitStep(torch.nn.Module):
            def __init__(self):
                super().__init__()
                self.clf = clf

            def forward(self, samples, labels):
                self.clf.fit([(samples, labels)])
                return self.clf.model.weight.clone()

        return FitStep(), (x, y), {}

    return make


# --- memory ---------------------------------------------------------------------------------

def _sdm(mode):
    import torch
    import torchhd
    from torchhd.memory import SparseDistributed

    sdm = SparseDistributed(1000, _D, _D, p=0.01)
    keys = torchhd.random(_B, _D)
    if mode == "eval":
        sdm.write(keys, keys)
        return _op_module()(lambda self, q: sdm.read(q).sign(), ), (keys,), {}

    class WriteRead(torch.nn.Module):
        def __init__(self):
            super().__init__()
            self.sdm = sdm

        def forward(self, k, v):
            self.sdm.write(k, v)
            return torchhd.cosine_similarity(self.sdm.read(k).sign(), v)

    return WriteRead(), (keys, keys), {}


def _hopfield(mode):
    import torch
    import torchhd
    from torchhd.memory import Hopfield

    mem = Hopfield(_D, kappa=4)
    items = torchhd.random(_B, _D)

    class HopfieldNet(torch.nn.Module):
        def __init__(self):
            super().__init__()
            self.mem = mem
            if mode == "eval":
                self.mem.write(items)

        def forward(self, q):
            if mode == "train":
                self.mem.write(q)
            return self.mem.read(q)

    net = HopfieldNet()
    return (mean_loss_module()(net) if mode == "train" else net), (items,), {}


def _memory_functions(mode):
    import torch
    import torchhd
    from torchhd import memory

    mem = torchhd.random(6, _D)

    def fn(self, q):
        a = memory.hopfield(q, self.mem, kappa=3)
        b = memory.modern_hopfield(q, self.mem)
        c = memory.attention(q, self.mem, self.mem, beta=0.1)
        return a, b, c

    return _functional(fn, (torch.randn(_B, _D).sign(),), mode, mem=mem)


MODELS = {
    **{f"bind_bundle_{v}": _bind_bundle(v) for v in ("MAP", "BSC", "HRR", "FHRR", "BSBC", "VTB", "MCR", "CGR")},
    "hash_table_cleanup": _hash_table_cleanup,
    "sequences_ngrams": _sequences,
    "graph_cross_product": _graph_ops,
    "bsc_randsel_multibind": _bsc_random_select,
    "resonator": _resonator,
    "hrr_algebra_quantize": _hrr_algebra,
    "basis_and_ranges": _basis_and_ranges,
    "ridge_regression": _ridge_regression,
    "structures_hashtable_multiset": _structures_hash_multiset,
    "structures_sequence_graph": _structures_sequence_graph,
    "structures_fsa": _structures_fsa,
    "Level_hash_table_Centroid": _emb_level,
    "Level_FHRR_randomness": _emb_level_fhrr,
    "Level_BSC": _emb_level_bsc,
    "Thermometer_Centroid": _emb_thermometer,
    "Circular_Centroid_online": _emb_circular,
    "Random_ngrams_language": _emb_random_ngrams,
    "Projection_Centroid_adapt": _emb_projection,
    "Sinusoid_Centroid_online": _emb_sinusoid,
    "Density_Centroid": _emb_density,
    "FractionalPower_sinc_FHRR": _emb_fractional_power("FHRR", "sinc"),
    "FractionalPower_gaussian_FHRR": _emb_fractional_power("FHRR", "gaussian"),
    "Empty_Identity": _emb_empty_identity,
    "Centroid_normalize_dot": _centroid_normalized_dot,
    "IntRVFL_model": _intrvfl_model,
    "Vanilla": _classifier("Vanilla"),
    "AdaptHD": _classifier("AdaptHD", epochs=2),
    "OnlineHD": _classifier("OnlineHD", epochs=2),
    "NeuralHD": _classifier("NeuralHD", epochs=3, regen_freq=1),
    "DistHD": _classifier("DistHD", epochs=2, regen_freq=1),
    "LeHDC": _classifier("LeHDC", epochs=2),
    "CompHD": _classifier("CompHD"),
    "SparseHD": _classifier("SparseHD", epochs=2),
    "QuantHD": _classifier("QuantHD", epochs=2),
    "IntRVFL_classifier": _classifier("IntRVFL", kappa=3),
    "SparseDistributed": _sdm,
    "Hopfield": _hopfield,
    "hopfield_modern_attention": _memory_functions,
}
