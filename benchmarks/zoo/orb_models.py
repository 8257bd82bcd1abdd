"""orb-models 0.5.5 (Orbital Materials): the Orb interatomic potentials, built from the library's
own architecture functions and constructors with tiny sizes and random weights (no checkpoint:
``load_model`` / ``cached_path`` never run), on tiny ASE structures featurised by the library's
``atomic_system.ase_atoms_to_atom_graphs`` (``knn_scipy`` edges on CPU) and batched by
``base.batch_graphs``, as the README's "Direct usage" does.

Structures: rattled fcc Cu (``bulk('Cu', 'fcc', a=3.58, cubic=True)``, 4 atoms, periodic),
rock-salt NaCl (2 atoms, periodic), ``molecule('CH3CH2Cl')`` (8 atoms, no cell: the net-torque
removal path), ``molecule('C6H6')`` with ``atoms.info['charge'] / ['spin']`` (the OrbMol input).
Train targets are put where ``AseSqliteDataset`` puts them (``atoms.info['node_targets']['forces']``,
``['graph_targets']['energy' / 'stress']``), random. Sizes: latent 16, base MLP hidden 32 (depth
2), head MLP hidden 16 (depth 1), 2 message-passing steps; ``SystemConfig(radius=6.0,
max_num_neighbors=20)`` (120 for the "inf" models).

Models (34):
- ``orb_v3_conservative_architecture`` (ConservativeForcefieldRegressor: energy + confidence heads,
  forces / stress / rotational gradient by ``torch.autograd.grad`` inside the forward, ZBL pair
  repulsion, Bessel RBF x spherical harmonics edge features, RMSNorm MLPs, SiLU): ``predict`` on Cu,
  on a Cu+NaCl batch, with ``split=True``, the raw ``forward``; the "inf" neighbour setting; no
  stress on the molecule; the OrbMol variant (``has_charge_spin_cond=True``, ``has_stress=False``)
  on charged benzene; the training-loss variants: equigrad (``loss_weights`` on
  ``rotational_grad``), extra direct force / stress heads distilled from the gradients
  (``distill_direct_heads``), ``FixAtoms`` constraints with MAE force loss, MSE force loss;
- ``orb_v3_direct_architecture`` (DirectForcefieldRegressor: energy, forces, stress, confidence
  heads): ``predict`` on Cu, the molecule (torque removal), a mixed periodic + molecule batch,
  ``split=True``, raw ``forward``; no stress; OrbMol (charge / spin conditioner); a hand-built one
  with ``checkpoint='non-reentrant'`` MLPs; MSE / MAE head losses with head dropout and an
  exponential-bin ``ConfidenceHead``; a frozen backbone (``model_requires_grad=False``,
  ``heads_require_grad``); no pair repulsion;
- ``orb_v2_architecture(num_message_passing_steps=2)`` (its fixed 256 widths; ``GraphHead`` stress,
  Gaussian RBF + ``UnitVector``, SSP, LayerNorm): ``predict`` on Cu, on the molecule, ``forward``;
- ``MoleculeGNS`` alone: the v3 backbone's forward; ``expects_atom_type_embedding`` (k-hot
  ``AtomEmbeddingBag``) with its own noise-target ``loss``; concatenative charge / spin
  conditioning on nodes and edges (``lin_emb``); softmax attention gate; no embedding table
  (one-hot input) with ``ExpNormalSmearing`` RBF;
- components as the model calls them on a graph: ``ZBLBasis(compute_gradients=True)``,
  ``SphericalHarmonics(lmax=3, normalization='integral')`` with ``BesselBasis`` and ``get_cutoff``,
  ``ChargeSpinConditioner`` (``rand_emb`` / ``pos_emb``).

Eval: ``model.predict(graph)`` as the README and ``ORBCalculator.calculate`` call it (conservative
models under ``torch.enable_grad()``: their forward differentiates the energy, which the
calculator runs with gradients on), or ``model(graph)`` where named. Train: ``model.loss(graph).loss``,
what ``finetune.py``'s step computes before ``backward`` (the ``ModelOutput.log`` metrics are
computed inside it); ``mean_loss_module`` for the components.

    pip install --no-deps orb-models==0.5.5 dm-tree==0.1.8

(ase, numpy, scipy, tqdm already installed. ``dm-tree`` is a compiled wheel with no dependencies;
``base`` imports ``tree`` at its top.)

Stubbed: ``cached_path`` (``pretrained`` imports it at its top to download checkpoints; the
architecture functions used here never call it; the real package would pull boto3 / google-cloud /
huggingface_hub). ``cuml`` is imported in a ``try`` (GPU edge builder), not used.

Left out: the named pretrained loaders (``orb_v3_conservative_inf_omat`` etc.: they download
weights; the architecture functions they call are in), ``load_model``'s ``set_torch_precision`` and
``model.compile``, ``ORBCalculator`` itself (numpy / ASE around ``predict``, which is in),
``AseSqliteDataset`` (an sqlite file; its target layout is copied), ``rotate_randomly`` (numpy
augmentation on ``ase.Atoms``), the graph construction (``compute_pbc_radius_graph``: scipy KDTree
on the host, before the model).
"""

import functools

PACKAGE = "orb_models"
DISTRIBUTION = "orb-models"

mean_loss_module = None  # set by ZooSuite
stub_modules = None  # set by ZooSuite

_TINY = dict(latent_dim=16, base_mlp_hidden_dim=32, base_mlp_depth=2, head_mlp_hidden_dim=16,
             head_mlp_depth=1, num_message_passing_steps=2)


def before_build():
    import sys

    if "cached_path" in sys.modules and getattr(sys.modules["cached_path"], "__file__", None):
        return
    stub_modules({"cached_path": (("cached_path",), ())}, "orb_models.forcefield.pretrained")


def warm_up():
    before_build()
    import torch  # noqa: F401

    import orb_models.forcefield.atomic_system  # noqa: F401
    import orb_models.forcefield.pretrained  # noqa: F401


# --- data -------------------------------------------------------------------------------------

def _atoms(kind, targets=True, fix=False):
    import numpy as np
    from ase.build import bulk, molecule
    from ase.constraints import FixAtoms

    rng = np.random.default_rng({"Cu": 0, "NaCl": 1, "mol": 2, "benzene": 3}[kind])
    if kind == "Cu":
        atoms = bulk("Cu", "fcc", a=3.58, cubic=True)
    elif kind == "NaCl":
        atoms = bulk("NaCl", "rocksalt", a=5.64)
    elif kind == "mol":
        atoms = molecule("CH3CH2Cl")
    else:
        atoms = molecule("C6H6")
    atoms.positions += rng.normal(0, 0.05, atoms.positions.shape)
    info = {}
    if kind == "benzene":
        info["charge"] = 1.0
        info["spin"] = 1.0
    if targets:
        import torch

        n = len(atoms)
        info["node_targets"] = {"forces": torch.tensor(rng.normal(0, 0.5, (n, 3)), dtype=torch.float32)}
        info["graph_targets"] = {
            "energy": torch.tensor([-3.5 * n + rng.normal()], dtype=torch.float32),
            "stress": torch.tensor(rng.normal(0, 0.01, 6), dtype=torch.float32),
        }
    atoms.info.update(info)
    if fix:
        atoms.set_constraint(FixAtoms(indices=[0]))
    return atoms


def _graph(model_or_config, *kinds, targets=True, fix=False, k_hot=False):
    from orb_models.forcefield import atomic_system
    from orb_models.forcefield.base import batch_graphs
    from orb_models.forcefield.featurization_utilities import get_atom_embedding

    config = getattr(model_or_config, "system_config", model_or_config)
    graphs = []
    for kind in kinds:
        atoms = _atoms(kind, targets, fix)
        if k_hot:
            atoms.info["node_features"] = {"atomic_numbers_embedding": get_atom_embedding(atoms, k_hot=True)}
        graphs.append(atomic_system.ase_atoms_to_atom_graphs(atoms, config, edge_method="knn_scipy"))
    return graphs[0] if len(graphs) == 1 else batch_graphs(graphs)


def _config(inf=False):
    from orb_models.forcefield.atomic_system import SystemConfig

    return SystemConfig(radius=6.0, max_num_neighbors=120 if inf else 20)


# --- wrappers -----------------------------------------------------------------------------------

@functools.cache
def _wrappers():
    import torch
    from torch import nn

    class Predict(nn.Module):
        """``model.predict(graph, split=...)`` (README / ``ORBCalculator.calculate``); ``grad``:
        under ``torch.enable_grad()`` (a conservative model differentiates its energy)."""

        def __init__(self, model, split=False, grad=False):
            super().__init__()
            self.model = model
            self.split = split
            self.grad = grad

        def forward(self, graph):
            if self.grad:
                with torch.enable_grad():
                    return self.model.predict(graph, split=self.split)
            return self.model.predict(graph, split=self.split)

    class Forward(nn.Module):
        """``model(graph)``: the normalised head outputs (and the GNS features)."""

        def __init__(self, model, grad=False):
            super().__init__()
            self.model = model
            self.grad = grad

        def forward(self, graph):
            if self.grad:
                with torch.enable_grad():
                    return self.model(graph)
            return self.model(graph)

    class TrainStep(nn.Module):
        """``finetune.py``'s step up to ``backward``: ``model.loss(batch).loss``."""

        def __init__(self, model):
            super().__init__()
            self.model = model
            object.__setattr__(self, "__wrapped__", model)

        def forward(self, graph):
            return self.model.loss(graph).loss

    return Predict, Forward, TrainStep


def _use(model, graph, mode, how="predict", grad=False, split=False):
    Predict, Forward, TrainStep = _wrappers()
    if mode == "train" and hasattr(model, "loss"):
        return TrainStep(model), (graph,), {}
    if how == "forward":
        fn = Forward(model, grad=grad)
    else:
        fn = Predict(model, split=split, grad=grad)
    if mode == "train":
        fn = mean_loss_module()(fn)
    return fn, (graph,), {}


# --- architectures ------------------------------------------------------------------------------

def _v3_conservative(inf=False, **kw):
    from orb_models.forcefield import pretrained

    args = dict(_TINY)
    args.update(kw)
    return pretrained.orb_v3_conservative_architecture(device="cpu", system_config=_config(inf), **args)


def _v3_direct(inf=False, **kw):
    from orb_models.forcefield import pretrained

    args = dict(_TINY)
    args.update(kw)
    return pretrained.orb_v3_direct_architecture(device="cpu", system_config=_config(inf), **args)


def _gns(latent=16, hidden=32, steps=2, **kw):
    from orb_models.forcefield.angular import SphericalHarmonics
    from orb_models.forcefield.gns import MoleculeGNS
    from orb_models.forcefield.rbf import BesselBasis

    args = dict(
        latent_dim=latent, num_message_passing_steps=steps, num_mlp_layers=2, mlp_hidden_dim=hidden,
        rbf_transform=BesselBasis(r_max=6.0, num_bases=8),
        angular_transform=SphericalHarmonics(lmax=3, normalize=True, normalization="component"),
        outer_product_with_cutoff=True, use_embedding=True,
        interaction_params={"distance_cutoff": True, "attention_gate": "sigmoid"},
        node_feature_names=["feat"], edge_feature_names=["feat"], activation="silu", mlp_norm="rms_norm",
    )
    args.update(kw)
    return MoleculeGNS(**args)


def _direct_heads(latent=16, hidden=16, stress=True, energy_loss="huber_0.01", forces_loss="condhuber_0.01",
                  dropout=None, binning="linear"):
    from orb_models.forcefield.forcefield_heads import ConfidenceHead, EnergyHead, ForceHead, StressHead

    heads = {
        "energy": EnergyHead(latent_dim=latent, num_mlp_layers=1, mlp_hidden_dim=hidden, predict_atom_avg=True,
                             activation="silu", loss_type=energy_loss, dropout=dropout),
        "forces": ForceHead(latent_dim=latent, num_mlp_layers=1, mlp_hidden_dim=hidden, remove_mean=True,
                            remove_torque_for_nonpbc_systems=True, activation="silu", loss_type=forces_loss,
                            dropout=dropout),
        "confidence": ConfidenceHead(latent_dim=latent, num_mlp_layers=1, mlp_hidden_dim=hidden, activation="silu",
                                     dropout=dropout, binning_scale=binning),
    }
    if stress:
        heads["stress"] = StressHead(latent_dim=latent, num_mlp_layers=1, mlp_hidden_dim=hidden,
                                     node_aggregation="mean", activation="silu", loss_type=energy_loss,
                                     dropout=dropout)
    return heads


# conservative ---------------------------------------------------------------------------------

def _cons_cu(mode):
    m = _v3_conservative()
    return _use(m, _graph(m, "Cu"), mode, grad=True)


def _cons_batch(mode):
    m = _v3_conservative()
    return _use(m, _graph(m, "Cu", "NaCl"), mode, grad=True)


def _cons_split(mode):
    m = _v3_conservative()
    return _use(m, _graph(m, "Cu", "NaCl"), mode, grad=True, split=True)


def _cons_forward(mode):
    m = _v3_conservative()
    return _use(m, _graph(m, "Cu"), mode, how="forward", grad=True)


def _cons_inf(mode):
    m = _v3_conservative(inf=True)
    return _use(m, _graph(m, "NaCl"), mode, grad=True)


def _cons_nostress_mol(mode):
    m = _v3_conservative(has_stress=False)
    return _use(m, _graph(m, "mol"), mode, grad=True)


def _cons_omol(mode):
    m = _v3_conservative(has_charge_spin_cond=True, has_stress=False)
    return _use(m, _graph(m, "benzene"), mode, grad=True)


def _cons_equigrad(mode):
    m = _v3_conservative()
    m.loss_weights = {"energy": 1.0, "grad_forces": 1.0, "grad_stress": 1.0, "rotational_grad": 0.1}
    return _use(m, _graph(m, "Cu", "NaCl"), mode, grad=True)


def _cons_distill(mode):
    from orb_models.forcefield.conservative_regressor import ConservativeForcefieldRegressor

    heads = _direct_heads()
    m = ConservativeForcefieldRegressor(
        heads=heads, model=_gns(), loss_weights={"energy": 1.0, "grad_forces": 1.0, "grad_stress": 1.0,
                                                 "forces": 0.5, "stress": 0.5, "confidence": 0.1},
        distill_direct_heads=True, pair_repulsion=True, system_config=_config())
    return _use(m, _graph(m, "Cu", "NaCl"), mode, grad=True)


def _cons_fixatoms(mode):
    from orb_models.forcefield.conservative_regressor import ConservativeForcefieldRegressor
    from orb_models.forcefield.forcefield_heads import EnergyHead

    m = ConservativeForcefieldRegressor(
        heads={"energy": EnergyHead(latent_dim=16, num_mlp_layers=1, mlp_hidden_dim=16, loss_type="mae",
                                    activation="silu")},
        model=_gns(), ensure_grad_loss_weights=False, forces_loss_type="mae", pair_repulsion=False,
        system_config=_config())
    return _use(m, _graph(m, "Cu", fix=True), mode, grad=True)


def _cons_mse(mode):
    from orb_models.forcefield.conservative_regressor import ConservativeForcefieldRegressor
    from orb_models.forcefield.forcefield_heads import EnergyHead

    m = ConservativeForcefieldRegressor(
        heads={"energy": EnergyHead(latent_dim=16, num_mlp_layers=1, mlp_hidden_dim=16, loss_type="mse",
                                    predict_atom_avg=False, activation="ssp")},
        model=_gns(activation="ssp", mlp_norm="layer_norm"),
        loss_weights={"energy": 1.0, "grad_forces": 10.0, "grad_stress": 100.0},
        forces_loss_type="mse", online_normalisation=False, pair_repulsion=True, system_config=_config())
    return _use(m, _graph(m, "NaCl", "Cu"), mode, grad=True)


# direct ---------------------------------------------------------------------------------------

def _direct_cu(mode):
    m = _v3_direct()
    return _use(m, _graph(m, "Cu"), mode)


def _direct_mol(mode):
    m = _v3_direct(has_stress=mode == "eval")  # train: no stress head on a molecule (no volume)
    return _use(m, _graph(m, "mol"), mode)


def _direct_mixed_batch(mode):
    m = _v3_direct(has_stress=mode == "eval")
    return _use(m, _graph(m, "Cu", "mol", "NaCl"), mode)


def _direct_split(mode):
    m = _v3_direct()
    return _use(m, _graph(m, "Cu", "NaCl"), mode, split=True)


def _direct_forward(mode):
    m = _v3_direct()
    return _use(m, _graph(m, "Cu"), mode, how="forward")


def _direct_inf_nostress(mode):
    m = _v3_direct(inf=True, has_stress=False)
    return _use(m, _graph(m, "mol"), mode)


def _direct_omol(mode):
    m = _v3_direct(has_charge_spin_cond=True, has_stress=False)
    return _use(m, _graph(m, "benzene"), mode)


def _direct_checkpoint(mode):
    from orb_models.forcefield.direct_regressor import DirectForcefieldRegressor

    m = DirectForcefieldRegressor(heads=_direct_heads(), model=_gns(checkpoint="non-reentrant"),
                                  pair_repulsion=True, system_config=_config())
    return _use(m, _graph(m, "Cu", "NaCl"), mode)


def _direct_losses(mode):
    from orb_models.forcefield.direct_regressor import DirectForcefieldRegressor

    m = DirectForcefieldRegressor(
        heads=_direct_heads(energy_loss="mse", forces_loss="mae", dropout=0.1, binning="exponential"),
        model=_gns(), loss_weights={"energy": 1.0, "forces": 1.0, "stress": 0.1, "confidence": 0.1},
        pair_repulsion=True, system_config=_config())
    return _use(m, _graph(m, "Cu", "NaCl"), mode)


def _direct_frozen(mode):
    from orb_models.forcefield.direct_regressor import DirectForcefieldRegressor

    m = DirectForcefieldRegressor(
        heads=_direct_heads(forces_loss="huber_0.01"), model=_gns(), pair_repulsion=True, model_requires_grad=False,
        heads_require_grad={"energy": True, "forces": True, "stress": True, "confidence": False},
        system_config=_config())
    return _use(m, _graph(m, "Cu", "NaCl"), mode)


def _direct_norepulsion(mode):
    from orb_models.forcefield.direct_regressor import DirectForcefieldRegressor

    m = DirectForcefieldRegressor(heads=_direct_heads(stress=False), model=_gns(activation="gelu"),
                                  pair_repulsion=False, system_config=_config())
    return _use(m, _graph(m, "mol"), mode)


# v2 -------------------------------------------------------------------------------------------

def _v2(kind, how="predict"):
    def make(mode):
        from orb_models.forcefield import pretrained

        m = pretrained.orb_v2_architecture(num_message_passing_steps=2, device="cpu", system_config=_config())
        return _use(m, _graph(m, kind), mode, how=how)

    return make


# MoleculeGNS ----------------------------------------------------------------------------------

def _gns_forward(mode):
    m = _gns()
    return _use(m, _graph(_config(), "Cu", "NaCl", targets=False), mode, how="forward") if mode == "eval" \
        else (mean_loss_module()(m), (_graph(_config(), "Cu", "NaCl", targets=False),), {})


def _gns_atom_type_embedding(mode):
    import torch

    m = _gns(expects_atom_type_embedding=True, num_node_out_features=3)
    g = _graph(_config(), "mol", targets=False, k_hot=True)
    g.node_targets["noise_target"] = torch.randn(g.positions.shape[0], 3)
    return _use(m, g, mode, how="forward")


def _gns_concat_conditioning(mode):
    from orb_models.forcefield.nn_util import ChargeSpinConditioner

    cond = ChargeSpinConditioner(16, embedding_type="lin_emb", emits_node_embs=True, emits_edge_embs=True)
    m = _gns(conditioner=cond, conditioning_type="concatenative")
    g = _graph(_config(), "benzene", targets=False)
    return (m, (g,), {}) if mode == "eval" else (mean_loss_module()(m), (g,), {})


def _gns_softmax_gate(mode):
    m = _gns(interaction_params={"distance_cutoff": False, "attention_gate": "softmax"})
    g = _graph(_config(), "Cu", "mol", targets=False)
    return (m, (g,), {}) if mode == "eval" else (mean_loss_module()(m), (g,), {})


def _gns_onehot_expnorm(mode):
    from orb_models.forcefield.rbf import ExpNormalSmearing

    rbf = ExpNormalSmearing(cutoff_lower=0.0, cutoff_upper=6.0, num_rbf=8)
    rbf.num_bases = 8  # MoleculeGNS reads ``num_bases``; ExpNormalSmearing names it ``num_rbf``
    m = _gns(use_embedding=False, rbf_transform=rbf, angular_transform=None, outer_product_with_cutoff=False,
             activation="ssp", mlp_norm="layer_norm")
    g = _graph(_config(), "NaCl", targets=False)
    return (m, (g,), {}) if mode == "eval" else (mean_loss_module()(m), (g,), {})


# components -----------------------------------------------------------------------------------

@functools.cache
def _component_wrappers():
    from torch import nn

    class OnGraph(nn.Module):
        """A component applied to a graph as the model applies it."""

        def __init__(self, fn, kind):
            super().__init__()
            self.fn = fn
            self.kind = kind

        def forward(self, graph):
            if self.kind == "edges":
                from orb_models.forcefield.nn_util import get_cutoff

                vectors = graph.edge_features["vectors"]
                lengths = vectors.norm(dim=1)
                sh = self.fn[0](vectors)
                rbf = self.fn[1](lengths)
                return get_cutoff(lengths) * (rbf[:, :, None] * sh[:, None, :]).flatten(1)
            return self.fn(graph)

    return OnGraph


def _zbl(mode):
    from orb_models.forcefield.pair_repulsion import ZBLBasis

    fn = _component_wrappers()(ZBLBasis(p=6, node_aggregation="sum", compute_gradients=True), "plain")
    g = _graph(_config(), "NaCl", "Cu", targets=False)
    if mode == "train":  # a loss on its analytic energy / forces / stress: through the edge vectors
        g.edge_features["vectors"].requires_grad_(True)
    return (fn, (g,), {}) if mode == "eval" else (mean_loss_module()(fn), (g,), {})


def _edge_features(mode):
    import torch
    from orb_models.forcefield.angular import SphericalHarmonics
    from orb_models.forcefield.rbf import BesselBasis

    parts = torch.nn.ModuleList([SphericalHarmonics(lmax=3, normalize=True, normalization="integral"),
                                 BesselBasis(r_max=6.0, num_bases=8, trainable=True)])
    fn = _component_wrappers()(parts, "edges")
    g = _graph(_config(), "Cu", targets=False)
    return (fn, (g,), {}) if mode == "eval" else (mean_loss_module()(fn), (g,), {})


def _conditioner(kind):
    def make(mode):
        from orb_models.forcefield.nn_util import ChargeSpinConditioner

        cond = ChargeSpinConditioner(16, embedding_type=kind, emits_node_embs=True, emits_edge_embs=True)
        fn = _component_wrappers()(cond, "plain")
        g = _graph(_config(), "benzene", "benzene", targets=False)
        return (fn, (g,), {}) if mode == "eval" else (mean_loss_module()(fn), (g,), {})

    return make


MODELS = {
    "v3_conservative/predict_Cu": _cons_cu,
    "v3_conservative/predict_batch": _cons_batch,
    "v3_conservative/predict_split": _cons_split,
    "v3_conservative/forward": _cons_forward,
    "v3_conservative_inf/predict_NaCl": _cons_inf,
    "v3_conservative_nostress/predict_molecule": _cons_nostress_mol,
    "v3_conservative_omol/predict_charged": _cons_omol,
    "v3_conservative/equigrad": _cons_equigrad,
    "v3_conservative/distill_direct_heads": _cons_distill,
    "v3_conservative/fixatoms_mae": _cons_fixatoms,
    "v3_conservative/mse_ssp": _cons_mse,
    "v3_direct/predict_Cu": _direct_cu,
    "v3_direct/predict_molecule": _direct_mol,
    "v3_direct/predict_mixed_batch": _direct_mixed_batch,
    "v3_direct/predict_split": _direct_split,
    "v3_direct/forward": _direct_forward,
    "v3_direct_inf_nostress/predict_molecule": _direct_inf_nostress,
    "v3_direct_omol/predict_charged": _direct_omol,
    "v3_direct/checkpoint_nonreentrant": _direct_checkpoint,
    "v3_direct/mse_mae_dropout_expbins": _direct_losses,
    "v3_direct/frozen_backbone": _direct_frozen,
    "v3_direct/no_repulsion_gelu": _direct_norepulsion,
    "v2/predict_Cu": _v2("Cu"),
    "v2/predict_molecule": _v2("mol"),
    "v2/forward": _v2("NaCl", how="forward"),
    "MoleculeGNS/forward": _gns_forward,
    "MoleculeGNS/atom_type_embedding_noise_loss": _gns_atom_type_embedding,
    "MoleculeGNS/concat_charge_spin": _gns_concat_conditioning,
    "MoleculeGNS/softmax_gate": _gns_softmax_gate,
    "MoleculeGNS/onehot_expnorm": _gns_onehot_expnorm,
    "ZBLBasis": _zbl,
    "SphericalHarmonics_BesselBasis": _edge_features,
    "ChargeSpinConditioner/rand_emb": _conditioner("rand_emb"),
    "ChargeSpinConditioner/pos_emb": _conditioner("pos_emb"),
}
