"""pytorch_optimizer 4.1.0 (Hyeongchan Kim): its optimizers, optimizer wrappers and losses, as its
README / ``docs/getting-started.md`` ("Run a training step", "Compile optimizer steps":
``create_optimizer(..., compile=True)`` compiles the whole step of the optimizers without a
batched path, ``torch.compile(optimizer.step)``) and its tests (``tests/recipes.py``'s
``OPTIMIZER_RECIPES``, ``tests/utils.Trainer`` with its ``create_graph`` backward for the Hessian
optimizers and its SAM-style / closure runs, ``tests/test_loss_functions.py``) use them; tiny
(a 4-8-3 MLP, ``fc1`` / ``head``, batch 8), random weights, no download:

- optimizers (one entry each, the tests' recipe options): Lion, AdaBelief (``rectify``), Ranger,
  Ranger21 (``num_iterations``), Adan (``max_grad_norm``), Prodigy, SophiaH and AdaHessian (the
  Hessian diagonal from gradients built with ``create_graph=True``), Lamb, Shampoo,
  ScalableShampoo (preconditioning from step 1), SOAP (``precondition_frequency=1``), Muon through
  ``create_optimizer`` (``prepare_muon_parameters``: ``fc1.weight`` on Muon, the ``head`` and
  biases on its AdamW groups), ScheduleFreeAdamW and ScheduleFreeRAdam (``optimizer.train()``),
  Kron (PSGD), CAME, AdaFactor, MADGRAD, DAdaptAdam, ADOPT, AdEMAMix, StableSPAM, MARS, Tiger,
  GrokFastAdamW, LARS; ``create_optimizer`` with a tensor learning rate (what ``compile=True``
  hands a whole-step compiled optimizer: AdamP, weight decay and its ban list); the ``foreach``
  batched paths (``foreach=True``: Lion, AdamP, Prodigy; the paths ``compile=True`` compiles);
- wrappers: ``Lookahead(AdamP)``, ``OrthoGrad(AdamW)``, ``ScheduleFreeWrapper(AdamW)``, ``SAM``
  over AdamW stepped with a closure (``Trainer.run_with_closure``) and ``LookSAM`` over Lion with
  ``first_step`` / ``second_step`` (``Trainer.run_sam_style``), ``BSAM`` with a closure;
- losses on a tiny network's output: FocalLoss, BCEFocalLoss (label smoothing), BCELoss (its
  train / eval branches), DiceLoss (multiclass, ``ignore_index``), JaccardLoss (multilabel),
  TverskyLoss, FocalTverskyLoss, LDAMLoss, BiTemperedLogisticLoss (label smoothing),
  LovaszHingeLoss (per image), SoftF1Loss, FocalCosineLoss.

Optimizer entries. Eval: the compiled ``optimizer.step()`` alone (``torch.compile(opt.step)``,
the gradients already set by one eager backward while building, as PyTorch's "compiling the
optimizer" recipe does); the Hessian, closure and SAM entries, whose step needs autograd, run
their whole train step under ``enable_grad``.
Train: the compiled train step (``zero_grad``, forward, cross-entropy, ``backward``, ``step``; the
Hessian optimizers' ``torch.autograd.grad(..., create_graph=True)``; the SAM-style two passes),
returning the detached loss. Loss entries: eval and train both the loss of a 4-8 MLP's (or 1x1
conv's) output against fixed targets. Measured first as it came, before any rule looked at it.

    pip install --no-deps pytorch_optimizer==4.1.0   # (+ numpy 2.4.6: installed)

It imports only torch and numpy. Nothing stubbed.

Capture (torch 2.13.0+cpu): 49 models, 98 runs, all built, all 98 ran under Dynamo, none failed.
The loss entries and the eval steps of most optimizers (Lion, AdaBelief, Adan, Lamb, SOAP, Muon,
ScalableShampoo, the schedule-free ones, CAME, AdaFactor, MADGRAD, ...) are one graph; their train
steps break only at this file's ``zero_grad`` / ``backward``. Breaks in the source: ``.item()`` /
tensor ``if`` in Prodigy, DAdaptAdam, Kron, Ranger21 and AdamP's ``projection`` (a GB7000 frame
skip of its loop); ``torch._dynamo.graph_break()`` written into OrthoGrad / SAM / ScheduleFreeWrapper
steps; ``Optimizer.zero_grad`` (skipped by Dynamo) inside the wrappers' and SAM's steps;
``compute_hutchinson_hessian``'s iterator (GB4347) and loop (GB7000) for AdaHessian / SophiaH;
Shampoo's and StableSPAM's loops (GB7000; StableSPAM calls ``SGD.step``). First numbers with the
frozen linter (``/tmp/lint-start57``): graph-break statement recall 0.04 (1/24: AdamP's
``projection``), precision 1.00 (2/2), 67 findings in the source / 4 in files run, 2 unjudged
(not reached: the ``foreach`` AdamP path skips ``projection``).

Left out: GaLore / APOLLO / Fira (projection ranks need per-group configuration), the LR schedulers
(Python arithmetic on step counts, not compiled), ``create_optimizer(compile=True)`` itself (it
compiles inside; the probe compiles the step here), DeMo / DistributedMuon (process groups),
LOMO / AdaLOMO (fused backward hooks on the model), CPU offload / FP16 wrappers.
"""

import functools

PACKAGE = "pytorch_optimizer"

_B, _IN, _H, _C = 8, 4, 8, 3  # batch, inputs, hidden, classes


@functools.cache
def _modules():
    import torch
    from torch import nn
    import torch.nn.functional as F

    class MLP(nn.Module):
        def __init__(self, d=_IN, h=_H, c=_C):
            super().__init__()
            self.fc1, self.head = nn.Linear(d, h), nn.Linear(h, c)

        def forward(self, x):
            return self.head(F.relu(self.fc1(x)))

    class OptStep(nn.Module):
        """Training: one compiled train step (zero_grad, loss, backward, step); eval: the
        compiled ``optimizer.step()`` on the gradients set while building. ``kind``: "plain",
        "hessian" (``create_graph`` gradients), "closure" (``step(closure)``), "sam" (the two
        SAM passes)."""

        def __init__(self, model, optimizer, kind="plain"):
            super().__init__()
            self.model = model
            object.__setattr__(self, "optimizer", optimizer)
            self.kind = kind

        def loss(self, x, y):
            return F.cross_entropy(self.model(x), y)

        def backward(self, loss):
            if self.kind == "hessian":
                params = [p for p in self.model.parameters() if p.requires_grad]
                grads = torch.autograd.grad(loss, params, create_graph=True)
                for p, g in zip(params, grads):
                    p.grad = g
            else:
                loss.backward()

        def forward(self, x, y):
            opt = self.optimizer
            if not (self.training and torch.is_grad_enabled()):
                if self.kind == "plain":
                    opt.step()
                else:  # fresh create_graph gradients / the closure's passes need autograd on
                    with torch.enable_grad():
                        self.train_step(x, y)
                return self.model.head.weight.detach().clone()
            return self.train_step(x, y)

        def train_step(self, x, y):
            opt = self.optimizer
            if self.kind == "closure":
                def closure():
                    first = self.loss(x, y)
                    first.backward()
                    return first

                loss = self.loss(x, y)
                loss.backward()
                opt.step(closure)
                opt.zero_grad()
                return loss.detach()
            if self.kind == "sam":
                loss = self.loss(x, y)
                loss.backward()
                opt.first_step(zero_grad=True)
                self.loss(x, y).backward()
                opt.second_step(zero_grad=True)
                return loss.detach()
            opt.zero_grad()
            loss = self.loss(x, y)
            self.backward(loss)
            opt.step()
            return loss.detach()

    class LossOf(nn.Module):
        """A library loss on a small network's output against fixed targets."""

        def __init__(self, net, criterion, target, post=None):
            super().__init__()
            self.net, self.criterion = net, criterion
            self.register_buffer("target", target)
            self.post = post

        def forward(self, x):
            out = self.net(x)
            if self.post == "sigmoid":
                out = torch.sigmoid(out)
            elif self.post == "softmax":
                out = out.softmax(dim=1)
            elif self.post == "flat":
                out = out.reshape(-1)
            elif self.post == "sigmoid_flat":
                out = torch.sigmoid(out).reshape(-1)
            return self.criterion(out, self.target)

    return {"MLP": MLP, "OptStep": OptStep, "LossOf": LossOf}


def _data():
    import torch

    g = torch.Generator().manual_seed(1)
    return torch.randn(_B, _IN, generator=g), torch.arange(_B) % _C


def _opt(build, kind="plain", sf=False):
    """``build(model) -> optimizer``; the gradients of one eager step are set for eval."""

    def make(mode):
        import torch

        mods = _modules()
        model = mods["MLP"]()
        opt = build(model)
        if sf:
            opt.train()  # schedule-free optimizers: the training-time parameters
        step = mods["OptStep"](model, opt, kind)
        x, y = _data()
        if mode != "train" and kind == "plain":
            with torch.enable_grad():
                step.backward(step.loss(x, y))
        return step, (x, y), {}

    return make


def _cls(name, **kw):
    def build(model):
        import pytorch_optimizer as po

        return getattr(po, name)(model.parameters(), **kw)

    return build


def _create(name, **kw):
    def build(model):
        import torch
        from pytorch_optimizer import create_optimizer

        lr = kw.pop("lr", 1e-2)
        if kw.pop("tensor_lr", False):
            lr = torch.tensor(lr)
        return create_optimizer(model, name, lr=lr, **dict(kw))

    return build


def _wrap(wrapper, inner, inner_kw, **kw):
    def build(model):
        import pytorch_optimizer as po

        return getattr(po, wrapper)(getattr(po, inner)(model.parameters(), **inner_kw), **kw)

    return build


def _sam(name, base, **kw):
    def build(model):
        import pytorch_optimizer as po
        from pytorch_optimizer import load_optimizer

        return getattr(po, name)(model.parameters(), load_optimizer(base), **kw)

    return build


def _bsam(model):
    import pytorch_optimizer as po

    return po.BSAM(model.parameters(), lr=2e-3, num_data=_B, rho=1e-5)


# --- losses ----------------------------------------------------------------------------------

def _loss(crit, target, out=_C, post=None, conv=False):
    def make(mode):
        import torch
        from torch import nn
        import pytorch_optimizer.loss as L

        torch.manual_seed(0)
        if conv:
            net = nn.Conv2d(2, out, 1)
            x = torch.randn(2, 2, 4, 4)
        else:
            net = _modules()["MLP"](c=out)
            x = torch.randn(_B, _IN)
        criterion = crit(L)
        return _modules()["LossOf"](net, criterion, target(), post), (x,), {}

    return make


def _labels(n=_B, c=_C):
    import torch

    return torch.arange(n) % c


def _binary(shape=(_B,)):
    import torch

    return (torch.arange(int(torch.tensor(shape).prod())).reshape(shape) % 2).float()


def _seg_multiclass():
    import torch

    return torch.arange(2 * 4 * 4).reshape(2, 4, 4) % _C


def _seg_multilabel():
    import torch

    return (torch.arange(2 * _C * 4 * 4).reshape(2, _C, 4, 4) % 3 == 0).long()


MODELS = {
    # --- optimizers (tests/recipes.py options) ---
    "Lion": _opt(_cls("Lion", lr=5e-1, weight_decay=1e-3, use_gc=True)),
    "AdaBelief": _opt(_cls("AdaBelief", lr=5e-1, weight_decay=1e-3, rectify=True)),
    "Ranger": _opt(_cls("Ranger", lr=1e0, weight_decay=1e-3)),
    "Ranger21": _opt(_cls("Ranger21", num_iterations=75, lr=7.5e-1, weight_decay=1e-3)),
    "Adan": _opt(_cls("Adan", lr=5e-1, max_grad_norm=1.0)),
    "Prodigy": _opt(_cls("Prodigy", lr=1e0, beta3=0.999, weight_decay=1e-3, safeguard_warmup=True)),
    "SophiaH": _opt(_cls("SophiaH", lr=1e1, weight_decay=1e-3, update_period=2, hessian_distribution="gaussian"),
                    kind="hessian"),
    "AdaHessian": _opt(_cls("AdaHessian", lr=1e0, weight_decay=1e-3, hessian_distribution="rademacher"),
                       kind="hessian"),
    "Lamb": _opt(_cls("Lamb", lr=1e-1, weight_decay=1e-3, pre_norm=True, eps=1e-8)),
    "Shampoo": _opt(_cls("Shampoo", lr=5e-1, weight_decay=1e-3, momentum=0.1)),
    "ScalableShampoo": _opt(_cls("ScalableShampoo", lr=1e-1, weight_decay=1e-3, start_preconditioning_step=1,
                                 preconditioning_compute_steps=1)),
    "SOAP": _opt(_cls("SOAP", lr=1e0, shampoo_beta=0.95, precondition_frequency=1, merge_dims=False,
                      precondition_1d=True)),
    "Muon_create_optimizer": _opt(_create("muon", lr=5e-1, weight_decay=1e-3, adamw_lr=5e-1, adamw_wd=1e-2,
                                          nesterov=True)),
    "ScheduleFreeAdamW": _opt(_cls("ScheduleFreeAdamW", lr=1e0, weight_decay=1e-3), sf=True),
    "ScheduleFreeRAdam": _opt(_cls("ScheduleFreeRAdam", lr=1e0, weight_decay=1e-3), sf=True),
    "Kron": _opt(_cls("Kron", lr=1e0, weight_decay=1e-3)),
    "CAME": _opt(_cls("CAME", lr=7.5e-1, weight_decay=1e-3, ams_bound=True)),
    "AdaFactor": _opt(_cls("AdaFactor", lr=1e0, weight_decay=1e-3, scale_parameter=False, relative_step=False)),
    "MADGRAD": _opt(_cls("MADGRAD", lr=5e-1, weight_decay=1e-3)),
    "DAdaptAdam": _opt(_cls("DAdaptAdam", lr=1e2, weight_decay=1e-3)),
    "ADOPT": _opt(_cls("ADOPT", lr=1e0)),
    "AdEMAMix": _opt(_cls("AdEMAMix", lr=1e0, t_alpha_beta3=5)),
    "StableSPAM": _opt(_cls("StableSPAM", lr=1e0, weight_decay=1e-3, update_proj_gap=1, t_max=5)),
    "MARS": _opt(_cls("MARS", lr=5e-1, lr_1d=5e-1, weight_decay=1e-3, mars_type="adamw")),
    "Tiger": _opt(_cls("Tiger", lr=1e0, weight_decay=1e-3)),
    "GrokFastAdamW": _opt(_cls("GrokFastAdamW", lr=5e0, weight_decay=1e-3, grokfast_after_step=1)),
    "LARS": _opt(_cls("LARS", lr=5e-1, nesterov=True)),
    "AdamP_create_optimizer_tensor_lr": _opt(_create("adamp", lr=5e-1, weight_decay=1e-3, tensor_lr=True)),
    "Lion_foreach": _opt(_cls("Lion", lr=5e-1, weight_decay=1e-3, foreach=True)),
    "AdamP_foreach": _opt(_cls("AdamP", lr=5e-1, weight_decay=1e-3, foreach=True)),
    "Prodigy_foreach": _opt(_cls("Prodigy", lr=1e0, weight_decay=1e-3, foreach=True)),
    # --- wrappers ---
    "Lookahead_AdamP": _opt(_wrap("Lookahead", "AdamP", {"lr": 5e-1}, k=2)),
    "OrthoGrad_AdamW": _opt(_wrap("OrthoGrad", "AdamW", {"lr": 5e-1, "weight_decay": 1e-3})),
    "ScheduleFreeWrapper_AdamW": _opt(_wrap("ScheduleFreeWrapper", "AdamW", {"lr": 1e-2, "weight_decay": 1e-3}),
                                      sf=True),
    "SAM_AdamW_closure": _opt(_sam("SAM", "adamw", lr=5e-1), kind="closure"),
    "LookSAM_Lion_two_step": _opt(_sam("LookSAM", "lion", lr=5e-1), kind="sam"),
    "BSAM_closure": _opt(_bsam, kind="closure"),
    # --- losses (tests/test_loss_functions.py) ---
    "FocalLoss": _loss(lambda L: L.FocalLoss(alpha=1.0, gamma=2.0), _binary, out=1, post="flat"),
    "BCEFocalLoss": _loss(lambda L: L.BCEFocalLoss(label_smooth=0.1), _binary, out=1, post="flat"),
    "BCELoss": _loss(lambda L: L.BCELoss(label_smooth=0.1, eps=1e-6), _binary, out=1, post="flat"),
    "DiceLoss_multiclass": _loss(lambda L: L.DiceLoss(mode="multiclass", ignore_index=1), _seg_multiclass, conv=True),
    "JaccardLoss_multilabel": _loss(lambda L: L.JaccardLoss(mode="multilabel"), _seg_multilabel, conv=True),
    "TverskyLoss": _loss(lambda L: L.TverskyLoss(), _binary, out=1, post="flat"),
    "FocalTverskyLoss": _loss(lambda L: L.FocalTverskyLoss(gamma=2.0), _binary, out=1, post="flat"),
    "LDAMLoss": _loss(lambda L: L.LDAMLoss(num_class_list=[1, 2, 3]), _labels),
    "BiTemperedLogisticLoss": _loss(lambda L: L.BiTemperedLogisticLoss(t1=0.5, t2=2.0, label_smooth=0.1), _labels),
    "LovaszHingeLoss": _loss(lambda L: L.LovaszHingeLoss(per_image=True), lambda: _binary((2, 4, 4)), out=1,
                             conv=True, post=None),
    "SoftF1Loss": _loss(lambda L: L.SoftF1Loss(), _binary, out=1, post="sigmoid_flat"),
    "FocalCosineLoss": _loss(lambda L: L.FocalCosineLoss(), _labels),
}
