"""NequIP 0.19.1: the E(3)-equivariant interatomic potentials of ``nequip`` (on e3nn 0.6.0), built as
its model tests build them (``tests/unit/model/test_nequip_model.py``: ``NequIPGNNModel`` with
``num_features=8``, ``radial_mlp_width=8``, ``l_max=2``, 2-3 layers, ``type_names=[H, C, O]``,
``r_max=4``, ``avg_num_neighbors=20``, per-type energy shifts, ZBL pair term), random weights, no
download, on small ASE structures turned into an ``AtomicDataDict`` the way its data pipeline does
(``from_ase`` -> ``ChemicalSpeciesToAtomTypeMapper`` -> ``NeighborListTransform`` ->
``AtomicDataDict.batched_from_list``): a batch of two rattled molecules (CH3CHO and H2O, or H2 /
CH4 for the test's molecule batch), a rattled periodic Cu / diamond-C bulk for stress, and a single
unbatched frame.

- model builders: ``NequIPGNNModel`` (the four test configs: ZBL pair term, 3 layers, per-edge-type
  cutoffs, per-irrep feature counts; no parity with ``l_max=1``; ``model_dtype=float64``; energy
  only, ``do_derivatives=False``; a readout MLP with GELU; trainable per-type scales / shifts with
  trainable Bessel roots; per-type ``avg_num_neighbors``; ``learnable_shift``; ResNet updates; the
  ``norm`` nonlinearity; a periodic bulk with stress; one unbatched
  frame; after ``modify(..., disable_ForceStressOutput)``), ``PresetNequIPGNNModel`` (``S`` with
  small overrides), ``FullNequIPGNNModel`` (per-layer irreps / radial MLPs), ``ZBLPairPotential``,
  a user's own ``@model_builder`` (a Lennard-Jones force field as the docs' custom-model guide
  builds one: ``EdgeLengthNormalizer`` -> ``LennardJones`` -> ``AtomwiseReduce`` ->
  ``ForceStressOutput``), and the tests' ``PartialForceOutput`` model (``autograd.functional.jacobian``
  over the energy model);
- ``nequip.nn`` on their own, each fed an ``AtomicDataDict`` as a model feeds it: the embedding stack
  (``NodeTypeEmbed``, ``SphericalHarmonicEdgeAttrs``, ``EdgeLengthNormalizer``,
  ``BesselEdgeLengthEncoding``), a ``ConvNetLayer`` (gate and norm nonlinearities, ResNet),
  ``ScalarMLP``, ``AtomwiseLinear``, ``AtomwiseReduce`` (normalized sum), ``PerTypeScaleShift``,
  the ``ZBL`` / ``LennardJones`` (per-type, trainable) / ``SimpleLennardJones`` pair terms,
  ``ForceStressOutput`` around a pair-potential stack, ``with_edge_vectors_`` and ``scatter``.

Eval: the model's output ``AtomicDataDict`` (energies, forces, stress / virial where there is a cell).
Train: for the model builders, ``NequIPLightningModule.training_step(batch, 0)`` itself (built from
the model's config dict as ``nequip-train`` builds it; the ``self.log_dict`` calls warn once and
return without a ``Trainer``), with the library's losses: ``EnergyForceLoss`` (per-atom energy
MSE + forces MSE), ``EnergyForceStressLoss`` (bulk), ``EnergyOnlyLoss`` (``do_derivatives=False``),
``EnergyForceLoss`` with ``per_atom_energy=False`` and ``per_type_forces_coeffs``, and a
``MetricsManager`` written in the config style with ``HuberLoss`` / ``StratifiedHuberForceLoss`` /
``MeanAbsoluteError`` entries (``per_type`` and ``ignore_nan`` on). Targets are random
``total_energy`` / ``forces`` / ``stress`` fields in the batch (``process_target`` copies the batch).
``mean_loss_module`` for the ``nequip.nn`` modules, the custom builder's model and the
``PartialForceOutput`` model. Measured first as it came, before any rule looked at it.

    pip install --no-deps nequip==0.19.1 hydra-core==1.3.8

``nequip`` 0.19.1 (the newest) needs torch, numpy, matscipy, ase, lmdb, tqdm, e3nn (<0.7, >=0.6),
pyyaml, hydra-core, lightning (>=2.6), torchmetrics (>=1.6) and requests: all were installed
already (e3nn 0.6.0, ase 3.29.0, matscipy 1.3.1, lightning 2.6.6, torchmetrics 1.9.0, omegaconf
2.3.0, antlr4-python3-runtime 4.9.3) except hydra-core (its ``model.modify_utils`` imports
``hydra.utils`` at the top; hydra-core needs omegaconf, antlr4 and packaging, all there) and lmdb,
imported only by ``data.dataset.lmdb_dataset`` (a compiled extension, not installed, never
imported here). Nothing stubbed.

Left out: ``compile_mode="compile"`` (``CompileGraphModel`` runs its own ``torch.export`` /
``make_fx`` trace on first call: a compiler of its own, not a model for Dynamo); the saved-model
loaders (``ModelFromCheckpoint`` / ``ModelFromPackage``: files); ``NequIPCalculator`` and the
torch-sim / LAMMPS ML-IAP integrations (NumPy / ASE on both sides of the model, or a LAMMPS
process); the OpenEquivariance / CuEquivariance modifiers (CUDA packages); the data modules,
datasets and ``DataStatisticsManager`` (data side, before training); ``NequIPGNNModel`` with a
``LennardJones`` ``pair_potential`` (fails eagerly in 0.19.1: ``LennardJones`` unsqueezes the
``(E, 1)`` edge lengths the model has already computed, and its ``(N, 1, 1)`` atom energies do not
add to the model's; the standalone ``LennardJones`` models below compute their own ``(E,)`` lengths);
``AtomwiseReduce(reduce="mean")`` (batched ``scatter`` asserts ``reduce == "sum"``); the Allegro models, which
live in a separate distribution (``nequip-allegro``, import name ``allegro``), not in ``nequip``.
Notes: ``import nequip`` sets torch's default dtype to float64, so the data are float64 and a
``float32`` model casts inside (as in the library's own tests). ``set_global_state(allow_tf32=False)``
runs before each build (the model builders assert that the global state is initialised, as
``nequip-train`` does at start-up).
"""

PACKAGE = "nequip"

mean_loss_module = None  # adapter.mean_loss_module, set by ZooSuite

_TYPES = ["H", "C", "O"]
_SHIFTS = {"H": 3.45, "C": 5.67, "O": 7.89}
_BASIC = {
    "seed": 123,
    "type_names": _TYPES,
    "r_max": 4.0,
    "avg_num_neighbors": 20,
    "per_type_energy_shifts": _SHIFTS,
}
_COMMON = {
    "_target_": "nequip.model.NequIPGNNModel",
    "model_dtype": "float32",
    "l_max": 2,
    "parity": True,
    "radial_mlp_depth": 1,
    "radial_mlp_width": 8,
    **_BASIC,
}
_ZBL = {"_target_": "nequip.nn.pair_potential.ZBL", "chemical_species": _TYPES, "units": "metal"}


def warm_up():
    import ase.build  # noqa: F401
    import torch  # noqa: F401

    import nequip.data.transforms  # noqa: F401
    import nequip.model  # noqa: F401
    import nequip.nn  # noqa: F401
    import nequip.train  # noqa: F401


def before_build():
    from nequip.utils.global_state import set_global_state

    set_global_state(allow_tf32=False)


# --- data ------------------------------------------------------------------------------------

def _frame(atoms, r_max, types):
    from nequip.data import from_ase
    from nequip.data.transforms import ChemicalSpeciesToAtomTypeMapper, NeighborListTransform

    tm = ChemicalSpeciesToAtomTypeMapper(
        model_type_names=types, chemical_species_to_atom_type_map={t: t for t in types}
    )
    return NeighborListTransform(r_max=r_max)(tm(from_ase(atoms)))


def _data(kind="molecules", r_max=4.0, types=_TYPES, targets=True):
    """An AtomicDataDict batch as the data pipeline gives it, with random training targets."""
    import numpy as np
    import torch
    from ase.build import bulk, molecule

    from nequip.data import AtomicDataDict

    if kind == "molecules":
        atoms = [molecule("CH3CHO"), molecule("H2O")]
    elif kind == "test_batch":  # the tests' molecule batch
        atoms = [molecule("CH3CHO"), molecule("H2"), molecule("CH4")]
    elif kind == "single":
        atoms = [molecule("CH3CHO")]
    elif kind == "cu":
        atoms = [bulk("Cu") * (2, 2, 1), bulk("Cu") * (2, 1, 1)]
    elif kind == "diamond":
        atoms = [bulk("C", "diamond", a=3.57) * (1, 1, 2)]
    else:
        raise ValueError(kind)
    frames = []
    for i, a in enumerate(atoms):
        a.rattle(stdev=0.05, seed=i)
        frames.append(_frame(a, r_max, types))
    if kind == "single":
        data = frames[0]
    else:
        data = AtomicDataDict.batched_from_list(frames)
    if targets:
        g = torch.Generator().manual_seed(1)
        n = data[AtomicDataDict.POSITIONS_KEY].shape[0]
        nf = AtomicDataDict.num_frames(data)
        dt = data[AtomicDataDict.POSITIONS_KEY].dtype
        data[AtomicDataDict.TOTAL_ENERGY_KEY] = torch.randn(nf, 1, generator=g, dtype=dt)
        data[AtomicDataDict.FORCE_KEY] = torch.randn(n, 3, generator=g, dtype=dt)
        if kind in ("cu", "diamond"):
            data[AtomicDataDict.STRESS_KEY] = torch.randn(nf, 3, 3, generator=g, dtype=dt)
    del np
    return data


# --- train steps -----------------------------------------------------------------------------

_EF_LOSS = {"_target_": "nequip.train.EnergyForceLoss", "per_atom_energy": True,
            "coeffs": {"total_energy": 1.0, "forces": 1.0}}


def _training_step_module():
    import torch

    class TrainingStep(torch.nn.Module):
        """``NequIPLightningModule.training_step`` as the module a user's compiled step runs."""

        def __init__(self, lightning_module):
            super().__init__()
            self.module = lightning_module

        def forward(self, batch):
            return self.module.training_step(batch, 0)

    return TrainingStep


def _built(mode, config, data, loss=_EF_LOSS):
    """A model builder's model (eval) or the Lightning module's training step on it (train)."""
    import copy

    from hydra.utils import get_method

    if mode == "train":
        from nequip.train import NequIPLightningModule

        lm = NequIPLightningModule(
            model=copy.deepcopy(config),
            num_datasets={"train": 1, "val": 0, "test": 0},
            loss=copy.deepcopy(loss),
        )
        return _training_step_module()(lm), (data,), {}
    config = copy.deepcopy(config)
    model = get_method(config.pop("_target_"))(**config)
    return model, (data,), {}


def _nequip(mode, data_kind="molecules", loss=_EF_LOSS, **overrides):
    config = {**_COMMON, "num_features": 8, "num_layers": 2}
    config.update(overrides)
    return _built(mode, config, _data(data_kind, r_max=config["r_max"]), loss)


# --- model builders --------------------------------------------------------------------------

def _nequip_zbl(mode):  # minimal_config1
    return _nequip(mode, pair_potential=dict(_ZBL))


def _nequip_3layers(mode):  # minimal_config2
    return _nequip(mode, num_layers=3)


def _nequip_edge_type_cutoff(mode):  # minimal_config3
    return _nequip(mode, per_edge_type_cutoff={"H": 2.0, "C": {"H": 4.0, "C": 3.5, "O": 3.7}, "O": 3.9})


def _nequip_irrep_features(mode):  # minimal_config4
    return _nequip(mode, num_features=[7, 13, 5], pair_potential=dict(_ZBL))


def _nequip_no_parity(mode):
    return _nequip(mode, l_max=1, parity=False, num_features=[8, 4])


def _nequip_float64(mode):
    return _nequip(mode, model_dtype="float64", data_kind="test_batch")


def _nequip_energy_only(mode):
    return _nequip(mode, do_derivatives=False, loss={"_target_": "nequip.train.EnergyOnlyLoss"})


def _nequip_readout_mlp(mode):
    return _nequip(mode, readout_mlp_hidden_layers_depth=1, readout_mlp_hidden_layers_width=8,
                   readout_mlp_nonlinearity="gelu", num_bessels=4, polynomial_cutoff_p=5)


def _nequip_trainable_scale_shift(mode):
    return _nequip(mode, per_type_energy_scales={"H": 1.5, "C": 2.0, "O": 0.5}, per_type_energy_scales_trainable=True,
                   per_type_energy_shifts_trainable=True, bessel_trainable=True)


def _nequip_avg_neighbors_per_type(mode):
    return _nequip(mode, avg_num_neighbors={"H": 3.0, "C": 4.5, "O": 2.5})


def _nequip_learnable_shift(mode):
    return _nequip(mode, learnable_shift=True)


def _nequip_resnet(mode):
    return _nequip(mode, num_layers=3, convnet_resnet=True)


def _nequip_norm_nonlinearity(mode):
    return _nequip(mode, convnet_nonlinearity_type="norm")


def _nequip_bulk_stress(mode):
    loss = {"_target_": "nequip.train.EnergyForceStressLoss", "per_atom_energy": True,
            "coeffs": {"total_energy": 1.0, "forces": 1.0, "stress": 1.0}}
    return _built(mode, {**_COMMON, "num_features": 8, "num_layers": 2, "type_names": ["Cu"],
                         "per_type_energy_shifts": {"Cu": -3.0}, "avg_num_neighbors": 12, "r_max": 3.5,
                         "l_max": 1}, _data("cu", r_max=3.5, types=["Cu"]), loss)


def _nequip_diamond(mode):
    loss = {"_target_": "nequip.train.EnergyForceStressLoss", "per_atom_energy": False}
    return _built(mode, {**_COMMON, "num_features": 8, "num_layers": 2}, _data("diamond"), loss)


def _nequip_single_frame(mode):  # an unbatched frame has no `num_atoms`: total-energy loss
    loss = {"_target_": "nequip.train.EnergyForceLoss", "per_atom_energy": False}
    return _nequip(mode, data_kind="single", l_max=1, loss=loss)


def _nequip_per_type_forces_loss(mode):
    loss = {"_target_": "nequip.train.EnergyForceLoss", "per_atom_energy": False,
            "coeffs": {"total_energy": 0.5, "forces": 2.0},
            "per_type_forces_coeffs": {"H": 5.0, "C": 1.0, "O": 1.0}}
    return _nequip(mode, l_max=1, loss=loss)


def _nequip_huber_loss(mode):
    loss = {"_target_": "nequip.train.MetricsManager", "metrics": [
        {"name": "E_huber", "field": {"_target_": "nequip.data.PerAtomModifier", "field": "total_energy"},
         "coeff": 1.0, "metric": {"_target_": "nequip.train.HuberLoss", "delta": 0.01}},
        {"name": "F_huber", "field": "forces", "coeff": 1.0, "per_type": True,
         "metric": {"_target_": "nequip.train.HuberLoss", "delta": 0.1}},
    ]}
    return _nequip(mode, l_max=1, loss=loss)


def _nequip_stratified_huber(mode):
    loss = {"_target_": "nequip.train.MetricsManager", "metrics": [
        {"name": "E_mae", "field": "total_energy", "coeff": 1.0, "ignore_nan": True,
         "metric": {"_target_": "nequip.train.MeanAbsoluteError"}},
        {"name": "F_strat", "field": "forces", "coeff": 1.0,
         "metric": {"_target_": "nequip.train.StratifiedHuberForceLoss",
                    "delta_dict": {0.0: 0.01, 1.0: 0.1, 2.0: 0.5}}},
    ]}
    return _nequip(mode, l_max=1, loss=loss)


def _nequip_disable_forces(mode):
    import torch

    from nequip.model import modify

    config = {**_COMMON, "num_features": 8, "num_layers": 2, "l_max": 1}
    data = _data()
    if mode == "train":
        cfg = {"_target_": "nequip.model.modify", "model": config,
               "modifiers": [{"modifier": "disable_ForceStressOutput"}]}
        return _built(mode, cfg, data, {"_target_": "nequip.train.EnergyOnlyLoss"})
    model = modify(dict(config), [{"modifier": "disable_ForceStressOutput"}])
    assert isinstance(model, torch.nn.Module)
    return model, (data,), {}


def _preset_s(mode):
    config = {"_target_": "nequip.model.PresetNequIPGNNModel", "preset": "S", "model_dtype": "float32",
              "num_features": [8, 4], "type_embed_num_features": 8, "radial_mlp_width": 8, **_BASIC}
    return _built(mode, config, _data())


def _full_nequip(mode):
    config = {"_target_": "nequip.model.FullNequIPGNNModel", "model_dtype": "float32",
              "radial_mlp_depth": [1, 2], "radial_mlp_width": [8, 8],
              "feature_irreps_hidden": ["8x0e+4x1o+4x1e", "8x0e"], "irreps_edge_sh": "1x0e+1x1o",
              "type_embed_num_features": 8, **_BASIC}
    return _built(mode, config, _data())


def _zbl_pair_potential(mode):
    config = {"_target_": "nequip.model.ZBLPairPotential", "seed": 123, "model_dtype": "float64",
              "type_names": _TYPES, "chemical_species": _TYPES, "units": "metal", "r_max": 4.0}
    return _built(mode, config, _data())


def _custom_lj_builder(mode):
    """A user's own force field through ``@model_builder`` (the docs' custom-model pattern)."""
    from nequip.data import AtomicDataDict
    from nequip.model import model_builder
    from nequip.nn import AtomwiseReduce, ForceStressOutput, SequentialGraphNetwork
    from nequip.nn.embedding import EdgeLengthNormalizer
    from nequip.nn.pair_potential import LennardJones

    @model_builder
    def LJModel(r_max, type_names, lj_sigma=0.8, lj_epsilon=0.2):
        edge_norm = EdgeLengthNormalizer(r_max=r_max, type_names=type_names)
        lj = LennardJones(type_names=type_names, lj_sigma=lj_sigma, lj_epsilon=lj_epsilon,
                          lj_sigma_trainable=True, lj_epsilon_trainable=True, irreps_in=edge_norm.irreps_out)
        total = AtomwiseReduce(reduce="sum", field=AtomicDataDict.PER_ATOM_ENERGY_KEY,
                               out_field=AtomicDataDict.TOTAL_ENERGY_KEY, irreps_in=lj.irreps_out)
        return ForceStressOutput(SequentialGraphNetwork({"edge_norm": edge_norm, "lj": lj, "total": total}))

    model = LJModel(seed=1, model_dtype="float64", type_names=_TYPES, r_max=4.0)
    net = mean_loss_module()(model) if mode == "train" else model
    return net, (_data("diamond", targets=False),), {}  # periodic: the mean loss takes the stress too


def _partial_forces(mode):
    """The tests' ``partial_model``: the energy model under ``PartialForceOutput``."""
    import copy

    from hydra.utils import get_method

    from nequip.nn import ForceStressOutput, PartialForceOutput
    from nequip.utils import find_first_of_type

    config = copy.deepcopy({**_COMMON, "num_features": 8, "num_layers": 2, "l_max": 1})
    model = get_method(config.pop("_target_"))(**config)
    module = find_first_of_type(model, ForceStressOutput)
    model.model = PartialForceOutput(module.func)
    data = _data(targets=False)
    net = mean_loss_module()(model) if mode == "train" else model
    return net, (data,), {}


# --- nequip.nn on their own ------------------------------------------------------------------

def _embed_modules(l_max=1):
    from nequip.data import AtomicDataDict
    from nequip.nn import ApplyFactor
    from nequip.nn.embedding import (BesselEdgeLengthEncoding, EdgeLengthNormalizer, NodeTypeEmbed,
                                     PolynomialCutoff, SphericalHarmonicEdgeAttrs)
    from e3nn import o3

    type_embed = NodeTypeEmbed(type_names=_TYPES, num_features=8)
    spharm = SphericalHarmonicEdgeAttrs(irreps_edge_sh=repr(o3.Irreps.spherical_harmonics(l_max)),
                                        irreps_in=type_embed.irreps_out)
    edge_norm = EdgeLengthNormalizer(r_max=4.0, type_names=_TYPES, irreps_in=spharm.irreps_out)
    bessel = BesselEdgeLengthEncoding(num_bessels=8, cutoff=PolynomialCutoff(6),
                                      edge_invariant_field=AtomicDataDict.EDGE_EMBEDDING_KEY,
                                      irreps_in=edge_norm.irreps_out)
    factor = ApplyFactor(in_field=AtomicDataDict.EDGE_EMBEDDING_KEY, factor=0.4, irreps_in=bessel.irreps_out)
    return {"type_embed": type_embed, "spharm": spharm, "edge_norm": edge_norm, "bessel_encode": bessel,
            "factor": factor}


def _nn(mode, modules, pos_grad=False):
    from nequip.data import AtomicDataDict
    from nequip.nn import SequentialGraphNetwork

    net = SequentialGraphNetwork(modules)
    data = _data(targets=False)
    if mode == "train":
        net = mean_loss_module()(net)
        if pos_grad:  # a parameter-free pair term: the gradient goes to the positions (forces)
            data[AtomicDataDict.POSITIONS_KEY].requires_grad_(True)
    return net, (data,), {}


def _embedding(mode):
    return _nn(mode, _embed_modules(l_max=2))


def _convnet(mode, **kwargs):
    from nequip.nn import ConvNetLayer

    modules = _embed_modules()
    prev = modules["factor"].irreps_out
    for i in range(2):
        conv = ConvNetLayer(irreps_in=prev, feature_irreps_hidden="8x0e+4x1o+4x1e",
                            convolution_kwargs={"radial_mlp_depth": 1, "radial_mlp_width": 8,
                                                "use_sc": i > 0, "is_first_layer": i == 0,
                                                "avg_num_neighbors": 10.0, "type_names": _TYPES},
                            **({**kwargs, "resnet": kwargs.get("resnet", False) and i > 0}))
        modules[f"conv{i}"] = conv
        prev = conv.irreps_out
    return _nn(mode, modules)


def _convnet_gate(mode):
    return _convnet(mode)


def _convnet_norm_resnet(mode):
    return _convnet(mode, nonlinearity_type="norm", resnet=True)


def _readout_modules():
    from nequip.data import AtomicDataDict
    from nequip.nn import AtomwiseLinear, AtomwiseReduce, PerTypeScaleShift, ScalarMLP

    modules = _embed_modules()
    lin = AtomwiseLinear(irreps_in=modules["factor"].irreps_out, irreps_out="8x0e")
    mlp = ScalarMLP(output_dim=1, hidden_layers_depth=2, hidden_layers_width=16, nonlinearity="silu",
                    field=AtomicDataDict.NODE_FEATURES_KEY, out_field=AtomicDataDict.PER_ATOM_ENERGY_KEY,
                    irreps_in=lin.irreps_out)
    shift = PerTypeScaleShift(type_names=_TYPES, field=AtomicDataDict.PER_ATOM_ENERGY_KEY,
                              scales={"H": 1.0, "C": 2.0, "O": 3.0}, shifts=1.5, scales_trainable=True,
                              shifts_trainable=True, irreps_in=mlp.irreps_out)
    return modules, lin, mlp, shift


def _scalar_mlp_readout(mode):
    from nequip.data import AtomicDataDict
    from nequip.nn import AtomwiseReduce

    modules, lin, mlp, shift = _readout_modules()
    red = AtomwiseReduce(reduce="sum", field=AtomicDataDict.PER_ATOM_ENERGY_KEY,
                         out_field=AtomicDataDict.TOTAL_ENERGY_KEY, irreps_in=shift.irreps_out)
    modules.update(linear=lin, mlp=mlp, scale_shift=shift, reduce=red)
    return _nn(mode, modules)


def _atomwise_reduce_normalized(mode):
    from nequip.data import AtomicDataDict
    from nequip.nn import AtomwiseReduce

    modules, lin, _, _ = _readout_modules()
    red = AtomwiseReduce(reduce="normalized_sum", avg_num_atoms=5.0, field=AtomicDataDict.NODE_FEATURES_KEY,
                         out_field="graph_features", irreps_in=lin.irreps_out)
    modules.update(linear=lin, reduce=red)
    return _nn(mode, modules)


def _pair(mode, cls_name, **kwargs):
    from nequip.data import AtomicDataDict
    from nequip.nn import AtomwiseReduce
    from nequip.nn import pair_potential
    from nequip.nn.embedding import EdgeLengthNormalizer

    edge_norm = EdgeLengthNormalizer(r_max=4.0, type_names=_TYPES)
    if cls_name != "SimpleLennardJones":
        kwargs["type_names"] = _TYPES
    pair = getattr(pair_potential, cls_name)(irreps_in=edge_norm.irreps_out, **kwargs)
    red = AtomwiseReduce(reduce="sum", field=AtomicDataDict.PER_ATOM_ENERGY_KEY,
                         out_field=AtomicDataDict.TOTAL_ENERGY_KEY, irreps_in=pair.irreps_out)
    return _nn(mode, {"edge_norm": edge_norm, "pair": pair, "total": red}, pos_grad=True)


def _zbl(mode):
    return _pair(mode, "ZBL", chemical_species=_TYPES, units="real")


def _lennard_jones(mode):
    import torch

    return _pair(mode, "LennardJones", lj_sigma=torch.tensor([[1.0, 1.2, 1.1], [1.2, 1.5, 1.4], [1.1, 1.4, 1.3]]),
                 lj_epsilon=0.3, lj_sigma_trainable=True, lj_epsilon_trainable=True, lj_per_type=True)


def _lennard_jones_lj_repulsive(mode):
    return _pair(mode, "LennardJones", lj_sigma=1.3, lj_delta=0.1, lj_epsilon=0.2, lj_style="lj_repulsive_only")


def _lennard_jones_repulsive(mode):
    return _pair(mode, "LennardJones", lj_sigma=1.3, lj_epsilon=0.2, lj_exponent=8.0, lj_style="repulsive")


def _simple_lj(mode):
    return _pair(mode, "SimpleLennardJones", lj_sigma=1.4, lj_epsilon=0.25)


def _force_stress_output(mode):
    from nequip.data import AtomicDataDict
    from nequip.nn import AtomwiseReduce, ForceStressOutput, SequentialGraphNetwork
    from nequip.nn.embedding import EdgeLengthNormalizer
    from nequip.nn.pair_potential import LennardJones

    edge_norm = EdgeLengthNormalizer(r_max=3.5, type_names=["Cu"])
    lj = LennardJones(type_names=["Cu"], lj_sigma=2.3, lj_epsilon=0.4, lj_sigma_trainable=True,
                      irreps_in=edge_norm.irreps_out)
    red = AtomwiseReduce(reduce="sum", field=AtomicDataDict.PER_ATOM_ENERGY_KEY,
                         out_field=AtomicDataDict.TOTAL_ENERGY_KEY, irreps_in=lj.irreps_out)
    net = ForceStressOutput(SequentialGraphNetwork({"edge_norm": edge_norm, "lj": lj, "total": red}))
    if mode == "train":
        net = mean_loss_module()(net)
    return net, (_data("cu", r_max=3.5, types=["Cu"], targets=False),), {}


def _edge_vectors_scatter(mode):
    import torch

    from nequip.data import AtomicDataDict
    from nequip.nn import scatter, with_edge_vectors_

    class EdgeSum(torch.nn.Module):
        """Per-atom sum of edge lengths, as a custom module written on nequip's helpers."""

        def forward(self, data):
            data = with_edge_vectors_(data, with_lengths=True)
            lengths = data[AtomicDataDict.EDGE_LENGTH_KEY]
            center = data[AtomicDataDict.EDGE_INDEX_KEY][0]
            return scatter(lengths, center, dim=0, dim_size=data[AtomicDataDict.POSITIONS_KEY].shape[0])

    net = EdgeSum()
    if mode == "train":
        net = mean_loss_module()(net)
    data = _data("cu", r_max=3.5, types=["Cu"], targets=False)
    data[AtomicDataDict.POSITIONS_KEY].requires_grad_(mode == "train")
    return net, (data,), {}


MODELS = {
    # model builders (train: NequIPLightningModule.training_step)
    "NequIPGNNModel_ZBL": _nequip_zbl,
    "NequIPGNNModel_3layers": _nequip_3layers,
    "NequIPGNNModel_per_edge_type_cutoff": _nequip_edge_type_cutoff,
    "NequIPGNNModel_per_irrep_features": _nequip_irrep_features,
    "NequIPGNNModel_no_parity": _nequip_no_parity,
    "NequIPGNNModel_float64": _nequip_float64,
    "NequIPGNNModel_energy_only": _nequip_energy_only,
    "NequIPGNNModel_readout_mlp": _nequip_readout_mlp,
    "NequIPGNNModel_trainable_scale_shift": _nequip_trainable_scale_shift,
    "NequIPGNNModel_avg_neighbors_per_type": _nequip_avg_neighbors_per_type,
    "NequIPGNNModel_learnable_shift": _nequip_learnable_shift,
    "NequIPGNNModel_resnet": _nequip_resnet,
    "NequIPGNNModel_norm_nonlinearity": _nequip_norm_nonlinearity,
    "NequIPGNNModel_bulk_stress": _nequip_bulk_stress,
    "NequIPGNNModel_diamond_stress": _nequip_diamond,
    "NequIPGNNModel_single_frame": _nequip_single_frame,
    "NequIPGNNModel_per_type_forces_loss": _nequip_per_type_forces_loss,
    "NequIPGNNModel_huber_loss": _nequip_huber_loss,
    "NequIPGNNModel_stratified_huber_loss": _nequip_stratified_huber,
    "NequIPGNNModel_disable_forces": _nequip_disable_forces,
    "PresetNequIPGNNModel_S": _preset_s,
    "FullNequIPGNNModel": _full_nequip,
    "ZBLPairPotential": _zbl_pair_potential,
    "custom_model_builder_LJ": _custom_lj_builder,
    "PartialForceOutput": _partial_forces,
    # nequip.nn
    "embedding_stack": _embedding,
    "ConvNetLayer_gate": _convnet_gate,
    "ConvNetLayer_norm_resnet": _convnet_norm_resnet,
    "ScalarMLP_readout": _scalar_mlp_readout,
    "AtomwiseReduce_normalized_sum": _atomwise_reduce_normalized,
    "ZBL": _zbl,
    "LennardJones_per_type": _lennard_jones,
    "LennardJones_lj_repulsive_only": _lennard_jones_lj_repulsive,
    "LennardJones_repulsive": _lennard_jones_repulsive,
    "SimpleLennardJones": _simple_lj,
    "ForceStressOutput_LJ_bulk": _force_stress_output,
    "with_edge_vectors_scatter": _edge_vectors_scatter,
}
