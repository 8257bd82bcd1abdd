"""MACE (ACEsuit) 0.3.16, pip ``mace-torch``, import name ``mace``: higher-order equivariant
message-passing interatomic potentials, built from code with random weights (no foundation
models, no download), tiny (hidden irreps ``8x0e + 8x1o`` or ``8x0e + 8x1o + 8x2e``,
``MLP_irreps`` ``8x0e``, ``max_ell`` 2-3, correlation 2-3, 1-2 interactions, radial MLP
``[16, 16, 16]``, 4-8 radial functions), as ``tests/test_models.py``, ``test_compile.py``,
``test_lora.py``, ``test_embedding_train.py`` and ``mace.tools.model_script_utils`` (what
``mace_run_train`` builds) configure them. Inputs: a batch of three rattled molecules (H2O,
CH4, CH3OH; H/C/O, ``r_max`` 4 A) or of two periodic cells (strained diamond C and a water
molecule in a 4 A box; ``r_max`` 3 A), each an ``ase.Atoms`` with random reference energy,
forces, stress, charges, dipole and polarizability, turned into ``data.Configuration``
(``config_from_atoms``), ``data.AtomicData.from_config`` and batched by mace's own
``tools.torch_geometric.dataloader.DataLoader``; the models take ``batch.to_dict()``.
Default dtype float64 (mace's ``--default_dtype`` default and its tests), float32 where named.

- ``MACE``: the six interaction classes of ``modules.interaction_classes`` (residual,
  plain, attention-residual, density, density-residual, residual non-linear with
  ``edge_irreps``), radial types bessel / gaussian / chebyshev, one interaction (``max_ell``
  3), ZBL ``pair_repulsion`` with the Agnesi ``distance_transform``, the Soft transform,
  ``use_so3``, ``use_agnostic_product``, ``use_last_readout_only``, ``edge_irreps`` with
  ``use_edge_irreps_first``, ``embedding_specs`` (electronic temperature, total charge and
  spin; ``use_embedding_readout``), ``readout_cls=NonLinearBiasReadoutBlock``,
  ``apply_cutoff=False`` with ``use_reduced_cg=False``, LoRA adapters (``modules.lora.inject_lora``,
  the fine-tuning path), float32, periodic cells with stress and virials;
- ``ScaleShiftMACE``: the ``test_compile.py`` config, the multi-head model of
  ``test_mace_multi_reference`` (two heads, multi-reference E0s, ZBL, Agnesi), periodic with
  ``compute_atomic_stresses`` (edge forces) and with virials, what ``mace_run_train --model
  MACE`` builds (plain first interaction) with the Huber energy/forces/stress loss, float32 with
  the L1/L2 loss, and two built through mace's own compile path, ``tools.compile.prepare``
  (e3nn's TorchScript codegen off, ``simplify`` by ``torch.fx``, ``torch.autograd.grad``
  allowed in the graph);
- ``AtomicDipolesMACE`` (gaussian radials; and called on the ``Batch`` object itself, as
  ``test_dipole_mace`` does), ``AtomicDielectricMACE`` (dipoles and polarizabilities; and with
  ``compute_dielectric_derivatives``, on a batch of one molecule: its vmapped vector-Jacobian
  products assume one graph), ``EnergyDipolesMACE`` (energies, forces, dipoles).

Inputs as mace feeds a compiled model (``prepare_graph`` sets ``positions.requires_grad_``
only when not compiling): the calculator's ``_clone_batch`` sets it on ``positions`` and
``node_attrs`` (eval), ``test_compile.py`` on ``positions`` (train).
Eval: ``model(batch_dict, training=False, ...)``, the output dict, with ``compute_force``
False (energies only) or True (the default; forces by ``torch.autograd.grad`` inside the
forward, run under ``torch.enable_grad()`` as the ASE calculator and ``tools.evaluate`` run
with gradients on), ``compute_stress`` / ``compute_virials`` / ``compute_atomic_stresses`` on
the periodic variants, ``compute_dielectric_derivatives`` on one. Train: the closure of
``tools.train.take_step``: ``output = model(batch_dict, training=True, compute_force=...,
compute_virials=..., compute_stress=...)`` then ``loss_fn(pred=output, ref=batch)`` with mace's
losses (``WeightedEnergyForcesLoss`` mostly; ``WeightedEnergyForcesStressLoss``,
``WeightedEnergyForcesVirialsLoss``, ``UniversalLoss``, ``WeightedHuberEnergyForcesStressLoss``,
``WeightedEnergyForcesL1L2Loss``, ``DipoleSingleLoss``, ``DipolePolarLoss``,
``WeightedEnergyForcesDipoleLoss``), the forward taking ``(batch_dict, batch)``.

    pip install --no-deps mace-torch==0.3.16 torch-ema==0.3
    pip install --no-deps ase==3.29.0 matscipy==1.3.1 prettytable==3.18.0

(e3nn 0.6.0, opt_einsum(-fx), torchmetrics, numpy, scipy, pandas, PyYAML, tqdm, orjson are
above; mace pins e3nn 0.4.4 but imports and runs with 0.6.0.) Stubbed (``stub_modules``, only
when not installed): ``matplotlib`` / ``matplotlib.pyplot`` (``mace.tools`` imports
``mace.tools.train``, which imports ``mace.cli.visualise_train``, which imports pyplot and sets
``plt.rcParams`` at its top; torchmetrics is imported first so that it sees no matplotlib),
``h5py`` (``mace.data.utils`` / ``hdf5_dataset``, HDF5 datasets) and ``lmdb``
(``mace.data.lmdb_dataset`` and the fairchem dataset tools): compiled, for on-disk datasets only.

Left out: ``MACELES`` and ``PolarMACE`` (need the ``les`` / ``graph_longrange`` packages, not on
the index as mace's deps), the deprecated ``BOTNet`` / ``ScaleShiftBOTNet`` (``mace_run_train``
raises for them); cuEquivariance / OpenEquivariance back ends (CUDA kernels) and the LAMMPS
ML-IAP path; ``compute_hessian`` (eval-only, ``vmap`` over autograd in the calculator's
``get_hessian``; no train form); foundation models (``mace_mp`` / ``mace_off`` download
weights); the calculators, the CLI and the data sets (HDF5 / LMDB).
"""

import functools

PACKAGE = "mace"
DISTRIBUTION = "mace-torch"

_ZS = (1, 6, 8)  # H, C, O
_E0S = (-13.6, -1029.8, -2042.6)  # "isolated atom" energies, one per element of _ZS
_HEADS = ["Default", "dft"]


def _prepare():
    import importlib.util

    import torchmetrics  # noqa: F401  (first: its plotting module then sees no matplotlib)

    if importlib.util.find_spec("matplotlib") is None:
        stub_modules(  # noqa: F821 (set by ZooSuite)
            {"matplotlib": ((), ()),
             "matplotlib.pyplot": (("figure", "subplots", "plot", "show", "close", "savefig", "legend"), ())},
            "mace")
        import sys

        plt = sys.modules["matplotlib.pyplot"]
        if getattr(plt, "__file__", None) is None and not hasattr(plt, "rcParams"):
            plt.rcParams = {}  # visualise_train runs plt.rcParams.update(...) at its top
    stubs = {}
    if importlib.util.find_spec("h5py") is None:
        stubs["h5py"] = ((), ("File", "Group", "Dataset"))
    if importlib.util.find_spec("lmdb") is None:
        stubs["lmdb"] = (("open",), ("Environment",))
    if stubs:
        stub_modules(stubs, "mace")  # noqa: F821


def warm_up():
    _prepare()
    import torch  # noqa: F401
    import mace.data  # noqa: F401
    import mace.modules  # noqa: F401
    import mace.tools  # noqa: F401
    import mace.tools.compile  # noqa: F401


# --- inputs -------------------------------------------------------------------------------

def _atoms(kind):
    """Tiny rattled molecules ("mol"; "mol1": one) or periodic cells ("pbc") with random references."""
    import numpy as np
    from ase.build import bulk, molecule

    rng = np.random.default_rng(0)
    if kind == "mol":
        atoms_list = [molecule("H2O"), molecule("CH4"), molecule("CH3OH")]
    elif kind == "mol1":
        atoms_list = [molecule("CH3OH")]
    else:
        diamond = bulk("C", "diamond", a=3.567)
        diamond.set_cell(diamond.get_cell() * 1.02, scale_atoms=True)  # 2% strain: non-zero stress
        water = molecule("H2O", cell=[4.0, 4.0, 4.0], pbc=True)
        water.center()
        atoms_list = [diamond, water]
    for i, atoms in enumerate(atoms_list):
        n = len(atoms)
        atoms.positions += rng.normal(0.0, 0.05, size=(n, 3))
        e0 = sum(_E0S[_ZS.index(z)] for z in atoms.numbers)
        atoms.info["REF_energy"] = e0 + float(rng.normal(0.0, 1.0))
        atoms.arrays["REF_forces"] = rng.normal(0.0, 0.1, size=(n, 3))
        atoms.info["REF_stress"] = rng.normal(0.0, 0.01, size=6)
        atoms.info["REF_virials"] = rng.normal(0.0, 0.1, size=6)
        charges = rng.normal(0.0, 0.3, size=n)
        atoms.arrays["REF_charges"] = charges - charges.mean()
        atoms.info["dipole"] = rng.normal(0.0, 0.5, size=3)
        pol = rng.normal(0.0, 0.2, size=(3, 3))
        atoms.info["polarizability"] = np.eye(3) * 2.0 + (pol + pol.T) / 2
        atoms.info["elec_temp"] = 300.0 + 50.0 * i
        atoms.info["total_charge"] = float(i % 2)
        atoms.info["total_spin"] = float(1 + i % 2)
        atoms.info["head"] = _HEADS[i % 2]
    return atoms_list


_EMBEDDING_SPECS = {  # test_embedding_train's config, small
    "elec_temp": {"type": "continuous", "per": "graph", "in_dim": 1, "emb_dim": 8},
    "total_charge": {"type": "categorical", "per": "graph", "in_dim": 1, "emb_dim": 8,
                     "num_classes": 20, "offset": 10},
    "total_spin": {"type": "categorical", "per": "graph", "in_dim": 1, "emb_dim": 8, "num_classes": 10},
}


def _batch(kind="mol", cutoff=4.0, heads=None, embedding=False, zs=_ZS):
    """(batch_dict, batch): the configs through ``AtomicData.from_config`` and mace's DataLoader."""
    from mace import data, tools
    from mace.data.utils import update_keyspec_from_kwargs
    from mace.tools import torch_geometric

    keydict = tools.DefaultKeys.keydict()
    if embedding:
        keydict["embedding_specs"] = _EMBEDDING_SPECS
    keyspec = update_keyspec_from_kwargs(data.KeySpecification(), keydict)
    table = tools.AtomicNumberTable(list(zs))
    atoms_list = _atoms(kind)
    configs = [data.config_from_atoms(a, key_specification=keyspec) for a in atoms_list]
    if heads:
        for c, a in zip(configs, atoms_list):
            c.head = a.info["head"]
    dataset = [data.AtomicData.from_config(c, z_table=table, cutoff=cutoff, heads=heads) for c in configs]
    loader = torch_geometric.dataloader.DataLoader(dataset=dataset, batch_size=len(dataset),
                                                   shuffle=False, drop_last=False)
    batch = next(iter(loader))
    return batch.to_dict(), batch


# --- models -------------------------------------------------------------------------------

def _dtype(name):
    import torch

    torch.set_default_dtype(getattr(torch, name))  # as mace's run_train / tests set it globally


def _config(**kw):
    """A small MACE / ScaleShiftMACE config (``test_models.py``'s, shrunk)."""
    import numpy as np
    import torch.nn.functional as F
    from e3nn import o3
    from mace import modules

    inter = kw.pop("interaction", "RealAgnosticResidualInteractionBlock")
    first = kw.pop("interaction_first", inter)
    cfg = dict(
        r_max=4.0,
        num_bessel=8,
        num_polynomial_cutoff=5,
        max_ell=2,
        interaction_cls=modules.interaction_classes[inter],
        interaction_cls_first=modules.interaction_classes[first],
        num_interactions=2,
        num_elements=len(_ZS),
        hidden_irreps=o3.Irreps("8x0e + 8x1o"),
        MLP_irreps=o3.Irreps("8x0e"),
        gate=F.silu,
        atomic_energies=np.array(_E0S, dtype=float),
        avg_num_neighbors=4.0,
        atomic_numbers=list(_ZS),
        correlation=3,
        radial_type="bessel",
        radial_MLP=[16, 16, 16],
    )
    if isinstance(kw.get("atomic_energies"), list):  # multi-reference E0s: [heads, elements]
        kw["atomic_energies"] = np.array(kw["atomic_energies"], dtype=float)
    for key in ("hidden_irreps", "MLP_irreps", "edge_irreps"):
        if isinstance(kw.get(key), str):
            kw[key] = o3.Irreps(kw[key])
    if isinstance(kw.get("readout_cls"), str):
        kw["readout_cls"] = modules.readout_classes[kw["readout_cls"]]
    cfg.update(kw)
    return cfg


@functools.cache
def _wrappers():
    import torch
    from torch import nn

    class Evaluate(nn.Module):
        """``model(batch_dict, training=False, **flags)``: the output dict; derivatives
        (forces, stress, ...) by autograd with gradients on, as the calculator runs it."""

        def __init__(self, model, **flags):
            super().__init__()
            self.model = model
            self.flags = flags
            self.grads = any(v for k, v in flags.items() if k.startswith("compute_"))

        def forward(self, data):
            if self.grads:
                with torch.enable_grad():
                    return self.model(data, training=False, **self.flags)
            return self.model(data, training=False, **self.flags)

    class TrainStep(nn.Module):
        """``tools.train.take_step``'s closure: the model on ``batch.to_dict()`` with
        ``training=True`` and the output args, then ``loss_fn(pred=output, ref=batch)``."""

        def __init__(self, model, loss_fn, **flags):
            super().__init__()
            self.model = model
            self.loss_fn = loss_fn
            self.flags = flags
            object.__setattr__(self, "__wrapped__", model)

        def forward(self, batch_dict, batch):
            output = self.model(batch_dict, training=True, **self.flags)
            return self.loss_fn(pred=output, ref=batch)

    return Evaluate, TrainStep


def _variant(cls="MACE", kind="mol", eval_flags=None, loss="WeightedEnergyForcesLoss", loss_kw=None,
             train_flags=None, dtype="float64", heads=None, embedding=False, prepared=False,
             lora=None, batch_object=False, zs=_ZS, **kw):
    """make(mode) for one model config: ``cls`` from ``mace.modules`` built from ``_config(**kw)``."""

    def make(mode):
        _prepare()
        _dtype(dtype)
        import torch
        from mace import modules

        cutoff = 3.0 if kind == "pbc" else 4.0
        cfg = _config(r_max=cutoff, **kw)
        if cls == "EnergyDipolesMACE":
            del cfg["radial_type"]  # (its signature has none: bessel)
        if heads:
            cfg["heads"] = list(heads)
        if embedding:
            cfg["embedding_specs"] = _EMBEDDING_SPECS
        model_cls = getattr(modules, cls)

        def build():
            torch.manual_seed(0)
            return model_cls(**cfg)

        if prepared:
            from mace.tools import compile as mace_compile

            model = mace_compile.prepare(build)()
        else:
            model = build()
        if lora:
            from mace.modules.lora import inject_lora

            inject_lora(model, rank=lora, alpha=1)
        batch_dict, batch = _batch(kind, cutoff=cutoff, heads=list(heads) if heads else None,
                                   embedding=embedding, zs=zs)
        # prepare_graph sets positions.requires_grad_ only when not compiling: mace's compiled
        # callers set it on the batch first (the calculator's _clone_batch: positions and
        # node_attrs; test_compile: positions)
        batch_dict["positions"].requires_grad_(True)
        if mode == "eval":
            batch_dict["node_attrs"].requires_grad_(True)
        Evaluate, TrainStep = _wrappers()
        if mode == "eval":
            if batch_object:
                return Evaluate(model, **(eval_flags or {})), (batch,), {}
            return Evaluate(model, **(eval_flags or {})), (batch_dict,), {}
        loss_fn = getattr(modules, loss)(**(loss_kw or {}))
        flags = dict(train_flags if train_flags is not None else {"compute_force": True})
        if batch_object:
            return TrainStep(model, loss_fn, **flags), (batch, batch), {}
        return TrainStep(model, loss_fn, **flags), (batch_dict, batch), {}

    return make


_NOF = {"compute_force": False}
_F = {"compute_force": True}
_STRESS = {"compute_force": True, "compute_stress": True}
_DIPOLE = {"compute_force": False}
_STRESS_LOSS_KW = {"energy_weight": 1.0, "forces_weight": 10.0, "stress_weight": 1.0}

MODELS = {
    # MACE: interaction classes, radial types, options
    "MACE": _variant(eval_flags=_NOF),
    "MACE_float32_forces": _variant(eval_flags=_F, dtype="float32", correlation=2),
    "MACE_interaction_gaussian": _variant(eval_flags=_F, interaction="RealAgnosticInteractionBlock",
                                          radial_type="gaussian"),
    "MACE_att_residual": _variant(eval_flags=_NOF, interaction="RealAgnosticAttResidualInteractionBlock",
                                  interaction_first="RealAgnosticInteractionBlock"),
    "MACE_density": _variant(eval_flags=_F, interaction="RealAgnosticDensityInteractionBlock"),
    "MACE_density_residual": _variant(eval_flags=_NOF, interaction="RealAgnosticDensityResidualInteractionBlock",
                                      interaction_first="RealAgnosticDensityInteractionBlock"),
    "MACE_residual_nonlinear": _variant(eval_flags=_F, interaction="RealAgnosticResidualNonLinearInteractionBlock",
                                        interaction_first="RealAgnosticInteractionBlock",
                                        edge_irreps="8x0e + 8x1o + 8x2e", use_agnostic_product=True),
    "MACE_chebyshev": _variant(eval_flags=_F, radial_type="chebyshev", num_bessel=6),
    "MACE_one_interaction": _variant(eval_flags=_NOF, num_interactions=1, max_ell=3, correlation=2),
    "MACE_zbl_agnesi": _variant(eval_flags=_F, pair_repulsion=True, distance_transform="Agnesi"),
    "MACE_soft_transform": _variant(eval_flags=_NOF, distance_transform="Soft", num_bessel=4),
    "MACE_so3": _variant(eval_flags=_F, use_so3=True, hidden_irreps="8x0e + 8x1o + 8x1e"),
    "MACE_agnostic_product": _variant(eval_flags=_F, use_agnostic_product=True, correlation=2),
    "MACE_last_readout_only": _variant(eval_flags=_NOF, use_last_readout_only=True),
    "MACE_edge_irreps_first": _variant(eval_flags=_F, edge_irreps="4x0e + 4x1o", use_edge_irreps_first=True),
    "MACE_embeddings": _variant(eval_flags=_F, embedding=True, use_embedding_readout=True),
    "MACE_bias_readout": _variant(eval_flags=_NOF, readout_cls="NonLinearBiasReadoutBlock"),
    "MACE_no_cutoff_full_cg": _variant(eval_flags=_F, apply_cutoff=False, use_reduced_cg=False, correlation=2),
    "MACE_lora": _variant(eval_flags=_F, lora=2, max_ell=1, correlation=2),
    "MACE_pbc_stress": _variant(kind="pbc", eval_flags={"compute_force": True, "compute_stress": True,
                                                        "compute_virials": True},
                                loss="WeightedEnergyForcesStressLoss", loss_kw=_STRESS_LOSS_KW,
                                train_flags=_STRESS),
    # ScaleShiftMACE
    "ScaleShiftMACE": _variant("ScaleShiftMACE", eval_flags=_F, atomic_inter_scale=1.0,
                               atomic_inter_shift=0.0),
    "ScaleShiftMACE_multihead": _variant("ScaleShiftMACE", eval_flags=_F, max_ell=3, correlation=2, heads=_HEADS,
                                         atomic_energies=[_E0S, (0.0, 0.0, 0.0)], distance_transform="Agnesi",
                                         pair_repulsion=True, atomic_inter_scale=[1.0, 1.0],
                                         atomic_inter_shift=[0.0, 0.1]),
    "ScaleShiftMACE_atomic_stresses": _variant("ScaleShiftMACE", kind="pbc",
                                               eval_flags={"compute_force": True, "compute_virials": True,
                                                           "compute_stress": True,
                                                           "compute_atomic_stresses": True},
                                               loss="UniversalLoss", loss_kw=_STRESS_LOSS_KW, train_flags=_STRESS,
                                               atomic_inter_scale=1.0, atomic_inter_shift=0.0),
    "ScaleShiftMACE_virials": _variant("ScaleShiftMACE", kind="pbc",
                                       eval_flags={"compute_force": True, "compute_virials": True},
                                       loss="WeightedEnergyForcesVirialsLoss",
                                       loss_kw={"energy_weight": 1.0, "forces_weight": 10.0, "virials_weight": 1.0},
                                       train_flags={"compute_force": True, "compute_virials": True},
                                       atomic_inter_scale=1.0, atomic_inter_shift=0.0),
    "ScaleShiftMACE_run_train_huber": _variant("ScaleShiftMACE", kind="pbc", eval_flags=_STRESS,
                                               interaction_first="RealAgnosticInteractionBlock",
                                               loss="WeightedHuberEnergyForcesStressLoss",
                                               loss_kw={**_STRESS_LOSS_KW, "huber_delta": 0.01},
                                               train_flags=_STRESS, atomic_inter_scale=1.2,
                                               atomic_inter_shift=[0.0]),
    "ScaleShiftMACE_float32_l1l2": _variant("ScaleShiftMACE", eval_flags=_NOF, dtype="float32",
                                            loss="WeightedEnergyForcesL1L2Loss", atomic_inter_scale=0.8,
                                            atomic_inter_shift=0.1),
    "ScaleShiftMACE_compile_prepare": _variant("ScaleShiftMACE", eval_flags=_F, prepared=True,
                                               atomic_inter_scale=1.0, atomic_inter_shift=0.0),
    "ScaleShiftMACE_compile_prepare_stress": _variant("ScaleShiftMACE", kind="pbc", eval_flags=_STRESS,
                                                      prepared=True, loss="WeightedEnergyForcesStressLoss",
                                                      loss_kw=_STRESS_LOSS_KW, train_flags=_STRESS,
                                                      atomic_inter_scale=1.0, atomic_inter_shift=0.0),
    # dipole / polarizability models (atomic_energies must be None for the first two)
    "AtomicDipolesMACE": _variant("AtomicDipolesMACE", eval_flags=_DIPOLE, loss="DipoleSingleLoss",
                                  train_flags=_DIPOLE, radial_type="gaussian", atomic_energies=None,
                                  interaction_first="RealAgnosticInteractionBlock",
                                  hidden_irreps="8x0e + 8x1o + 8x2e", avg_num_neighbors=3.0),
    "AtomicDipolesMACE_batch_object": _variant("AtomicDipolesMACE", eval_flags=_DIPOLE, loss="DipoleSingleLoss",
                                               train_flags=_DIPOLE, atomic_energies=None, batch_object=True,
                                               hidden_irreps="8x0e + 8x1o", correlation=2),
    "AtomicDielectricMACE": _variant("AtomicDielectricMACE", eval_flags=_DIPOLE, loss="DipolePolarLoss",
                                     train_flags=_DIPOLE, radial_type="gaussian", atomic_energies=None,
                                     interaction_first="RealAgnosticInteractionBlock",
                                     hidden_irreps="8x0e + 8x1o + 8x2e", MLP_irreps="4x0e + 4x1o + 4x2e",
                                     avg_num_neighbors=3.0),
    "AtomicDielectricMACE_derivatives": _variant("AtomicDielectricMACE", kind="mol1",
                                                 eval_flags={"compute_dielectric_derivatives": True},
                                                 loss="DipolePolarLoss", train_flags=_DIPOLE, atomic_energies=None,
                                                 hidden_irreps="8x0e + 8x1o + 8x2e",
                                                 MLP_irreps="4x0e + 4x1o + 4x2e", correlation=2),
    "EnergyDipolesMACE": _variant("EnergyDipolesMACE", eval_flags=_F, loss="WeightedEnergyForcesDipoleLoss",
                                  interaction_first="RealAgnosticInteractionBlock",
                                  hidden_irreps="8x0e + 8x1o + 8x2e", avg_num_neighbors=3.0),
    "EnergyDipolesMACE_energies": _variant("EnergyDipolesMACE", eval_flags=_NOF,
                                           loss="WeightedEnergyForcesDipoleLoss",
                                           hidden_irreps="8x0e + 8x1o", correlation=2),
}
