"""torchattacks (Adversarial-Attacks-PyTorch) 3.5.1, import name ``torchattacks``: its adversarial
attacks, each an ``Attack`` object built on a user's classifier and called as ``atk(images, labels)``
(README: ``atk = torchattacks.PGD(model, eps=8/255, alpha=2/255, steps=4)``), on a tiny CNN
classifier written here (conv 3->8 + BatchNorm + ReLU + max-pool, conv 8->16 + ReLU, global average
pool, dropout, linear to 5 classes; 3x16x16 images in [0, 1], batch 2), random weights, no download.
The labels are the model's own predictions on the clean batch (an attack is run on correctly
classified images: with random labels most attacks, MultiAttack and AutoAttack above all, would stop
at once on an already "fooled" batch).

Attacks (43 entries), iteration counts cut to 2-3 steps (queries, restarts, population sizes
likewise), other arguments the library's defaults unless named:
- none: ``VANILA``, ``GN``;
- Linf: ``FGSM``, ``BIM``, ``RFGSM``, ``PGD`` (default; README targeted modes: random target labels,
  least-likely labels, a ``target_map_function``, and the user-supplied labels
  ``set_mode_targeted_by_label``; with ``set_normalization_used(mean, std)`` on a model that
  normalises inside), ``EOTPGD``, ``FFGSM``, ``TPGD``, ``MIFGSM``, ``UPGD`` (DLR loss, random
  start), ``APGD`` (CE; DLR), ``APGDT``, ``DIFGSM``, ``TIFGSM``, ``Jitter``, ``NIFGSM``, ``PGDRS``,
  ``SINIFGSM``, ``VMIFGSM``, ``VNIFGSM``, ``SPSA``, ``PIFGSM``, ``PIFGSMPP``;
- L2: ``CW``, ``PGDL2``, ``DeepFool``, ``PGDRSL2``, ``EADEN``; L1: ``EADL1``; L0: ``SparseFool``,
  ``OnePixel`` (scipy's differential evolution, vendored), ``Pixle``, ``JSMA``;
- Linf / L2: ``FAB`` (Linf; L2; ``multi_targeted``), ``Square`` (Linf; L2), ``AutoAttack``
  (``standard``, Linf);
- wrapper: ``MultiAttack`` (README "Strong attacks": FGSM + PGD with random start).

Eval: the attack's ``forward(images, labels)`` (the compiled call; it runs the model), with the
model in eval mode as ``Attack.__call__`` puts it by default, inside ``torch.enable_grad()`` as the
library's own test (``code_coverage/test_atks.py``) calls each attack (the eval capture runs with
gradients off; every gradient attack needs them): a step module ``AttackForward(net, atk)``. Train: the README's adversarial
training demo ("Adversarial Training (MNIST)") as a step module: ``adv = atk(images, labels)``
(the whole ``Attack.__call__``: model to eval, ``forward``, model back to train), then the cross
entropy of the model in train mode on the adversarial batch against the labels.

    pip install --no-deps torchattacks==3.5.1

``torchattacks`` imports only torch, numpy and scipy (``scipy.optimize`` in the vendored
differential evolution), all already installed; its declared dependencies torchvision, requests
and tqdm are not imported by the package (tqdm only in ``LGV``, in a ``try``). Nothing stubbed,
torchvision neither installed nor imported.

Left out: ``LGV`` (collects models by SGD epochs over a ``trainloader``: a training loop, then a
BIM on the collected ensemble), ``Attack.save`` / ``load`` (DataLoader loops writing to disk).
Hacks: ``AutoAttack`` hard-codes its sub-attacks' budgets (APGD / APGDT / FAB 10 steps,
Square 5000 queries); after building, the sub-attacks' ``steps`` / ``n_queries`` are set to 2 / 5
through ``atk._autoattack.attacks`` so a capture stays within the time limit; likewise
``SparseFool``'s inner ``DeepFool(model)`` (built with the default 50 steps) gets ``steps = 3``. Measured first as it
came, before any rule looked at it.
"""

PACKAGE = "torchattacks"

_B = 2  # batch
_C = 5  # classes
_HW = 16  # image side


def warm_up():
    import torch  # noqa: F401
    import torchattacks  # noqa: F401


def _net(normalize=False):
    import torch
    from torch import nn

    class Normalize(nn.Module):
        def __init__(self, mean, std):
            super().__init__()
            self.register_buffer("mean", torch.tensor(mean).reshape(1, 3, 1, 1))
            self.register_buffer("std", torch.tensor(std).reshape(1, 3, 1, 1))

        def forward(self, x):
            return (x - self.mean) / self.std

    class TinyCNN(nn.Module):
        def __init__(self):
            super().__init__()
            self.features = nn.Sequential(
                nn.Conv2d(3, 8, 3, padding=1), nn.BatchNorm2d(8), nn.ReLU(), nn.MaxPool2d(2),
                nn.Conv2d(8, 16, 3, padding=1), nn.ReLU(), nn.AdaptiveAvgPool2d(1), nn.Flatten(),
            )
            self.drop = nn.Dropout(0.1)
            self.fc = nn.Linear(16, _C)

        def forward(self, x):
            return self.fc(self.drop(self.features(x)))

    net = TinyCNN()
    if normalize:
        net = nn.Sequential(Normalize([0.4914, 0.4822, 0.4465], [0.2471, 0.2435, 0.2616]), net)
    return net


def _batch(net):
    import torch

    images = torch.rand(_B, 3, _HW, _HW)
    net.eval()
    with torch.no_grad():
        labels = net(images).argmax(1)
    return images, labels


def _adv_train_step():
    import torch.nn.functional as F
    from torch import nn

    class AdvTrainStep(nn.Module):
        """The README's adversarial training: attack the batch, then the loss on it."""

        def __init__(self, net, atk):
            super().__init__()
            self.net = net
            self.atk = atk

        def forward(self, images, labels):
            adv_images = self.atk(images, labels)
            return F.cross_entropy(self.net(adv_images), labels)

    return AdvTrainStep


def _attack_eval():
    import torch
    from torch import nn

    class AttackForward(nn.Module):
        """The attack's ``forward`` with gradients on (the library's own test wraps each attack call in
        ``torch.enable_grad()``: the attacks differentiate the model's loss w.r.t. the images)."""

        def __init__(self, net, atk):
            super().__init__()
            self.net = net
            self.atk = atk

        def forward(self, images, labels):
            with torch.enable_grad():
                return self.atk.forward(images, labels)

    return AttackForward


def _attack(build, normalize=False):
    def make(mode):
        net = _net(normalize)
        images, labels = _batch(net)
        atk = build(net)
        if mode == "train":
            return _adv_train_step()(net, atk), (images, labels), {}
        return _attack_eval()(net, atk), (images, labels), {}

    return make


def _ta():
    import torchattacks

    return torchattacks


# --- builders (one per entry) ----------------------------------------------------------------------

def _pgd_targeted(how):
    def build(net):
        atk = _ta().PGD(net, eps=8 / 255, alpha=2 / 255, steps=2)
        if how == "random":
            atk.set_mode_targeted_random(quiet=True)
        elif how == "least_likely":
            atk.set_mode_targeted_least_likely(kth_min=1, quiet=True)
        elif how == "function":
            atk.set_mode_targeted_by_function(target_map_function=lambda images, labels: (labels + 1) % _C,
                                              quiet=True)
        elif how == "label":
            atk.set_mode_targeted_by_label(quiet=True)
        return atk

    return build


def _pgd_normalized(net):
    atk = _ta().PGD(net, eps=8 / 255, alpha=2 / 255, steps=2)
    atk.set_normalization_used(mean=[0.4914, 0.4822, 0.4465], std=[0.2471, 0.2435, 0.2616])
    return atk


def _autoattack(net):
    atk = _ta().AutoAttack(net, norm="Linf", eps=8 / 255, version="standard", n_classes=_C, seed=0)
    for sub in atk._autoattack.attacks:
        if hasattr(sub, "n_queries"):
            sub.n_queries = 5
        else:
            sub.steps = 2
    return atk


def _sparsefool(net):
    atk = _ta().SparseFool(net, steps=2, lam=3, overshoot=0.02)
    atk.deepfool.steps = 3  # its inner DeepFool(model) has the default 50 steps
    return atk


def _multiattack(net):
    ta = _ta()
    atk1 = ta.FGSM(net, eps=8 / 255)
    atk2 = ta.PGD(net, eps=8 / 255, alpha=2 / 255, steps=2, random_start=True)
    return ta.MultiAttack([atk1, atk2])


MODELS = {
    # none
    "VANILA": _attack(lambda net: _ta().VANILA(net)),
    "GN": _attack(lambda net: _ta().GN(net, std=0.1)),
    # Linf
    "FGSM": _attack(lambda net: _ta().FGSM(net, eps=8 / 255)),
    "BIM": _attack(lambda net: _ta().BIM(net, eps=8 / 255, alpha=2 / 255, steps=2)),
    "RFGSM": _attack(lambda net: _ta().RFGSM(net, eps=8 / 255, alpha=2 / 255, steps=2)),
    "PGD": _attack(lambda net: _ta().PGD(net, eps=8 / 255, alpha=2 / 255, steps=2)),
    "PGD_targeted_random": _attack(_pgd_targeted("random")),
    "PGD_targeted_least_likely": _attack(_pgd_targeted("least_likely")),
    "PGD_targeted_function": _attack(_pgd_targeted("function")),
    "PGD_targeted_label": _attack(_pgd_targeted("label")),
    "PGD_normalization": _attack(_pgd_normalized, normalize=True),
    "EOTPGD": _attack(lambda net: _ta().EOTPGD(net, eps=8 / 255, alpha=2 / 255, steps=2, eot_iter=2)),
    "FFGSM": _attack(lambda net: _ta().FFGSM(net, eps=8 / 255, alpha=10 / 255)),
    "TPGD": _attack(lambda net: _ta().TPGD(net, eps=8 / 255, alpha=2 / 255, steps=2)),
    "MIFGSM": _attack(lambda net: _ta().MIFGSM(net, eps=8 / 255, alpha=2 / 255, steps=2, decay=1.0)),
    "UPGD_dlr": _attack(lambda net: _ta().UPGD(net, eps=8 / 255, alpha=2 / 255, steps=2, random_start=True,
                                               loss="dlr")),
    "APGD_ce": _attack(lambda net: _ta().APGD(net, norm="Linf", eps=8 / 255, steps=3, loss="ce")),
    "APGD_dlr_L2": _attack(lambda net: _ta().APGD(net, norm="L2", eps=0.5, steps=3, loss="dlr")),
    "APGDT": _attack(lambda net: _ta().APGDT(net, norm="Linf", eps=8 / 255, steps=3, n_classes=_C)),
    "DIFGSM": _attack(lambda net: _ta().DIFGSM(net, eps=8 / 255, alpha=2 / 255, steps=2, decay=0.0,
                                               resize_rate=0.9, diversity_prob=0.5)),
    "TIFGSM": _attack(lambda net: _ta().TIFGSM(net, eps=8 / 255, alpha=2 / 255, steps=2, len_kernel=5)),
    "Jitter": _attack(lambda net: _ta().Jitter(net, eps=8 / 255, alpha=2 / 255, steps=2)),
    "NIFGSM": _attack(lambda net: _ta().NIFGSM(net, eps=8 / 255, alpha=2 / 255, steps=2)),
    "PGDRS": _attack(lambda net: _ta().PGDRS(net, eps=8 / 255, alpha=2 / 255, steps=2, noise_batch_size=2)),
    "SINIFGSM": _attack(lambda net: _ta().SINIFGSM(net, eps=8 / 255, alpha=2 / 255, steps=2, m=2)),
    "VMIFGSM": _attack(lambda net: _ta().VMIFGSM(net, eps=8 / 255, alpha=2 / 255, steps=2, N=2)),
    "VNIFGSM": _attack(lambda net: _ta().VNIFGSM(net, eps=8 / 255, alpha=2 / 255, steps=2, N=2)),
    "SPSA": _attack(lambda net: _ta().SPSA(net, eps=8 / 255, nb_iter=1, nb_sample=4, max_batch_size=4)),
    "PIFGSM": _attack(lambda net: _ta().PIFGSM(net, max_epsilon=16 / 255, num_iter_set=2)),
    "PIFGSMPP": _attack(lambda net: _ta().PIFGSMPP(net, max_epsilon=16 / 255, num_iter_set=2)),
    # L2
    "CW": _attack(lambda net: _ta().CW(net, c=1, kappa=0, steps=3, lr=0.01)),
    "PGDL2": _attack(lambda net: _ta().PGDL2(net, eps=1.0, alpha=0.2, steps=2)),
    "DeepFool": _attack(lambda net: _ta().DeepFool(net, steps=3, overshoot=0.02)),
    "PGDRSL2": _attack(lambda net: _ta().PGDRSL2(net, eps=1.0, alpha=0.2, steps=2, noise_batch_size=2)),
    "EADEN": _attack(lambda net: _ta().EADEN(net, binary_search_steps=2, max_iterations=10)),
    # L1 / L0
    "EADL1": _attack(lambda net: _ta().EADL1(net, binary_search_steps=2, max_iterations=10)),
    "SparseFool": _attack(_sparsefool),
    "OnePixel": _attack(lambda net: _ta().OnePixel(net, pixels=1, steps=2, popsize=2, inf_batch=16)),
    "Pixle": _attack(lambda net: _ta().Pixle(net, x_dimensions=(2, 4), y_dimensions=(2, 4), restarts=2,
                                             max_iterations=2)),
    "JSMA": _attack(lambda net: _ta().JSMA(net, theta=1.0, gamma=0.05)),
    # Linf / L2
    "FAB_Linf": _attack(lambda net: _ta().FAB(net, norm="Linf", eps=8 / 255, steps=2, n_classes=_C)),
    "FAB_L2_multi_targeted": _attack(lambda net: _ta().FAB(net, norm="L2", eps=0.5, steps=2, n_classes=_C,
                                                           multi_targeted=True)),
    "Square_Linf": _attack(lambda net: _ta().Square(net, norm="Linf", eps=8 / 255, n_queries=5)),
    "Square_L2": _attack(lambda net: _ta().Square(net, norm="L2", eps=0.5, n_queries=5)),
    "AutoAttack": _attack(_autoattack),
    # wrapper
    "MultiAttack": _attack(_multiattack),
}
