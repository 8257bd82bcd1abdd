"""graph-pes 1.0.2: its machine-learned interatomic potentials, built straight from their classes
with tiny configs (as the library's tests shrink them) and random weights, on tiny ASE-built
structures converted with ``AtomicGraph.from_ase`` and collated with ``to_batch``; no download:

- pair potentials: ``LennardJones`` (plain, and ``shift=True``), ``LennardJonesMixture``, ``Morse``,
  ``ZBLCoreRepulsion`` (``trainable=True``), ``SmoothedPairPotential`` around a ``LennardJones``;
- many-body classics: ``StillingerWeber`` (three-body, on bulk Si), ``EDDP`` (with and without its
  three-body term, ``learnable_powers``);
- message passing: ``SchNet``, ``PaiNN``, ``TensorNet`` (conservative, and
  ``direct_force_predictions``), ``Orb`` (direct and ``conservative``, ``max_neighbours``);
- e3nn models: ``NequIP`` (default, ``direct_force_predictions``, a linear self-interaction with
  ``constant_fixed`` aggregation, a ``CompleteIrrepSpec``), ``ZEmbeddingNequIP``, ``MACE`` (default
  and ``aggregation="mean"`` with a list of hidden irreps), ``ZEmbeddingMACE``;
- tensor models (a per-atom 3-vector ``"tensor"`` label): ``TensorNequIP``, ``ZEmbeddingTensorNequIP``
  (``direct`` target ``"1o"``), ``TensorMACE``, ``ZEmbeddingTensorMACE`` (``tensor_product`` of two
  ``1o``: target ``o3.Irreps("1e")``), ``TensorAdditionModel`` with a ``LearnableTensorOffset``;
- composites: ``AdditionModel`` (``FixedOffset`` + ``LennardJones``; ``LearnableOffset`` + ``SchNet``
  + ``ZBLCoreRepulsion``), ``LearnableOffset`` alone, ``UnitConverter`` around a ``PaiNN``.

Structures: CH4 and H2O molecules (no cell), batched; a cubic Cu cell (4 atoms) and a rattled
primitive Cu cell (periodic, batched); bulk Si (8 atoms). Every model is ``pre_fit_all_components``
-ed on its labelled training graph first, as ``graph-pes-train`` does by default.

Eval: as users predict: ``model.predict(graph, ["energy", "forces"])`` (forces by autograd; the
wrapper opens ``torch.enable_grad()``, as graph-pes asks of inference under ``no_grad``), with
``"stress"`` / ``"virial"`` on periodic cells; ``get_all_PES_predictions``; ``predict_energy``;
``predict_forces``; the raw ``model(graph)`` forward (local energies); tensor models'
``predict(graph, ["tensor"])``. Train: the math of ``TrainingTask._step`` without its Lightning
``self.log`` / ``.item()`` calls: ``model.predict(graph, properties)`` for the properties the losses
need, then the library's ``TotalLoss`` over ``PerAtomEnergyLoss`` and ``PropertyLoss`` terms
(``RMSE``, ``MAE``, ``MSE``, ``Huber``, ``ScaleFreeHuber`` metrics; energy, forces, stress, virial,
tensor), returning ``TotalLossResult.loss_value``.

    pip install --no-deps graph-pes==1.0.2
    pip install --no-deps vesin==0.6.2 load-atoms==0.3.10 locache==4.0.2 data2objects==0.1.0 dacite==1.9.2

Already installed and left as they are: ase 3.29.0, numpy, rich, pyyaml, scikit-learn,
pytorch-lightning 2.6.6, torchmetrics 1.9.0, opt-einsum-fx 0.1.4, pydantic, requests, h5py, and
e3nn 0.6.0 (graph-pes pins e3nn==0.4.4; not downgraded, to leave the shared environment alone:
every e3nn model here builds and runs eagerly on 0.6.0). Stubbed: ``lmdb`` (a C extension that
``load_atoms``, imported at graph-pes's top for ``remove_calculator``, imports at its top; used
only by load-atoms' on-disk datasets). Not installed: wandb (only behind pytorch-lightning's
``WandbLogger``, never constructed here), ipywidgets (load-atoms' notebook display).

Left out: ``Trainer``-driven training (``train_with_lightning``, ``graph-pes-train``: the loss math
is kept, the Lightning loop and its logging are not); the data side (``GraphDataset``,
``GraphDataLoader``, ``AtomicGraph.from_ase`` itself: numpy / vesin neighbour lists, outside any
model); the ASE calculator and ``torch_sim`` interfaces (numpy on both sides of ``predict``);
``interfaces`` (``mace_mp``, ``orb_model``, ``mattersim``: downloaded weights and other packages);
``ScriptedModel`` / ``deploy_model`` (TorchScript); torchmetrics-based eval metrics (a
``torchmetrics.Metric`` is refused by ``TotalLoss``; eval-only).
Notes: the tensor NequIPs are built with ``prune_last_layer=False``: with pruning on, the model
iterates ``target_tensor_irreps`` as ``(mul, irrep)`` pairs before converting it, so a string
fails, and an ``o3.Irreps`` fails later in ``LinearReadOut`` (``"1x1x1o"``); the config-file path
hits the same. NequIPs use one layer (two for the ``CompleteIrrepSpec`` one), as the tests do.
Every wrapper sets ``__wrapped__`` to the model, as ``mean_loss_module`` does.
"""

import functools

PACKAGE = "graph_pes"
DISTRIBUTION = "graph-pes"

CUTOFF = 3.0


def before_build():
    stub_modules({"lmdb": (("open",), ("Environment",))}, "load_atoms")  # noqa: F821


def warm_up():
    before_build()
    import torch  # noqa: F401

    import graph_pes  # noqa: F401
    import graph_pes.models  # noqa: F401
    import graph_pes.training.loss  # noqa: F401


stub_modules = None  # adapter.stub_modules, set by ZooSuite


# --- structures ------------------------------------------------------------------------------

def _atoms(kind, seed):
    import ase.build
    import numpy as np

    rng = np.random.default_rng(seed)
    if kind == "CH4":
        a = ase.build.molecule("CH4")
    elif kind == "H2O":
        a = ase.build.molecule("H2O")
    elif kind == "Cu":
        a = ase.build.bulk("Cu", "fcc", a=3.6, cubic=True)
    elif kind == "Cu_prim":
        a = ase.build.bulk("Cu", "fcc", a=3.6)
    elif kind == "Si":
        a = ase.build.bulk("Si", "diamond", a=5.43, cubic=True)
    else:
        raise ValueError(kind)
    a.rattle(0.05, seed=seed)
    n = len(a)
    a.info["energy"] = float(rng.normal() - 2.0 * n)
    a.arrays["forces"] = rng.normal(size=(n, 3))
    if a.pbc.any():
        s = rng.normal(size=(3, 3)) * 0.01
        a.info["stress"] = (s + s.T) / 2
    return a


def _graph(kinds, cutoff=CUTOFF, tensor=None):
    """One ``AtomicGraph`` (one kind) or a ``to_batch`` of several; ``tensor``: the shape of a
    per-atom ``"tensor"`` label to add."""
    import numpy as np

    from graph_pes import AtomicGraph
    from graph_pes.atomic_graph import to_batch

    graphs = []
    for i, kind in enumerate(kinds):
        a = _atoms(kind, i)
        if tensor is not None:
            a.arrays["tensor"] = np.random.default_rng(10 + i).normal(size=(len(a), *tensor))
            g = AtomicGraph.from_ase(a, cutoff, property_mapping={"energy": "energy", "forces": "forces",
                                                                  "tensor": "tensor"})
        else:
            g = AtomicGraph.from_ase(a, cutoff)
        graphs.append(g)
    return (graphs[0] if len(graphs) == 1 else to_batch(graphs)), graphs


MOLS = ("CH4", "H2O")
BULK = ("Cu", "Cu_prim")


# --- what a user calls -----------------------------------------------------------------------

def _predictor(properties):
    import torch

    class Predict(torch.nn.Module):
        """``model.predict(graph, properties)``, under ``enable_grad`` as graph-pes asks of
        inference that infers forces / stress from the energy."""

        def __init__(self, model):
            super().__init__()
            self.model = model
            object.__setattr__(self, "__wrapped__", model)

        def forward(self, graph):
            with torch.enable_grad():
                return self.model.predict(graph, properties)

    return Predict


def _method(name):
    import torch

    class Method(torch.nn.Module):
        def __init__(self, model):
            super().__init__()
            self.model = model
            object.__setattr__(self, "__wrapped__", model)

        def forward(self, graph):
            with torch.enable_grad():
                return getattr(self.model, name)(graph)

    Method.__name__ = name
    return Method


def _train_step():
    import torch

    class TrainStep(torch.nn.Module):
        """``TrainingTask._step(graph, "train")`` without the Lightning logging."""

        def __init__(self, model, total_loss, properties):
            super().__init__()
            self.model = model
            self.total_loss = total_loss
            self.properties = list(properties)
            object.__setattr__(self, "__wrapped__", model)

        def forward(self, graph):
            predictions = self.model.predict(graph, properties=self.properties)
            return self.total_loss(self.model, graph, predictions).loss_value

    return TrainStep


def _losses(spec):
    """``spec``: (property, metric, weight) triples; "energy" is the per-atom energy loss."""
    from graph_pes.training.loss import PerAtomEnergyLoss, PropertyLoss, TotalLoss

    terms, props = [], []
    for prop, metric, weight in spec:
        if prop == "energy":
            terms.append(PerAtomEnergyLoss(metric=metric, weight=weight))
        else:
            terms.append(PropertyLoss(prop, metric=metric, weight=weight))
        props.append(prop)
    return TotalLoss(terms), props


def _metric(name):
    from graph_pes.training import loss as L

    return {"RMSE": L.RMSE(), "MAE": L.MAE(), "MSE": L.MSE(), "Huber": L.Huber(0.1),
            "ScaleFreeHuber": L.ScaleFreeHuber(0.1)}[name]


EF = (("energy", "RMSE", 1.0), ("forces", "RMSE", 10.0))
EFS = (("energy", "MAE", 1.0), ("forces", "RMSE", 10.0), ("stress", "RMSE", 0.5))


def _use(build, kinds, eval_call=("energy", "forces"), train=EF, tensor=None, prefit=True):
    """A factory: ``build()`` the model, pre-fit it on the graph, wrap it for the mode."""

    def make(mode):
        graph, graphs = _graph(kinds, tensor=tensor)
        model = build()
        if prefit:
            model.pre_fit_all_components(graphs)
        if mode == "train":
            total, props = _losses(tuple((p, _metric(m), w) for p, m, w in train))
            return _train_step()(model, total, props), (graph,), {}
        if isinstance(eval_call, str):
            if eval_call == "forward":
                return model, (graph,), {}
            return _method(eval_call)(model), (graph,), {}
        return _predictor(list(eval_call))(model), (graph,), {}

    return make


# --- the models ------------------------------------------------------------------------------

def _m(name, **kwargs):
    def build():
        import graph_pes.models as M

        return getattr(M, name)(**{k: v() if callable(v) else v for k, v in kwargs.items()})

    return build


_SMALL_NEQUIP = dict(layers=1, features=dict(channels=4, l_max=1, use_odd_parity=True), radial_features=4)
_SMALL_MACE = dict(layers=1, l_max=1, correlation=2, channels=4, n_radial=4,
                   weights_mlp=dict(hidden_depth=1, hidden_features=8, activation="SiLU"), readout_width=4)
_SMALL_ORB = dict(channels=8, layers=2, radial_features=4, mlp_layers=1, mlp_hidden_dim=16, l_max=1)
_HCO = ["H", "C", "O"]


def _irreps(text):
    from e3nn import o3

    return o3.Irreps(text)


def _smoothed_lj():
    from graph_pes.models import LennardJones, SmoothedPairPotential

    return SmoothedPairPotential(LennardJones(cutoff=CUTOFF), smoothing_onset=2.5)


def _offset_lj():
    from graph_pes.models import AdditionModel, FixedOffset, LennardJones

    return AdditionModel(offset=FixedOffset(H=-1.0, C=-3.0, O=-4.0), lj=LennardJones(cutoff=CUTOFF))


def _offset_schnet_zbl():
    from graph_pes.models import AdditionModel, LearnableOffset, SchNet, ZBLCoreRepulsion

    return AdditionModel(offset=LearnableOffset(), core=ZBLCoreRepulsion(cutoff=CUTOFF),
                         many_body=SchNet(cutoff=CUTOFF, channels=8, expansion_features=8, layers=2))


def _unit_painn():
    from graph_pes.models import PaiNN, UnitConverter

    return UnitConverter(PaiNN(cutoff=CUTOFF, channels=8, radial_features=8, layers=2),
                         energy_to_eV=0.0433641, length_to_A=1.0)


def _tensor_offset_nequip():
    from graph_pes.models import LearnableTensorOffset, TensorAdditionModel, TensorNequIP

    return TensorAdditionModel(offset=LearnableTensorOffset(3),
                               nequip=TensorNequIP(elements=_HCO, cutoff=CUTOFF, **_SMALL_NEQUIP,
                                                   target_tensor_irreps="1o",
                                                   prune_last_layer=False))


TENSOR_TRAIN = (("tensor", "RMSE", 1.0),)

MODELS = {
    # pair potentials
    "LennardJones": _use(_m("LennardJones", cutoff=CUTOFF), BULK, ("energy", "forces", "stress"), EFS),
    "LennardJones_shift": _use(_m("LennardJones", cutoff=CUTOFF, shift=True), MOLS),
    "LennardJones_all_PES": _use(_m("LennardJones", cutoff=CUTOFF), ("Cu",), "get_all_PES_predictions",
                                 (("energy", "MSE", 1.0), ("forces", "MSE", 1.0), ("stress", "MSE", 0.1))),
    "LennardJonesMixture": _use(_m("LennardJonesMixture", cutoff=CUTOFF), MOLS),
    "Morse": _use(_m("Morse", cutoff=CUTOFF), BULK, ("energy", "forces", "stress"), EFS),
    "ZBLCoreRepulsion": _use(_m("ZBLCoreRepulsion", cutoff=CUTOFF, trainable=True), MOLS),
    "SmoothedPairPotential": _use(_smoothed_lj, MOLS, "predict_forces"),
    # many-body classics
    "StillingerWeber": _use(_m("StillingerWeber"), ("Si",), ("energy", "forces", "stress"), EFS),
    "EDDP": _use(_m("EDDP", elements=_HCO, cutoff=CUTOFF, features=4, mlp_width=8), MOLS),
    "EDDP_three_body": _use(_m("EDDP", elements=["Cu"], cutoff=CUTOFF, features=4, mlp_width=8,
                               three_body_cutoff=2.6, three_body_features=3), BULK,
                            ("energy", "forces", "stress"), EFS),
    "EDDP_learnable_powers": _use(_m("EDDP", elements=_HCO, cutoff=CUTOFF, features=4, mlp_width=8,
                                     learnable_powers=True), MOLS, "predict_energy",
                                  (("energy", "Huber", 1.0),)),
    # message passing
    "SchNet": _use(_m("SchNet", cutoff=CUTOFF, channels=8, expansion_features=8, layers=2), MOLS),
    "SchNet_bulk": _use(_m("SchNet", cutoff=CUTOFF, channels=8, expansion_features=8, layers=2), BULK,
                        ("energy", "forces", "stress"), EFS),
    "SchNet_forward": _use(_m("SchNet", cutoff=CUTOFF, channels=8, expansion_features=8, layers=2), MOLS,
                           "forward"),
    "PaiNN": _use(_m("PaiNN", cutoff=CUTOFF, channels=8, radial_features=8, layers=2), MOLS),
    "PaiNN_bulk": _use(_m("PaiNN", cutoff=CUTOFF, channels=8, radial_features=8, layers=2), BULK,
                       ("energy", "forces", "virial"),
                       (("energy", "RMSE", 1.0), ("forces", "MAE", 10.0), ("stress", "RMSE", 0.1))),
    "PaiNN_predict_energy": _use(_m("PaiNN", cutoff=CUTOFF, channels=8, radial_features=8, layers=2),
                                 ("CH4",), "predict_energy", (("energy", "MAE", 1.0),)),
    "TensorNet": _use(_m("TensorNet", cutoff=CUTOFF, radial_features=8, channels=8, layers=2), MOLS),
    "TensorNet_direct_forces": _use(_m("TensorNet", cutoff=CUTOFF, radial_features=8, channels=8, layers=1,
                                       direct_force_predictions=True), BULK),
    "Orb": _use(_m("Orb", cutoff=CUTOFF, **_SMALL_ORB), MOLS),
    "Orb_conservative": _use(_m("Orb", cutoff=CUTOFF, conservative=True, **_SMALL_ORB), BULK,
                             ("energy", "forces", "stress"), EFS),
    "Orb_max_neighbours": _use(_m("Orb", cutoff=CUTOFF, max_neighbours=4, norm_type="rms",
                                  attention_gate="softmax", **_SMALL_ORB), BULK),
    # e3nn
    "NequIP": _use(_m("NequIP", elements=_HCO, cutoff=CUTOFF, **_SMALL_NEQUIP), MOLS),
    "NequIP_direct_forces": _use(_m("NequIP", elements=_HCO, cutoff=CUTOFF, direct_force_predictions=True,
                                    **_SMALL_NEQUIP), MOLS),
    "NequIP_linear_constant": _use(_m("NequIP", elements=["Cu"], cutoff=CUTOFF, self_interaction="linear",
                                      neighbour_aggregation="constant_fixed", **_SMALL_NEQUIP), BULK,
                                   ("energy", "forces", "stress"), EFS),
    "NequIP_complete_irreps": _use(_m("NequIP", elements=_HCO, cutoff=CUTOFF, layers=2, radial_features=4,
                                      features=dict(node_irreps="4x0e + 2x1o", edge_irreps="0e + 1o"),
                                      prune_last_layer=False), MOLS),
    "ZEmbeddingNequIP": _use(_m("ZEmbeddingNequIP", cutoff=CUTOFF, Z_embed_dim=4, **_SMALL_NEQUIP), MOLS),
    "MACE": _use(_m("MACE", elements=_HCO, cutoff=CUTOFF, **_SMALL_MACE), MOLS),
    "MACE_mean_bulk": _use(_m("MACE", elements=["Cu"], cutoff=CUTOFF, aggregation="mean",
                              **{**_SMALL_MACE, "layers": 2}, hidden_irreps=["0e", "1o"]), BULK,
                           ("energy", "forces", "stress"), EFS),
    "ZEmbeddingMACE": _use(_m("ZEmbeddingMACE", cutoff=CUTOFF, z_embed_dim=4, **_SMALL_MACE), MOLS,
                           train=(("energy", "ScaleFreeHuber", 1.0), ("forces", "Huber", 1.0))),
    # tensor models (a per-atom 3-vector target)
    "TensorNequIP": _use(_m("TensorNequIP", elements=_HCO, cutoff=CUTOFF, **_SMALL_NEQUIP,
                            target_tensor_irreps="1o", prune_last_layer=False), MOLS, ("tensor",), TENSOR_TRAIN, tensor=(3,)),
    "ZEmbeddingTensorNequIP": _use(_m("ZEmbeddingTensorNequIP", cutoff=CUTOFF, Z_embed_dim=4, **_SMALL_NEQUIP,
                                      target_tensor_irreps="1o", prune_last_layer=False), MOLS, ("tensor",), TENSOR_TRAIN,
                                   tensor=(3,)),
    "TensorMACE": _use(_m("TensorMACE", elements=_HCO, cutoff=CUTOFF, **_SMALL_MACE,
                          target_tensor_irreps=functools.partial(_irreps, "1e"), number_of_tps=2), MOLS, ("tensor",), TENSOR_TRAIN,
                       tensor=(3,)),
    "ZEmbeddingTensorMACE": _use(_m("ZEmbeddingTensorMACE", cutoff=CUTOFF, z_embed_dim=4, **_SMALL_MACE,
                                    target_tensor_irreps=functools.partial(_irreps, "1e"), number_of_tps=2), MOLS, ("tensor",),
                                 TENSOR_TRAIN, tensor=(3,)),
    "TensorAdditionModel": _use(_tensor_offset_nequip, MOLS, ("tensor",), TENSOR_TRAIN, tensor=(3,)),
    # composites
    "AdditionModel_offset_lj": _use(_offset_lj, MOLS),
    "AdditionModel_offset_schnet_zbl": _use(_offset_schnet_zbl, MOLS),
    "LearnableOffset": _use(_m("LearnableOffset", H=-1.0), MOLS, "predict_energy", (("energy", "RMSE", 1.0),)),
    "UnitConverter_PaiNN": _use(_unit_painn, MOLS),
}
