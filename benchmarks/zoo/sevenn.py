"""SevenNet (MDIL-SNU) 0.13.0, pip ``sevenn``, import name ``sevenn``: E(3)-equivariant
NequIP-style interatomic potentials, built from code with ``model_build.build_E3_equivariant_model``
(random weights, no pretrained checkpoint, no download) on the small config of
``tests/unit_tests/test_model.py`` (cutoff 4 A, ``channel`` 4, ``lmax`` 2, radial weight MLP
``[16, 16]``, bessel radial basis, ``poly_cut`` envelope, ``conv_denominator`` 30, shift -10 /
scale 10, species from ``util.chemical_species_preprocess``) with 2 convolutions instead of the
test's 3 (kept in one model; capture time) and its variations. Inputs as the tests and the
calculator make them: ``ase.build`` structures (rocksalt NaCl ``bulk``, ``molecule('H2O')``, an
isolated ``H``; a rattled 2x1x1 Si cell), turned into graphs by
``train.dataload.unlabeled_atoms_to_graph`` (eval) or ``train.dataload.atoms_to_graph`` with
reference energy, forces and stress in ``info['y_energy']`` / ``arrays['y_force']`` /
``info['y_stress']`` (train; molecules get NaN stress, as sevenn labels a non-periodic
structure), then ``AtomGraphData.from_numpy_dict`` and batched with torch_geometric's
``Collater`` (as ``test_model.get_graphs`` and the trainer's ``DataLoader``). float32.

Models (36):
- batched (``set_is_batch_data(True)``, the trainer / ``sevenn_inference`` path) on the three
  structures: the test config (1, 2 and 3 convolutions) and its ``test_num_params`` variations
  (``train_shift_scale``, ``lmax`` 3, SE(3), linear self-connection), poly_cut p 8 with 4
  bessels, ``irreps_manual``, biases in the linears, per-layer trainable denominators,
  un-normalised spherical harmonics, the universal species table, ``lmax_edge`` / ``lmax_node``, species-wise
  shift / scale lists with ``train_shift_scale``, ``XPLOR`` cutoff, ``readout_as_fcn`` (an MLP
  readout), a per-layer ``self_connection_type`` list (linear, nequip), ``train_denominator``, a
  scaled-down ``presets/sevennet-0.yaml`` model (universal species table, SE(3), linear
  self-connection, XPLOR); multi-fidelity models (``use_modality``: plain, modal node embedding,
  modal self-interaction linears, modal output block, modal-wise shift / scale with a modal
  output block) on a batch whose graphs carry
  ``data_modality``; the trainer's loss variants on the test config: Huber (``delta`` 0.01), no stress loss,
  ``use_weight`` with per-graph ``data_weight`` (as ``graph_dataset`` attaches it), and the reEWC
  penalty ``train.reewc.loss.EWCLoss`` (built from a Fisher / reference-parameter dict, as
  ``append_ewc_loss`` loads them);
- one structure as ``SevenNetCalculator.calculate`` runs it (``SevenNetCalculator(model,
  file_type='model_instance', device='cpu')``: ``eval_type_map`` on, ``set_is_batch_data(False)``;
  a fresh graph from ``unlabeled_atoms_to_graph(atoms, cutoff, with_shift=False)``, then
  ``self.model(data)``): bulk NaCl, H2O, the isolated H atom (zero cell volume, no edges),
  ``compute_atomic_virial=True`` on Si, a modal model with ``modal='x1'``;
- the LAMMPS serial deploy model before TorchScript (``scripts.deploy.deploy``: ``force_output``
  removed, ``eval_type_map`` off; and a modal one after ``prepare_modal_deploy('x1')``; the type indices given as node
  features; the wrapper hands the model ``data.clone()`` each call, since the model overwrites
  ``x`` with its one-hot, and returns the total energy; the same in both modes).

Eval: ``Predict``, the model's forward under ``torch.enable_grad()`` (the probe runs eval under
``no_grad``; the calculator runs with gradients on, since forces and stress are
``torch.autograd.grad`` of the energy w.r.t. the edge vectors in ``ForceStressOutputFromEdge``),
returning the output ``AtomGraphData``. Train: ``TrainStep``, the step of
``train.trainer.Trainer.run_one_epoch`` up to ``backward``: ``output = model(batch)``, ``total_loss
= torch.tensor([0.0])`` plus each ``loss_def.get_loss(output, model) * w`` of
``train.loss.get_loss_functions_from_config(config)`` (MSE energy-per-atom, force 0.1 and stress
1e-6 by default), on the labelled batch (calculator models: a batch of their one structure,
``set_is_batch_data(True)``).

    pip install --no-deps sevenn==0.13.0 braceexpand==0.1.7

(ase 3.29.0, e3nn 0.6.0, torch_geometric 2.8.1, matscipy 1.3.1, numpy, pandas, scikit-learn,
PyYAML, tqdm, requests and setuptools were already installed.) Nothing stubbed: the import path
needs no C extension (``pair_d3*.so`` are loaded with ctypes only by ``SevenNetD3Calculator``;
``ninja`` only builds them and is not installed; cuEquivariance, FlashTP and OpenEquivariance are
optional accelerators, off by default).

Left out: pretrained models (``SevenNetCalculator('7net-0')``, ``util.load_checkpoint``: weight
files); ``SevenNetD3Calculator`` / ``batch_d3`` (a CUDA C++ D3 extension); the parallel LAMMPS
model (``build_E3_equivariant_model(parallel=True)``: segments that expect LAMMPS' ghost-atom
exchange); ``torchsim.SevenNetModel`` (needs torch-sim-atomistic); the cuEq / FlashTP / OEQ
patched models (CUDA-only extensions); ``mliap`` (LAMMPS ML-IAP); optimizer / scheduler steps
and the ``ErrorRecorder`` (outside the loss).
Notes: the model writes its outputs into the input graph and sets ``requires_grad`` on its
``edge_vec``; each call of a factory's callable gets the same graph object (its keys are
overwritten on each call).
"""

PACKAGE = "sevenn"
DISTRIBUTION = "sevenn"

_CUTOFF = 4.0


def warm_up():
    import torch  # noqa: F401
    import torch_geometric  # noqa: F401

    import sevenn.model_build  # noqa: F401
    import sevenn.train.dataload  # noqa: F401
    import sevenn.train.loss  # noqa: F401
    import sevenn.train.reewc.loss  # noqa: F401


# --- structures and graphs -------------------------------------------------------------------

def _structures(kind="mixed"):
    import numpy as np
    from ase.build import bulk, molecule

    if kind == "si":
        at = bulk("Si", "diamond", a=5.43) * (2, 1, 1)
        at.rattle(0.02, seed=1)
        out = [at]
    else:
        out = [bulk("NaCl", "rocksalt", a=5.63), molecule("H2O"), molecule("H")]
        for i, at in enumerate(out):
            at.rattle(0.01, seed=i)
    rng = np.random.default_rng(0)
    for at in out:
        at.info["y_energy"] = float(rng.normal() - 3.0 * len(at))
        at.arrays["y_force"] = rng.normal(size=(len(at), 3))
        if at.pbc.all():
            at.info["y_stress"] = rng.normal(size=(6,)) * 0.01
    return out


def _species(kind="mixed"):
    chems = set()
    for at in _structures(kind):
        chems.update(at.get_chemical_symbols())
    return sorted(chems)


def _graph(atoms, labeled=False, modality=None, weight=False):
    import sevenn._keys as KEY
    import sevenn.train.dataload as dl
    from sevenn.atom_graph_data import AtomGraphData

    if labeled:
        g = AtomGraphData.from_numpy_dict(dl.atoms_to_graph(atoms, _CUTOFF, transfer_info=False))
    else:
        g = AtomGraphData.from_numpy_dict(dl.unlabeled_atoms_to_graph(atoms, _CUTOFF))
    if modality is not None:
        g[KEY.DATA_MODALITY] = modality
    if weight:
        g[KEY.DATA_WEIGHT] = {"energy": 1.0, "force": 0.5, "stress": 2.0}
    return g


def _batch(labeled=False, modal=False, weight=False, kind="mixed"):
    from torch_geometric.loader.dataloader import Collater

    mods = ["x1", "x2", "x1"]
    graphs = [
        _graph(at, labeled, mods[i % 3] if modal else None, weight)
        for i, at in enumerate(_structures(kind))
    ]
    return Collater(graphs)(graphs)


# --- configs ---------------------------------------------------------------------------------

def _config(over=None, universal=False, kind="mixed"):
    from sevenn.util import chemical_species_preprocess

    config = {
        "cutoff": _CUTOFF,
        "channel": 4,
        "radial_basis": {"radial_basis_name": "bessel"},
        "cutoff_function": {"cutoff_function_name": "poly_cut"},
        "interaction_type": "nequip",
        "lmax": 2,
        "is_parity": True,
        "num_convolution_layer": 2,
        "weight_nn_hidden_neurons": [16, 16],
        "act_radial": "silu",
        "act_scalar": {"e": "silu", "o": "tanh"},
        "act_gate": {"e": "silu", "o": "tanh"},
        "conv_denominator": 30.0,
        "train_denominator": False,
        "self_connection_type": "nequip",
        "shift": -10.0,
        "scale": 10.0,
        "train_shift_scale": False,
        "irreps_manual": False,
        "lmax_edge": -1,
        "lmax_node": -1,
        "readout_as_fcn": False,
        "readout_fcn_hidden_neurons": [30, 30],
        "readout_fcn_activation": "relu",
        "use_bias_in_linear": False,
        "_normalize_sph": True,
    }
    config.update(**chemical_species_preprocess(_species(kind), universal=universal))
    config.update(over or {})
    return config


_MODAL = {
    "use_modality": True,
    "_number_of_modalities": 2,
    "_modal_map": {"x1": 0, "x2": 1},
    "use_modal_node_embedding": False,
    "use_modal_self_inter_intro": False,
    "use_modal_self_inter_outro": False,
    "use_modal_output_block": False,
    "use_modal_wise_shift": False,
    "use_modal_wise_scale": False,
}


def _model(config):
    from sevenn.model_build import build_E3_equivariant_model

    return build_E3_equivariant_model(config, parallel=False)


def _train_config(**over):
    config = {
        "loss": "mse",
        "loss_param": {},
        "force_loss_weight": 0.1,
        "stress_loss_weight": 1e-6,
        "is_train_stress": True,
        "use_weight": False,
    }
    config.update(over)
    return config


def _step_module():
    import torch

    class TrainStep(torch.nn.Module):
        """``Trainer.run_one_epoch``'s training step up to ``total_loss.backward()``."""

        def __init__(self, model, loss_functions):
            super().__init__()
            self.model = model
            self.loss_functions = loss_functions
            object.__setattr__(self, "__wrapped__", model)

        def forward(self, batch):
            output = self.model(batch)
            total_loss = torch.tensor([0.0], device=batch["pos"].device)
            for loss_def, w in self.loss_functions:
                indv_loss = loss_def.get_loss(output, self.model)
                if indv_loss is not None:
                    total_loss += indv_loss * w
            return total_loss

    return TrainStep


def _eval_module():
    import torch

    class Predict(torch.nn.Module):
        """The model's forward with gradients on, as ``SevenNetCalculator.calculate`` and
        ``sevenn_inference`` run it (forces and stress are ``autograd.grad`` of the energy)."""

        def __init__(self, model):
            super().__init__()
            self.model = model
            object.__setattr__(self, "__wrapped__", model)

        def forward(self, data):
            with torch.enable_grad():
                return self.model(data)

    return Predict


def _ewc(model):
    import torch
    from sevenn.train.reewc.loss import EWCLoss

    fisher, opt = {}, {}
    g = torch.Generator().manual_seed(0)
    for name, p in model.named_parameters():
        if p.requires_grad:
            fisher[name] = torch.rand(p.shape, generator=g)
            opt[name] = p.detach().clone() + 0.01 * torch.randn(p.shape, generator=g)
    return EWCLoss(fisher, opt)


def _batched(over=None, universal=False, modal=False, train_over=None, weight=False, ewc=False):
    def make(mode):
        from sevenn.train.loss import get_loss_functions_from_config

        cfg = dict(_MODAL) if modal else {}
        cfg.update(over or {})
        model = _model(_config(cfg, universal=universal))
        model.set_is_batch_data(True)
        if mode == "eval":
            return _eval_module()(model), (_batch(labeled=False, modal=modal),), {}
        tcfg = _train_config(**(train_over or {}))
        if weight:
            tcfg["use_weight"] = True
        loss_functions = get_loss_functions_from_config(tcfg)
        if ewc:
            loss_functions.append((_ewc(model), 0.5))
        batch = _batch(labeled=True, modal=modal, weight=weight or tcfg["use_weight"])
        return _step_module()(model, loss_functions), (batch,), {}

    return make


def _calculator(which="bulk", over=None, atomic_virial=False, modal=False):
    """``SevenNetCalculator(model_instance)`` then ``calculate``'s graph and ``self.model(data)``."""

    def make(mode):
        import torch
        import sevenn._keys as KEY
        import sevenn.train.dataload as dl
        from sevenn.atom_graph_data import AtomGraphData
        from sevenn.calculator import SevenNetCalculator

        cfg = dict(_MODAL) if modal else {}
        cfg.update(over or {})
        kind = "si" if which == "si" else "mixed"
        model = _model(_config(cfg, kind=kind))
        calc = SevenNetCalculator(
            model, file_type="model_instance", device="cpu",
            modal="x1" if modal else None, compute_atomic_virial=atomic_virial,
        )
        atoms = {"bulk": 0, "mol": 1, "isolated": 2}.get(which, 0)
        atoms = _structures(kind)[atoms]
        data = AtomGraphData.from_numpy_dict(
            dl.unlabeled_atoms_to_graph(atoms, calc.cutoff, with_shift=False)
        )
        if calc.modal:
            data[KEY.DATA_MODALITY] = calc.modal
        data.to(torch.device("cpu"))
        if mode == "eval":
            return _eval_module()(calc.model), (data,), {}
        from sevenn.train.loss import get_loss_functions_from_config

        labeled = _graph(atoms, labeled=True, modality=calc.modal)
        calc.model.set_is_batch_data(True)
        batch = _batch_one(labeled)
        return _step_module()(calc.model, get_loss_functions_from_config(_train_config())), (batch,), {}

    return make


def _batch_one(graph):
    from torch_geometric.loader.dataloader import Collater

    return Collater([graph])([graph])


def _deploy_module():
    import torch
    import sevenn._keys as KEY

    class DeployedCall(torch.nn.Module):
        """One LAMMPS ``pair_e3gnn`` step: a fresh input graph (the model overwrites ``x``,
        the type indices, with their one-hot), the total energy out."""

        def __init__(self, model):
            super().__init__()
            self.model = model
            object.__setattr__(self, "__wrapped__", model)

        def forward(self, data):
            out = self.model(data.clone())
            return out[KEY.PRED_TOTAL_ENERGY]

    return DeployedCall


def _deployed(modal=False):
    """``scripts.deploy.deploy``'s serial model before ``e3nn.util.jit.script``."""

    def make(mode):
        import torch
        import sevenn._keys as KEY

        cfg = dict(_MODAL) if modal else {}
        model = _model(_config(cfg))
        if "force_output" in model._modules:
            model.delete_module_by_key("force_output")
        model.eval_type_map = False
        if modal:
            model.prepare_modal_deploy("x1")
        model.set_is_batch_data(False)
        atoms = _structures()[0]
        data = _graph(atoms)
        type_map = model.type_map
        data[KEY.NODE_FEATURE] = torch.tensor(
            [type_map[int(z)] for z in atoms.get_atomic_numbers()], dtype=torch.int64
        )
        return _deploy_module()(model), (data,), {}

    return make


mean_loss_module = None  # adapter.mean_loss_module, set by ZooSuite

_MODAL_WISE = {
    "use_modal_wise_shift": True,
    "use_modal_wise_scale": True,
    "shift": {"x1": -10.0, "x2": -5.0},
    "scale": {"x1": 10.0, "x2": 5.0},
}

MODELS = {
    # test_model.py's config and its test_num_params variations, batched
    "E3Model": _batched(),
    "E3Model_train_denominator": _batched({"train_denominator": True}),
    "E3Model_train_shift_scale": _batched({"train_shift_scale": True}),
    "E3Model_specieswise_shift": _batched({"shift": [1.0] * 4, "scale": [2.0] * 4, "train_shift_scale": True}),
    "E3Model_1conv": _batched({"num_convolution_layer": 1}),
    "E3Model_3conv": _batched({"num_convolution_layer": 3}),
    "E3Model_lmax3": _batched({"lmax": 3}),
    "E3Model_SE3": _batched({"is_parity": False}),
    "E3Model_linear_self_connection": _batched({"self_connection_type": "linear"}),
    "E3Model_mixed_self_connection": _batched({"self_connection_type": ["linear", "nequip"]}),
    "E3Model_XPLOR": _batched({"cutoff_function": {"cutoff_function_name": "XPLOR", "cutoff_on": 3.0}}),
    "E3Model_poly_cut_p8_bessel4": _batched({
        "cutoff_function": {"cutoff_function_name": "poly_cut", "poly_cut_p_value": 8},
        "radial_basis": {"radial_basis_name": "bessel", "bessel_basis_num": 4, "trainable_coeff": False},
    }),
    "E3Model_readout_fcn": _batched({"readout_as_fcn": True, "readout_fcn_hidden_neurons": [8, 8]}),
    "E3Model_irreps_manual": _batched({"irreps_manual": ["4x0e", "4x0e+2x1o+2x2e", "4x0e"]}),
    "E3Model_lmax_edge_node": _batched({"lmax_edge": 2, "lmax_node": 1}),
    "E3Model_bias": _batched({"use_bias_in_linear": True}),
    "E3Model_layer_denominators": _batched({"conv_denominator": [10.0, 30.0], "train_denominator": True}),
    "E3Model_unnormalized_sph": _batched({"_normalize_sph": False}),
    "E3Model_universal": _batched({"self_connection_type": "linear"}, universal=True),
    "SevenNet0_small": _batched({
        "channel": 8, "lmax": 2, "num_convolution_layer": 2, "self_connection_type": "linear",
        "is_parity": False, "weight_nn_hidden_neurons": [16, 16],
        "radial_basis": {"radial_basis_name": "bessel", "bessel_basis_num": 8},
        "cutoff_function": {"cutoff_function_name": "XPLOR", "cutoff_on": 3.5},
    }, universal=True),
    # losses of the trainer
    "E3Model_huber": _batched(train_over={"loss": "huber", "loss_param": {"delta": 0.01}}),
    "E3Model_no_stress": _batched(train_over={"is_train_stress": False}),
    "E3Model_data_weight": _batched(weight=True),
    "E3Model_reEWC": _batched(ewc=True),
    # multi-fidelity (modal) models
    "Modal": _batched(modal=True),
    "Modal_node_embedding": _batched({"use_modal_node_embedding": True}, modal=True),
    "Modal_self_inter": _batched({"use_modal_self_inter_intro": True, "use_modal_self_inter_outro": True}, modal=True),
    "Modal_output_block": _batched({"use_modal_output_block": True}, modal=True),
    "Modal_wise_shift_scale": _batched(dict(_MODAL_WISE, use_modal_output_block=True), modal=True),
    # the ASE calculator's forward on one structure
    "Calculator_bulk": _calculator("bulk"),
    "Calculator_molecule": _calculator("mol"),
    "Calculator_isolated_atom": _calculator("isolated"),
    "Calculator_Si_atomic_virial": _calculator("si", atomic_virial=True),
    "Calculator_modal": _calculator("bulk", modal=True),
    # LAMMPS serial deploy model (before TorchScript)
    "Deploy_serial": _deployed(),
    "Deploy_serial_modal": _deployed(modal=True),
}

