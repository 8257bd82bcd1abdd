"""TorchDEQ 0.1.0: deep-equilibrium models built as its README, docs ("Get Started" sample code)
and DEQ Zoo build them: an implicit layer ``f(z, x)`` (a user ``nn.Module``), an injection and a
decoder around ``self.deq = get_deq(args)``, called as ``z_out, info = self.deq(lambda z: f(z, x), z0)``
after ``reset_norm`` / ``reset_deq``; tiny (batch 4, 16 hidden units, 8x8 images with 8 channels,
sequences of 6 tokens, f_max_iter 6-12), random weights, no download; 45 models:

- the solvers behind ``get_deq``: ``fixed_point_iter`` (the default), ``anderson`` (also with the
  DEQ-DDIM's per-call ``solver_kwargs`` ``m`` / ``lam`` / ``tau``), ``broyden``,
  ``simple_fixed_point_iter``; ``f_stop_mode='rel'``; ``eval_factor``; a per-call
  ``f_max_iter`` override (and DEQ-INR's ``{'f_max_iter': 0}``: no solver steps);
- the two cores (``sliced``, the default, and ``indexing``) with their backward paths: phantom
  gradients (``grad`` steps, damping ``tau``, ``sup_gap``, ``sup_loc``), implicit differentiation
  (``ift=True`` through the ``IFTGrad`` autograd Function, with fixed-point / anderson / broyden
  backward solvers, and ``hook_ift=True``), trajectory sampling for fixed-point correction
  (``n_states``, ``indexing``);
- normalisation: ``apply_norm`` weight norm (default, with ``norm_clip`` / ``norm_no_scale`` /
  ``filter_out``), spectral norm (``sn_n_power_iters``), ``norm_type='none'``, ``reset_norm`` each
  forward; ``register_norm_module`` for a module the library does not know (the IGNN layer's
  weight);
- dropout: ``VariationalDropout``, ``VariationalDropout1d`` (token first and last),
  ``VariationalDropout2d``, ``VariationalDropToken1d`` / ``2d``, reset by ``reset_deq`` each
  forward (the MLP's token variants on (B, 3, 10) token inputs);
- multi-equilibrium systems: a tuple ``z0`` (MDEQ-style, two resolutions) through ``MDEQWrapper``
  (solver stats on) and ``SpeedyMDEQWrapper`` (``no_stat=True``; ``simple_fixed_point_iter``),
  and the README's three-tensor ``fn(a, b, c)``;
- model families after the DEQ Zoo: an MLP classifier, a conv DEQ (``mixed_init`` z0, GroupNorm,
  2d dropout), DEQ-Flow's ConvGRU update block, a DEQ transformer (DEQ-Seq: variational dropouts,
  ``jac_reg``, ``fp_correction`` on its cross-entropy), DEQ-LM's ``mem_gc`` gradient checkpointing
  of the attention / feed-forward sublayers, a DEQ-INR (Fourier-feature injection, multiplicative
  filter layers), an implicit graph network (IGNN, dense normalised adjacency);
- functional use: the solvers called directly under ``no_grad`` then one step of ``f`` with grad
  (``anderson_solver``, ``broyden_solver``, ``fixed_point_iter`` with ``indexing``, ``get_solver``;
  with grad on, their in-place updates fail eagerly in backward), ``power_method`` and, in eval,
  ``sradius_mode=True`` (the spectral radius by the power method, under ``enable_grad``);
  configs from ``add_deq_args(parser).parse_args([...])`` (an ``argparse.Namespace``), a dict,
  and keyword arguments.

Eval: the model's prediction (``decoder(z_out[-1])``; the solver's ``info`` dict is returned too
where the zoo's models log it). Train: the zoo's training step up to ``loss.backward()``: the
decoder on every returned state and ``fp_correction(crit, (preds, y))`` (``weight_func`` 'exp'
with ``gamma``, or 'linear'), plus ``jac_loss_weight * jac_reg(f(z*), z*)`` where the zoo's models
add it (DEQ-Seq, and the MLP / conv models with ``jac_loss_weight``). The IFT backward solver runs
in the autograd Function's ``backward`` (hooks for ``hook_ift``), which the step does not call.

    pip install --no-deps torchdeq==0.1.0

(its declared dependencies are torch and numpy, both there.) Nothing stubbed.

Left out: ``fp_correction(weight_func='const')`` (``_const`` builds ``torch.ones(n).cuda()``:
fails eagerly on a CPU machine); ``return_loss_values=True`` (``.item()`` per loss term, logging
only); DEQ-DDIM / DEQ-Flow's full networks (a diffusion U-Net and RAFT's correlation pyramid: the
DEQ parts are kept as small stand-ins); optimisers and the logging of ``info`` (``.item()``).
"""

PACKAGE = "torchdeq"

_B, _D, _C = 4, 16, 5  # batch, hidden width, classes


def warm_up():
    import torch  # noqa: F401
    import torchdeq  # noqa: F401
    import torchdeq.utils.mem  # noqa: F401


def _nn():
    import torch
    import torch.nn as nn
    import torch.nn.functional as F

    return torch, nn, F


# --- implicit layers -----------------------------------------------------------------------------

def _mlp_layer():
    torch, nn, F = _nn()

    class MLPFunc(nn.Module):
        """z = LN(z + W2 relu(W1 z + x)) (the tutorial's DEQ layer)."""

        def __init__(self, d=_D, dropout=0.0, drop_cls=None):
            super().__init__()
            self.fc1 = nn.Linear(d, 2 * d)
            self.fc2 = nn.Linear(2 * d, d)
            self.ln = nn.LayerNorm(d)
            self.drop = drop_cls(dropout) if drop_cls is not None else nn.Identity()

        def forward(self, z, x):
            y = self.fc2(self.drop(F.relu(self.fc1(z) + torch.cat([x, x], -1))))
            return self.ln(z + y)

    return MLPFunc


class _Spec:
    """Keyword arguments of one DEQ MLP model."""

    def __init__(self, deq=None, norm=None, norm_kwargs=None, call=None, fp=None, jac=0.0,
                 drop=None, sradius=False, args_ns=None, seq=False):
        self.deq = deq or {}
        self.norm = norm if norm is not None else {}
        self.norm_kwargs = norm_kwargs or {}
        self.call = call or {}
        self.fp = fp or {}
        self.jac = jac
        self.drop = drop
        self.sradius = sradius
        self.args_ns = args_ns
        self.seq = seq  # tokens (B, 3, 10), decoded from their mean


def _deq_mlp(spec, mode):
    """The docs' ``DEQDemo``: injection -> DEQ over ``f(z, x)`` -> decoder, with its training step."""
    torch, nn, F = _nn()
    from torchdeq import apply_norm, get_deq, reset_deq
    from torchdeq.loss import fp_correction, jac_reg

    MLPFunc = _mlp_layer()
    drop_cls = None
    if spec.drop is not None:
        import torchdeq.dropout as D

        drop_cls = getattr(D, spec.drop)

    class DEQMLP(nn.Module):
        def __init__(self):
            super().__init__()
            self.inj = nn.Linear(10, _D)
            self.f = MLPFunc(dropout=0.2 if drop_cls else 0.0, drop_cls=drop_cls)
            self.dec = nn.Linear(_D, _C)
            if spec.args_ns is not None:
                apply_norm(self.f, args=spec.args_ns)
                self.deq = get_deq(spec.args_ns)
            else:
                if spec.norm is not False:
                    apply_norm(self.f, args=spec.norm, **spec.norm_kwargs)
                self.deq = get_deq(**spec.deq)

        def forward(self, x):
            reset_deq(self.f)
            u = self.inj(x)
            z0 = torch.zeros_like(u)
            func = lambda z: self.f(z, u)
            z_out, info = self.deq(func, z0, sradius_mode=spec.sradius and not self.training, **spec.call)
            return z_out, info, func

    class Predict(nn.Module):
        def __init__(self, net):
            super().__init__()
            self.net = net

        def forward(self, x):
            z_out, info, _ = self.net(x)
            z = z_out[-1].mean(1) if spec.seq else z_out[-1]
            return self.net.dec(z), info

    class TrainStep(nn.Module):
        def __init__(self, net):
            super().__init__()
            self.net = net
            self.crit = nn.CrossEntropyLoss()
            self.register_buffer("y", torch.arange(_B) % _C)

        def forward(self, x):
            z_out, info, func = self.net(x)
            preds = [self.net.dec(z.mean(1) if spec.seq else z) for z in z_out]
            loss = fp_correction(self.crit, (preds, self.y), **(spec.fp or {"gamma": 0.8}))
            if spec.jac > 0:
                z_star = z_out[-1]
                loss = loss + spec.jac * jac_reg(func(z_star), z_star)
            return loss

    net = DEQMLP()
    x = torch.randn(_B, 3, 10) if spec.seq else torch.randn(_B, 10)
    return (TrainStep(net) if mode == "train" else Predict(net)), (x,), {}


def _mlp(**kw):
    spec = _Spec(**kw)
    return lambda mode: _deq_mlp(spec, mode)


def _from_argparse(mode):
    import argparse

    from torchdeq.utils import add_deq_args

    parser = argparse.ArgumentParser()
    add_deq_args(parser)
    args = parser.parse_args(["--f_solver", "anderson", "--f_max_iter", "8", "--n_states", "2",
                              "--norm_clip", "--norm_clip_value", "0.9", "--gamma", "0.9"])
    return _deq_mlp(_Spec(args_ns=args, fp={"gamma": args.gamma}), mode)


# --- conv / multiscale --------------------------------------------------------------------------

def _conv_deq(mode, jac=0.0, deq=None, drop="VariationalDropout2d", norm="weight_norm"):
    """A single-scale MDEQ-like conv DEQ: residual block with GroupNorm, ``mixed_init`` z0."""
    torch, nn, F = _nn()
    import torchdeq.dropout as D
    from torchdeq import apply_norm, get_deq, reset_deq
    from torchdeq.loss import fp_correction, jac_reg
    from torchdeq.utils import mixed_init

    ch = 8

    class ConvFunc(nn.Module):
        def __init__(self):
            super().__init__()
            self.conv1 = nn.Conv2d(ch, ch, 3, padding=1)
            self.conv2 = nn.Conv2d(ch, ch, 3, padding=1)
            self.gn1 = nn.GroupNorm(2, ch, affine=False)
            self.gn2 = nn.GroupNorm(2, ch, affine=False)
            self.drop = getattr(D, drop)(0.1) if drop else nn.Identity()

        def forward(self, z, x):
            y = self.gn1(F.relu(self.conv1(z)))
            y = self.drop(y)
            return self.gn2(F.relu(z + self.conv2(y) + x))

    class ConvDEQ(nn.Module):
        def __init__(self):
            super().__init__()
            self.stem = nn.Conv2d(3, ch, 3, padding=1)
            self.f = ConvFunc()
            apply_norm(self.f, norm_type=norm, filter_out=["stem"])
            self.deq = get_deq(**(deq or {"f_max_iter": 8, "n_states": 2, "core": "sliced"}))
            self.head = nn.Linear(ch, _C)

        def forward(self, x):
            reset_deq(self)
            u = self.stem(x)
            z0 = mixed_init(u.shape, device=u.device)
            func = lambda z: self.f(z, u)
            z_out, info = self.deq(func, z0)
            return z_out, func

    class Step(nn.Module):
        def __init__(self, net):
            super().__init__()
            self.net = net
            self.crit = nn.CrossEntropyLoss()
            self.register_buffer("y", torch.arange(_B) % _C)

        def forward(self, x):
            z_out, func = self.net(x)
            preds = [self.net.head(z.mean((2, 3))) for z in z_out]
            if not self.training:
                return preds[-1]
            loss = fp_correction(self.crit, (preds, self.y), weight_func="linear", gamma=0.9)
            if jac > 0:
                loss = loss + jac * jac_reg(func(z_out[-1]), z_out[-1])
            return loss

    return Step(ConvDEQ()), (torch.randn(_B, 3, 8, 8),), {}


def _mdeq(mode, no_stat=None, solver="fixed_point_iter", core="sliced"):
    """Two resolutions solved jointly: ``deq(f, (z_hi, z_lo))`` with fusion between them."""
    torch, nn, F = _nn()
    from torchdeq import apply_norm, get_deq, reset_norm
    from torchdeq.loss import fp_correction

    ch = 8

    class MultiScale(nn.Module):
        def __init__(self):
            super().__init__()
            self.b_hi = nn.Conv2d(ch, ch, 3, padding=1)
            self.b_lo = nn.Conv2d(2 * ch, 2 * ch, 3, padding=1)
            self.down = nn.Conv2d(ch, 2 * ch, 3, stride=2, padding=1)
            self.up = nn.Conv2d(2 * ch, ch, 1)
            self.gn_hi = nn.GroupNorm(2, ch, affine=False)
            self.gn_lo = nn.GroupNorm(2, 2 * ch, affine=False)

        def forward(self, z_hi, z_lo, x_hi):
            h = F.relu(self.b_hi(z_hi) + x_hi)
            lo = F.relu(self.b_lo(z_lo))
            h2 = h + F.interpolate(self.up(lo), scale_factor=2, mode="nearest")
            lo2 = lo + self.down(h)
            return self.gn_hi(h2), self.gn_lo(lo2)

    kw = {"f_solver": solver, "f_max_iter": 6, "core": core, "n_states": 2}
    if no_stat is not None:
        kw["no_stat"] = no_stat

    class MDEQ(nn.Module):
        def __init__(self):
            super().__init__()
            self.stem = nn.Conv2d(3, ch, 3, padding=1)
            self.f = MultiScale()
            apply_norm(self.f, "weight_norm")
            self.deq = get_deq(**kw)
            self.head = nn.Linear(ch + 2 * ch, _C)
            self.crit = nn.CrossEntropyLoss()
            self.register_buffer("y", torch.arange(_B) % _C)

        def forward(self, x):
            reset_norm(self.f)
            u = self.stem(x)
            z0 = (torch.zeros_like(u), torch.zeros(u.shape[0], 2 * ch, u.shape[2] // 2, u.shape[3] // 2))
            z_out, info = self.deq(lambda hi, lo: self.f(hi, lo, u), z0)
            preds = [self.head(torch.cat([hi.mean((2, 3)), lo.mean((2, 3))], 1)) for hi, lo in z_out]
            if not self.training:
                return preds[-1]
            return fp_correction(self.crit, (preds, self.y))

    return MDEQ(), (torch.randn(_B, 3, 8, 8),), {}


def _readme_three(mode):
    """The README's ``fn(a, b, c)`` system: ``z_out, info = deq(fn, (a0, b0, c0))``."""
    torch, nn, F = _nn()
    from torchdeq import get_deq

    class ThreeVar(nn.Module):
        def __init__(self):
            super().__init__()
            self.la = nn.Linear(_D, _D)
            self.lb = nn.Linear(_D, _D)
            self.lc = nn.Linear(_D, _D)
            self.deq = get_deq(f_max_iter=6)

        def forward(self, x):
            def fn(a, b, c):
                return (torch.tanh(self.la(b) + x), torch.tanh(self.lb(c) + 0.5 * a),
                        torch.tanh(self.lc(a) + b))

            z0 = (torch.zeros_like(x), torch.zeros_like(x), torch.zeros_like(x))
            z_out, info = self.deq(fn, z0)
            a, b, c = z_out[-1]
            return a + b + c

    net = ThreeVar()
    return (mean_loss_module()(net) if mode == "train" else net), (torch.randn(_B, _D),), {}


# --- DEQ Zoo families -----------------------------------------------------------------------------

def _deq_flow(mode):
    """DEQ-Flow's update step: a ConvGRU over (hidden, flow) whose fixed point gives the flow."""
    torch, nn, F = _nn()
    from torchdeq import apply_norm, get_deq, reset_norm
    from torchdeq.loss import fp_correction

    hd, cd = 8, 8

    class ConvGRU(nn.Module):
        def __init__(self):
            super().__init__()
            self.convz = nn.Conv2d(hd + cd + 2, hd, 3, padding=1)
            self.convr = nn.Conv2d(hd + cd + 2, hd, 3, padding=1)
            self.convq = nn.Conv2d(hd + cd + 2, hd, 3, padding=1)
            self.flow_head = nn.Conv2d(hd, 2, 3, padding=1)

        def forward(self, net, flow, inp):
            hx = torch.cat([net, inp, flow], 1)
            z = torch.sigmoid(self.convz(hx))
            r = torch.sigmoid(self.convr(hx))
            q = torch.tanh(self.convq(torch.cat([r * net, inp, flow], 1)))
            net = (1 - z) * net + z * q
            return net, flow + 0.1 * self.flow_head(net)

    class DEQFlow(nn.Module):
        def __init__(self):
            super().__init__()
            self.cnet = nn.Conv2d(6, hd + cd, 3, padding=1)
            self.update_block = ConvGRU()
            apply_norm(self.update_block, filter_out=["flow_head"])
            self.deq = get_deq(core="indexing", f_solver="anderson", f_max_iter=8, n_states=2, grad=[1, 3],
                               tau=1.0, eval_factor=1.5)

        def forward(self, img1, img2, flow_gt):
            reset_norm(self.update_block)
            c = self.cnet(torch.cat([img1, img2], 1))
            net, inp = torch.split(c, [hd, cd], dim=1)
            net, inp = torch.tanh(net), torch.relu(inp)
            flow0 = torch.zeros(img1.shape[0], 2, img1.shape[2], img1.shape[3])
            z_out, info = self.deq(lambda h, f: self.update_block(h, f, inp), (net, flow0))
            flow_preds = [f for _, f in z_out]
            if not self.training:
                return flow_preds[-1], info
            valid = torch.ones_like(flow_gt[:, 0])
            crit = lambda pred, gt, v: ((pred - gt).abs().sum(1) * v).mean()
            return fp_correction(crit, (flow_preds, flow_gt, valid), gamma=0.8)

    imgs = (torch.randn(_B, 3, 8, 8), torch.randn(_B, 3, 8, 8), torch.randn(_B, 2, 8, 8))
    return DEQFlow(), imgs, {}


def _deq_transformer(mode, gc=False, core="sliced", ift=False):
    """DEQ-Seq / DEQ-LM: a weight-tied transformer block solved to its fixed point over a sequence
    (B, D, L), variational dropouts reset by ``reset_deq``, ``jac_reg`` and ``fp_correction``."""
    torch, nn, F = _nn()
    from torchdeq import apply_norm, get_deq, reset_deq
    from torchdeq.dropout import VariationalDropout, VariationalDropout1d
    from torchdeq.loss import fp_correction, jac_reg
    from torchdeq.utils.mem import mem_gc

    d, heads, L, V = _D, 2, 6, 11

    class Attn(nn.Module):
        def __init__(self):
            super().__init__()
            self.qkv = nn.Conv1d(d, 3 * d, 1)
            self.o = nn.Conv1d(d, d, 1)
            self.ln = nn.GroupNorm(1, d)
            self.dropatt = VariationalDropout(0.1)
            self.drop = VariationalDropout1d(0.1, token_first=False)

        def forward(self, z, u):
            B = z.shape[0]
            q, k, v = (self.qkv(z) + u).chunk(3, dim=1)
            q, k, v = (t.reshape(B, heads, d // heads, L) for t in (q, k, v))
            att = torch.einsum("bhdi,bhdj->bhij", q, k) / (d // heads) ** 0.5
            mask = torch.triu(torch.ones(L, L, dtype=torch.bool), 1)
            att = self.dropatt(att.masked_fill(mask, float("-inf")).softmax(-1))
            out = torch.einsum("bhij,bhdj->bhdi", att, v).reshape(B, d, L)
            return self.ln(z + self.drop(self.o(out)))

    class FF(nn.Module):
        def __init__(self):
            super().__init__()
            self.c1 = nn.Conv1d(d, 2 * d, 1)
            self.c2 = nn.Conv1d(2 * d, d, 1)
            self.ln = nn.GroupNorm(1, d)
            self.drop1 = VariationalDropout1d(0.1, token_first=False)

        def forward(self, z):
            return self.ln(z + self.c2(self.drop1(F.relu(self.c1(z)))))

    class Block(nn.Module):
        def __init__(self):
            super().__init__()
            self.attn = Attn()
            self.ff = FF()

        def forward(self, z, u):
            if gc:
                z = mem_gc(self.attn, (z, u))
                return mem_gc(self.ff, (z,))
            return self.ff(self.attn(z, u))

    class DEQTransformerLM(nn.Module):
        def __init__(self):
            super().__init__()
            self.emb = nn.Embedding(V, d)
            self.pos = nn.Parameter(torch.randn(1, d, L) * 0.02)
            self.pos_drop = VariationalDropout1d(0.1)
            self.inject = nn.Conv1d(d, 3 * d, 1)
            self.func = Block()
            apply_norm(self.func, norm_type="weight_norm", filter_out=["ln"])
            self.deq = get_deq(core=core, f_solver="anderson", f_max_iter=8, n_states=2, ift=ift)
            self.out = nn.Linear(d, V)
            self.crit = nn.CrossEntropyLoss()

        def forward(self, data, target):
            reset_deq(self)
            u = self.inject(self.emb(data).transpose(1, 2) + self.pos_drop(self.pos))
            z0 = torch.zeros(data.shape[0], d, L)
            deq_func = lambda z: self.func(z, u)
            z_out, info = self.deq(deq_func, z0)
            z_now = z_out[-1]
            if not self.training:
                return self.out(z_now.transpose(1, 2))
            jac_loss = jac_reg(deq_func(z_now), z_now)
            preds = [self.out(z.transpose(1, 2)).reshape(-1, V) for z in z_out]
            loss = fp_correction(self.crit, (preds, target.reshape(-1)), gamma=0.8)
            return loss + 0.5 * jac_loss

    data = torch.randint(0, V, (_B, L))
    return DEQTransformerLM(), (data, torch.roll(data, -1, 1)), {}


def _deq_inr(mode, skip_solver=False):
    """DEQ-INR: Fourier-feature injection of 2-D coordinates, a multiplicative-filter layer as f,
    ``solver_kwargs={'f_max_iter': 0}`` for the skip-solver warm start."""
    torch, nn, F = _nn()
    from torchdeq import apply_norm, get_deq, reset_norm
    from torchdeq.loss import fp_correction

    class FourierInjection(nn.Module):
        def __init__(self):
            super().__init__()
            self.lin = nn.Linear(2, _D)

        def forward(self, x):
            return torch.sin(self.lin(x) * 8.0)

    class MFN(nn.Module):
        def __init__(self):
            super().__init__()
            self.lin = nn.Linear(_D, _D)

        def forward(self, z, u):
            return self.lin(z) * u + u

    class DEQINR(nn.Module):
        def __init__(self):
            super().__init__()
            self.injection = FourierInjection()
            self.f = MFN()
            self.output_map = nn.Linear(_D, 3)
            apply_norm(self.f, "spectral_norm")
            self.deq = get_deq(f_solver="anderson", f_max_iter=8, b_solver="anderson", ift=True, b_max_iter=6)

        def forward(self, x, rgb):
            z = torch.zeros(*x.shape[:-1], _D)
            u = self.injection(x)
            reset_norm(self.f)
            func = lambda z: self.f(z, u)
            solver_kwargs = {"f_max_iter": 0} if skip_solver else {}
            z_out, info = self.deq(func, z, solver_kwargs=solver_kwargs)
            outputs = [self.output_map(zp) for zp in z_out]
            if not self.training:
                return outputs[-1]
            return fp_correction(F.mse_loss, (outputs, rgb))

    coords = torch.rand(64, 2) * 2 - 1
    return DEQINR(), (coords, torch.rand(64, 3)), {}


def _ignn(mode):
    """IGNN: X = relu(W X A + U) on a small graph, ``register_norm_module`` for the layer's own
    weight (the implicit layer keeps it as a bare Parameter)."""
    torch, nn, F = _nn()
    from torchdeq import get_deq
    from torchdeq.norm import apply_norm, register_norm_module, reset_norm

    n, nf = 10, 6

    class ImplicitGraph(nn.Module):
        def __init__(self):
            super().__init__()
            self.weight = nn.Parameter(torch.randn(_D, _D) / _D)
            self.Omega_1 = nn.Linear(nf, _D, bias=False)

    register_norm_module(ImplicitGraph, "weight_norm", names="weight", dims=0)

    class IGNN(nn.Module):
        def __init__(self):
            super().__init__()
            self.ig = ImplicitGraph()
            apply_norm(self.ig, "weight_norm", filter_out=["Omega_1"])
            self.deq = get_deq(f_solver="broyden", f_max_iter=8, ift=True, b_solver="broyden", b_max_iter=6)
            self.V = nn.Linear(_D, _C)
            self.crit = nn.CrossEntropyLoss()

        def forward(self, features, adj, labels):
            reset_norm(self.ig)
            U = self.ig.Omega_1(features).t()  # (D, n)
            func = lambda X: F.relu(self.ig.weight @ X @ adj + U)
            z_out, info = self.deq(func, torch.zeros_like(U))
            logits = self.V(z_out[-1].t())
            if not self.training:
                return logits
            return self.crit(logits, labels)

    a = (torch.rand(n, n) < 0.3).float()
    a = ((a + a.t()) > 0).float() + torch.eye(n)
    dinv = a.sum(1).rsqrt()
    adj = dinv[:, None] * a * dinv[None, :]
    return IGNN(), (torch.randn(n, nf), adj, torch.arange(n) % _C), {}


# --- solvers and losses used functionally --------------------------------------------------------

def _solver_fn(name, **solver_kw):
    def make(mode):
        torch, nn, F = _nn()
        from torchdeq.solver import get_solver

        solver = get_solver(name)

        class SolverCall(nn.Module):
            """``z*, traj, info = solver(f, z0, ...)`` without grad (as the DEQ classes call it), then
            one step of ``f`` with grad (a hand-made 1-step phantom gradient)."""

            def __init__(self):
                super().__init__()
                self.lin = nn.Linear(_D, _D)

            def forward(self, x):
                f = lambda z: 0.5 * torch.tanh(self.lin(z)) + x
                with torch.no_grad():
                    z_star, traj, info = solver(f, torch.zeros_like(x), **solver_kw)
                return f(z_star), info["abs_lowest"], info["nstep"], *[f(z) for z in traj]

        net = SolverCall()
        return (mean_loss_module()(net) if mode == "train" else net), (torch.randn(_B, _D),), {}

    return make


def _power_method(mode):
    torch, nn, F = _nn()
    from torchdeq.loss import power_method

    class SpectralRadius(nn.Module):
        def __init__(self):
            super().__init__()
            self.lin = nn.Linear(_D, _D)

        def forward(self, z):
            z = z.clone().requires_grad_()
            with torch.enable_grad():
                fz = torch.tanh(self.lin(z))
            _, rho = power_method(fz, z, n_iters=5)
            return rho

    return SpectralRadius(), (torch.randn(_B, _D),), {}


def _jac_reg_only(mode):
    torch, nn, F = _nn()
    from torchdeq.loss import jac_reg

    class JacReg(nn.Module):
        def __init__(self):
            super().__init__()
            self.lin = nn.Linear(_D, _D)

        def forward(self, z):
            z = z.clone().requires_grad_()
            with torch.enable_grad():
                fz = torch.tanh(self.lin(z))
                return jac_reg(fz, z, vecs=2)

    return JacReg(), (torch.randn(_B, _D),), {}


MODELS = {
    # MLP DEQ classifier: solvers, cores, gradients, norms, dropouts
    "DEQ_MLP_default": _mlp(deq={"f_max_iter": 8}),
    "DEQ_MLP_anderson": _mlp(deq={"f_solver": "anderson", "f_max_iter": 8}),
    "DEQ_MLP_broyden": _mlp(deq={"f_solver": "broyden", "f_max_iter": 8}),
    "DEQ_MLP_simple_fp": _mlp(deq={"f_solver": "simple_fixed_point_iter", "f_max_iter": 8}),
    "DEQ_MLP_ift": _mlp(deq={"f_max_iter": 8, "ift": True, "b_max_iter": 6}),
    "DEQ_MLP_ift_anderson": _mlp(deq={"f_solver": "anderson", "b_solver": "anderson", "f_max_iter": 8,
                                      "ift": True, "b_max_iter": 6, "core": "indexing"}),
    "DEQ_MLP_hook_ift": _mlp(deq={"f_solver": "anderson", "f_max_iter": 8, "hook_ift": True, "b_max_iter": 6}),
    "DEQ_MLP_sliced_n_states": _mlp(deq={"f_solver": "anderson", "f_max_iter": 9, "n_states": 3}),
    "DEQ_MLP_indexing_n_states": _mlp(deq={"core": "indexing", "f_max_iter": 10, "n_states": 3},
                                      fp={"weight_func": "linear", "gamma": 0.9}),
    "DEQ_MLP_indexing_list": _mlp(deq={"core": "indexing", "f_solver": "broyden", "f_max_iter": 8,
                                       "indexing": [2, 5]}),
    "DEQ_MLP_phantom_grad": _mlp(deq={"f_max_iter": 8, "grad": 3, "tau": 0.6}),
    "DEQ_MLP_sup_gap": _mlp(deq={"f_max_iter": 8, "grad": 3, "sup_gap": 1, "tau": 0.8}),
    "DEQ_MLP_sup_loc": _mlp(deq={"core": "indexing", "f_max_iter": 8, "grad": 3, "sup_loc": [1, 2]}),
    "DEQ_MLP_multi_grad": _mlp(deq={"core": "indexing", "f_max_iter": 9, "n_states": 3, "grad": [1, 2, 3],
                                    "ift": True}),
    "DEQ_MLP_rel_stop": _mlp(deq={"f_solver": "anderson", "f_max_iter": 8, "f_stop_mode": "rel",
                                  "f_tol": 1e-4}),
    "DEQ_MLP_eval_factor": _mlp(deq={"f_max_iter": 6, "eval_factor": 2.0}),
    "DEQ_MLP_call_max_iter": _mlp(deq={"f_max_iter": 12, "n_states": 2}, call={"solver_kwargs": {"f_max_iter": 6}}),
    "DEQ_MLP_solver_kwargs": _mlp(deq={"f_solver": "anderson", "f_max_iter": 8},
                                  call={"solver_kwargs": {"m": 3, "lam": 1e-3, "tau": 0.8}}),
    "DEQ_MLP_sradius": _mlp(deq={"f_max_iter": 8}, sradius=True),
    "DEQ_MLP_spectral_norm": _mlp(deq={"f_max_iter": 8}, norm={"norm_type": "spectral_norm",
                                                               "sn_n_power_iters": 2}),
    "DEQ_MLP_norm_clip": _mlp(deq={"f_max_iter": 8}, norm={"norm_clip": True, "norm_clip_value": 0.9,
                                                           "norm_no_scale": True, "norm_target_norm": 0.8}),
    "DEQ_MLP_no_norm": _mlp(deq={"f_max_iter": 8}, norm={"norm_type": "none"}),
    "DEQ_MLP_jac_reg": _mlp(deq={"f_max_iter": 8, "n_states": 2}, jac=0.4),
    "DEQ_MLP_var_dropout": _mlp(deq={"f_max_iter": 8}, drop="VariationalDropout"),
    "DEQ_MLP_drop_token": _mlp(deq={"f_max_iter": 8}, drop="VariationalDropToken1d", seq=True),
    "DEQ_MLP_argparse": _from_argparse,
    # conv / multiscale / multi-variable systems
    "ConvDEQ": _conv_deq,
    "ConvDEQ_jac_ift": lambda m: _conv_deq(m, jac=0.2, deq={"f_solver": "anderson", "f_max_iter": 8, "ift": True,
                                                           "b_max_iter": 6, "core": "indexing"}),
    "ConvDEQ_spectral_droptoken": lambda m: _conv_deq(m, drop="VariationalDropToken2d", norm="spectral_norm",
                                                      deq={"f_solver": "broyden", "f_max_iter": 8}),
    "MDEQ_fixed_point": _mdeq,
    "MDEQ_anderson_indexing": lambda m: _mdeq(m, solver="anderson", core="indexing"),
    "MDEQ_speedy_no_stat": lambda m: _mdeq(m, no_stat=True, solver="simple_fixed_point_iter"),
    "README_three_variables": _readme_three,
    # DEQ Zoo families
    "DEQ_Flow": _deq_flow,
    "DEQ_Transformer": _deq_transformer,
    "DEQ_Transformer_mem_gc": lambda m: _deq_transformer(m, gc=True, core="indexing"),
    "DEQ_Transformer_ift": lambda m: _deq_transformer(m, ift=True),
    "DEQ_INR": _deq_inr,
    "DEQ_INR_skip_solver": lambda m: _deq_inr(m, skip_solver=True),
    "IGNN": _ignn,
    # functional
    "anderson_solver": _solver_fn("anderson", max_iter=8, m=4, indexing=[3, 8]),
    "broyden_solver": _solver_fn("broyden", max_iter=8, stop_mode="rel"),
    "fixed_point_iter": _solver_fn("fixed_point_iter", max_iter=8, indexing=[2, 4], tau=0.9),
    "power_method": _power_method,
    "jac_reg": _jac_reg_only,
}

mean_loss_module = None  # adapter.mean_loss_module, set by ZooSuite
