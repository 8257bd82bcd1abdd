"""TorchANI (aiqm / Roitberg group) 2.9.0, import name ``torchani``: ANI-style neural network
interatomic potentials built from code with random weights (no pretrained parameters, no
download), tiny (H, C, N, O; a batch of 2 molecules of 6 atoms, the second with one padding
atom ``-1``; AEVs of 4 radial shifts and 2 x 2 angular shifts x sections, 56 features;
atomic networks 16 -> 8 -> 1), as its README, user guide, migration guide, examples
(``fundamentals``, ``extending_aev``, ``training``, ``repulsive_potential``,
``vibration_analysis``) and tests use them:

- ``AEVComputer``: ``like_1x`` (cosine cutoff) and ``like_2x`` (``cutoff_fn="smooth"``) with
  small hyperparameters, the legacy ``from_constants``, a user ``Cutoff`` subclass
  (the example's biweight), user ``Radial`` / ``Angular`` terms with a trainable tensor (the
  example's ``Lorentzian`` / ``ExpCosine``), periodic boundaries (``cell`` / ``pbc``), the
  ``cell_list`` and ``verlet_cell_list`` neighborlists, and the split the migration guide shows
  (``AllPairs`` neighborlist, then ``compute_from_neighbors``);
- atomic network containers: ``ANINetworks`` (molecular and ``atomic=True``),
  ``ANISharedNetworks``, ``SingleNN`` (continuous and one-hot element embeddings),
  ``Ensemble`` (mean and ``ensemble_values``);
- the species pipeline pieces: ``SpeciesConverter`` and ``SelfEnergy`` (in the migration
  guide's user ``Model``: converter, AEV or neighborlist + ``compute_from_neighbors``,
  ``ANINetworks``, self energies; the AEV entries' train form), and the legacy
  ``nn.Sequential(SpeciesConverter, AEVComputer.from_constants, ANIModel, EnergyShifter)``
  with its tuple-passing signatures (in double: ``EnergyShifter`` keeps double energies);
- whole models from ``arch``: ``simple_ani`` (xTB repulsion on, its default), with an
  ensemble of 2 (``energies_qbcs``, ``atomic_stdev``), ``atomic_energies``, ``Assembler``
  models (small networks through ``set_atomic_networks(ctor="build")``; with pbc; with added
  ``LennardJones`` / ``RepulsionZBL`` potentials; ``SingleNN`` container, an ensemble of 2 with
  ``ensemble_values``), and the charge models ``simple_aniq`` (separate and merged charge networks, ``ChargeNormalizer``) and their
  dipoles (``electro.DipoleComputer``);
- ``grad``: ``energies_and_forces`` (forces by ``torch.autograd.grad`` inside the forward,
  under ``torch.enable_grad()`` as an MD / ASE driver does), ``single_point`` (forces and atomic
  energies, ensemble values), ``energies_forces_and_hessians`` and ``vibrational_analysis``;
- ``potentials`` standalone (``Potential.forward(atomic_nums, coords)``): ``RepulsionXTB``,
  ``LennardJones`` (trainable ``sigma`` / ``eps``), ``RepulsionZBL``, ``FixedCoulomb``, and a
  user ``PairPotential`` subclass (the docstring's ``Square``, trainable ``k``);
- ``transforms``: ``Compose([SubtractSAE, SubtractRepulsionXTB])`` on a batch dict (grad on:
  the xTB transform subtracts forces taken by autograd).

Eval: energies (or AEVs, scalars, result dicts / named tuples); force models return
``(energies, forces)``. Train: the training example's loss, the MSE of the energies over
``sqrt(num_atoms)`` (``EnergyLoss``), plus ``0.1 *`` the force MSE (``forces_for_training``,
``create_graph=True``) for the force models (``EnergyForceLoss``); charge models add the MSE of
the dipoles; AEV-only and parameter-free pieces train as part of a small model (AEV ->
``ANINetworks`` -> ``SelfEnergy``, or added to an ``Assembler`` model as a potential); the
Hessian / vibrational models (an ``Assembler`` model in double, one 4-atom molecule) train on
energies and forces, take the Hessian from the graph-carrying forces and run the analysis on the
detached Hessian (its value dropped); the transform model transforms the batch's targets and
then trains a small model on them.

    pip install --no-deps torchani==2.9.0
    pip install --no-deps huggingface_hub==0.36.0

(``huggingface_hub`` is imported at the top of ``torchani.arch`` / ``torchani.datasets`` for
downloads only; 0.36 imports with what is already installed: requests, filelock, fsspec,
packaging, PyYAML, tqdm.) Stubbed: ``h5py`` (compiled, not installed; imported at the top of
``torchani.potentials.dftd3``, which ``torchani.models`` / ``arch`` / ``grad`` import, and of the
dataset backends): its ``File`` raises if built. The adapter sets
``TORCHANI_NO_WARN_EXTENSIONS=1`` (silences the warning that the compiled extensions are absent).

Left out: the builtin pretrained models (``torchani.models.ANI1x`` / ``ANI2x`` / ...; they
download parameters); ``TwoBodyDispersionD3`` (loads its C6 table with h5py, stubbed) and so
``dispersion=True``; the compiled extensions: the cuAEV strategies (``strategy="auto"`` resolves
to ``pyaev``), ``fast_cell_list`` / ``fast_adaptive`` neighborlists (cell-list extension) and
``MNPNetworks``; ``to_infer_model`` (``BmmEnsemble`` calls ``torch.cuda.nvtx``, which needs a
CUDA build, and ``MNPNetworks`` needs CUDA); ``ANI.ase`` (ASE not installed); datasets /
``legacy_data`` (HDF5 files) and the CLI.
Notes: the species converter checks unsupported elements with ``.any()`` in Python unless
compiling; ``ANINetworks`` loops over elements with ``nonzero()`` (data-dependent shapes), the
neighborlists and ``neighbors_to_triples`` too; ``ANI.forward`` takes a fast path without the
neighborlist unless extra potentials, pbc or ``_molecule_idxs``; ``VerletCellList`` keeps a
cache in buffers and decides with ``bool(tensor)`` whether to rebuild.
"""

import functools
import os

PACKAGE = "torchani"
DISTRIBUTION = "torchani"

_SYMBOLS = ("H", "C", "N", "O")
_ZNUMS = (1, 6, 7, 8)
_DIMS = (16, 8)  # hidden widths of every atomic network
_CUTOFF_R, _CUTOFF_A = 5.2, 3.5


def _prepare():
    os.environ.setdefault("TORCHANI_NO_WARN_EXTENSIONS", "1")
    stub_modules({"h5py": ((), ("File", "Group", "Dataset"))}, "torchani")  # noqa: F821


def warm_up():
    _prepare()
    import torch  # noqa: F401
    import torchani  # noqa: F401
    import torchani.arch  # noqa: F401
    import torchani.grad  # noqa: F401
    import torchani.transforms  # noqa: F401


# --- inputs -------------------------------------------------------------------------------

def _molecs(pbc=False, batch=2, atoms=6):
    """(atomic_nums, coords[, cell, pbc]): methane-like random geometries in a 3 A box; the
    last molecule's last atom is padding (-1)."""
    import torch

    g = torch.Generator().manual_seed(0)
    z = torch.tensor(_ZNUMS)[torch.randint(0, 4, (batch, atoms), generator=g)]
    z[:, 0] = 6
    if batch > 1:
        z[-1, -1] = -1
    coords = torch.rand(batch, atoms, 3, generator=g) * 3.0 + 0.5
    if not pbc:
        return z, coords
    cell = torch.eye(3) * 6.0  # > the 5.2 A cutoff: the cell list needs one cell per cutoff
    return z, coords, cell, torch.tensor([True, True, True])


def _targets(z, with_forces=False):
    import torch

    g = torch.Generator().manual_seed(1)
    e = torch.randn(z.shape[0], generator=g)
    if not with_forces:
        return (e,)
    return e, torch.randn(z.shape + (3,), generator=g) * 0.1


def _idxs(z):
    """Element indices (0..3, -1 padding) for the modules that take them."""
    import torch

    conv = {1: 0, 6: 1, 7: 2, 8: 3, -1: -1}
    return torch.tensor([[conv[int(a)] for a in row] for row in z])


# --- builders -----------------------------------------------------------------------------

def _aev(kind="1x", neighborlist="all_pairs", cutoff_fn=None):
    from torchani.aev import AEVComputer

    small = dict(radial_num_shifts=4, angular_num_shifts=2, angular_num_sections=2)
    if kind == "1x":
        return AEVComputer.like_1x(num_species=4, neighborlist=neighborlist,
                                   cutoff_fn=cutoff_fn or "cosine", **small)
    if kind == "2x":
        return AEVComputer.like_2x(num_species=4, neighborlist=neighborlist,
                                   cutoff_fn=cutoff_fn or "smooth", **small)
    if kind == "constants":
        return AEVComputer.from_constants(
            radial_cutoff=_CUTOFF_R, angular_cutoff=_CUTOFF_A, radial_eta=16.0,
            radial_shifts=[0.9, 2.0, 3.1, 4.2], angular_eta=8.0, angular_zeta=32.0,
            angular_shifts=[0.9, 2.2], sections=[0.4, 1.2], num_species=4)
    if kind == "biweight":
        return AEVComputer.like_1x(num_species=4, cutoff_fn=_nets().CutoffBiweight(), **small)
    if kind == "custom_terms":
        n = _nets()
        radial = n.Lorentzian(fwhm=1.5, shifts=[0.0, 1.0, 2.0, 3.0], trainable="shifts",
                              cutoff=_CUTOFF_R, cutoff_fn="smooth")
        angular = n.ExpCosine(eta_r=8.0, shifts=[0.9, 2.2], eta_a=[36.0, 15.5, 36.0],
                              cos_phi=[1.0, 0.0, -1.0], cutoff=_CUTOFF_A, cutoff_fn="smooth")
        return AEVComputer(radial=radial, angular=angular, num_species=4)
    raise ValueError(kind)


def _networks(in_dim, kind="ani", out_dim=1):
    from torchani.nn import ANINetworks, ANISharedNetworks, SingleNN

    if kind == "ani":
        return ANINetworks.build(_SYMBOLS, in_dim, {"H": (16, 8), "C": (24, 8)},
                                 out_dim=out_dim, default_dims=_DIMS)
    if kind == "ani_celu_bias":
        return ANINetworks.build(_SYMBOLS, in_dim, {}, default_dims=_DIMS,
                                 activation="celu", bias=True)
    if kind == "shared":
        return ANISharedNetworks.build(_SYMBOLS, in_dim, shared_dims=(16,), dims={"H": (8,)},
                                       default_dims=(12,))
    if kind == "single":
        return SingleNN.build(_SYMBOLS, in_dim, _DIMS)
    if kind == "single_onehot":
        return SingleNN.build(_SYMBOLS, in_dim, _DIMS, embed_kind="one-hot")
    raise ValueError(kind)


def _assembler_model(ensemble=1, neighborlist="all_pairs", container="ani", potentials=(),
                     charges=None):
    """``Assembler``: small AEV (smooth global cutoff), small networks, GSAEs of wB97X/6-31G(d)."""
    import torchani
    from torchani.aev import ANIAngular, ANIRadial
    from torchani.arch import ANIq, Assembler
    from torchani.electro import ChargeNormalizer
    from torchani.nn import ANINetworks, SingleNN

    asm = Assembler(cls=ANIq if charges else torchani.arch.ANI)
    asm.set_symbols(_SYMBOLS)
    asm.set_global_cutoff_fn("smooth")
    asm.set_aev_computer(
        radial=ANIRadial.cover_linearly(start=0.9, cutoff=_CUTOFF_R, eta=19.7, num_shifts=4),
        angular=ANIAngular.cover_linearly(start=0.9, cutoff=_CUTOFF_A, eta=12.5, zeta=14.1,
                                          num_shifts=2, num_sections=2),
        strategy="pyaev",
    )
    out_dim = 2 if charges == "merged" else 1
    if container == "single":
        asm.set_atomic_networks(cls=SingleNN, ctor="build", kwargs={"dims": _DIMS})
    else:
        asm.set_atomic_networks(cls=ANINetworks, ctor="build",
                                kwargs={"dims": {}, "default_dims": _DIMS, "out_dim": out_dim})
    if charges == "separate":
        asm.set_charge_networks(cls=ANINetworks, ctor="build",
                                kwargs={"dims": {}, "default_dims": (8,)},
                                normalizer=ChargeNormalizer.from_electronegativity_and_hardness(
                                    _SYMBOLS, scale_weights_by_charges_squared=True))
    asm.set_neighborlist(neighborlist)
    asm.set_gsaes_as_self_energies("wb97x-631gd")
    for cls_name, kwargs in potentials:
        cls = getattr(torchani.potentials, cls_name)
        asm.add_potential(cls, name=cls_name.lower(), cutoff=_CUTOFF_R, kwargs=kwargs)
    return asm.assemble(ensemble)


def _simple_ani(**kw):
    from torchani.arch import simple_ani

    kw.setdefault("radial_shifts", 4)
    kw.setdefault("angular_shifts", 2)
    kw.setdefault("sections", 2)
    return simple_ani(_SYMBOLS, lot="wb97x-631gd", **kw)


def _simple_aniq(**kw):
    from torchani.arch import simple_aniq

    return simple_aniq(_SYMBOLS, lot="wb97x-631gd", radial_shifts=4, angular_shifts=2,
                       sections=2, **kw)


# --- user-side modules (built once) ------------------------------------------------------

@functools.cache
def _nets():
    import types

    import torch
    from torch import nn
    from torchani.aev import Angular, Radial
    from torchani.cutoffs import Cutoff
    from torchani.electro import DipoleComputer
    from torchani.grad import (energies_and_forces, energies_forces_and_hessians, forces_and_hessians,
                               forces_for_training, single_point, vibrational_analysis)
    from torchani.neighbors import AllPairs
    from torchani.nn import SpeciesConverter
    from torchani.potentials import PairPotential
    from torchani.sae import SelfEnergy
    from torchani.utils import AtomicNumbersToMasses

    class CutoffBiweight(Cutoff):
        """The ``extending_aev`` example's user cutoff function."""

        def forward(self, distances, cutoff):
            return (cutoff**2 - distances**2) ** 2 / cutoff**4

    class Lorentzian(Radial):
        """The example's 2-body terms ``1 / (1 + x**2)``."""

        tensors = ["shifts", "fwhm"]

        def compute(self, distances):
            x = 2 * (distances - self.shifts) / self.fwhm
            return 1 / (1 + x**2)

    class ExpCosine(Angular):
        """The example's 3-body terms."""

        angles_tensors = ["cos_phi", "eta_a"]
        radial_tensors = ["shifts", "eta_r"]

        def compute_cos_angles(self, cos_angles):
            return 2 * torch.exp(-self.eta_a * (cos_angles - self.cos_phi) ** 2)

        def compute_radial(self, distances_ji, distances_jk):
            mean_dists = (distances_ji + distances_jk) / 2
            return 2 * torch.exp(-self.eta_r * (mean_dists - self.shifts) ** 2)

    class Square(PairPotential):
        """The ``PairPotential`` docstring's user potential."""

        tensors = ["bias"]
        pair_elem_tensors = ["k", "eq"]

        def pair_energies(self, elem_idxs, neighbors):
            elem_pairs = elem_idxs.view(-1)[neighbors.indices]
            eq = self.to_pair_values(self.eq, elem_pairs)
            k = self.to_pair_values(self.k, elem_pairs)
            return self.bias + k / 2 * (neighbors.distances - eq) ** 2

    class AEVModel(nn.Module):
        """The migration guide's user ``Model``: converter, (neighborlist,) AEV, networks,
        self energies; ``split``: the neighborlist then ``compute_from_neighbors``."""

        def __init__(self, aevc, networks=None, split=False):
            super().__init__()
            self.converter = SpeciesConverter(_SYMBOLS)
            self.neighborlist = AllPairs()
            self.aevc = aevc
            self.nn = networks if networks is not None else _networks(aevc.out_dim)
            self.shifter = SelfEnergy(_SYMBOLS, (-0.5, -37.8, -54.6, -75.0))
            self.split = split

        def forward(self, atomic_nums, coords, cell=None, pbc=None):
            idxs = self.converter(atomic_nums)
            if self.split:
                cutoff = self.aevc.radial.cutoff
                neighbors = self.neighborlist(cutoff, idxs, coords, cell, pbc)
                aevs = self.aevc.compute_from_neighbors(idxs, coords, neighbors)
            else:
                aevs = self.aevc(idxs, coords, cell, pbc)
            return self.nn(idxs, aevs) + self.shifter(idxs)

    class AEVOnly(nn.Module):
        """``aevs = aevc(converter(atomic_nums), coords, cell, pbc)``; ``split``: as
        ``AEVModel``."""

        def __init__(self, aevc, split=False):
            super().__init__()
            self.converter = SpeciesConverter(_SYMBOLS)
            self.neighborlist = AllPairs()
            self.aevc = aevc
            self.split = split

        def forward(self, atomic_nums, coords, cell=None, pbc=None):
            idxs = self.converter(atomic_nums)
            if self.split:
                neighbors = self.neighborlist(self.aevc.radial.cutoff, idxs, coords, cell, pbc)
                return self.aevc.compute_from_neighbors(idxs, coords, neighbors)
            return self.aevc(idxs, coords, cell, pbc)

    class Container(nn.Module):
        """``container(elem_idxs, aevs[, atomic=, ensemble_values=])``."""

        def __init__(self, container, atomic=False, ensemble_values=False):
            super().__init__()
            self.container = container
            self.atomic, self.ensemble_values = atomic, ensemble_values

        def forward(self, elem_idxs, aevs):
            return self.container(elem_idxs, aevs, atomic=self.atomic,
                                  ensemble_values=self.ensemble_values)

    class ScalarsLoss(nn.Module):
        """A training step of a container on fixed AEVs: MSE of its molecular scalars
        (atomic ones summed over atoms, ensemble values averaged)."""

        def __init__(self, net):
            super().__init__()
            self.net = net
            object.__setattr__(self, "__wrapped__", net)

        def forward(self, elem_idxs, aevs, target):
            out = self.net(elem_idxs, aevs)
            if self.net.ensemble_values:
                out = out.mean(0)
            if self.net.atomic:
                out = out.sum(-1)
            return (out - target).pow(2).mean()

    class ANICall(nn.Module):
        """``model((atomic_nums, coords), cell, pbc[, atomic=, ensemble_values=]).energies``,
        or another entry point (``energies_qbcs``, ``atomic_energies``, ``atomic_stdev``)."""

        def __init__(self, model, entry="forward", atomic=False, ensemble_values=False):
            super().__init__()
            self.model = model
            self.entry, self.atomic, self.ensemble_values = entry, atomic, ensemble_values

        def forward(self, atomic_nums, coords, cell=None, pbc=None):
            sc = (atomic_nums, coords)
            if self.entry == "energies_qbcs":
                return self.model.energies_qbcs(sc, cell, pbc)
            if self.entry == "atomic_energies":
                return self.model.atomic_energies(sc, cell, pbc)
            if self.entry == "atomic_stdev":
                return self.model.atomic_stdev(sc, cell, pbc)
            return self.model(sc, cell, pbc, atomic=self.atomic,
                              ensemble_values=self.ensemble_values).energies

    class Potential(nn.Module):
        """``potential(atomic_nums, coords[, cell, pbc])``: its energies."""

        def __init__(self, pot):
            super().__init__()
            self.pot = pot

        def forward(self, atomic_nums, coords, cell=None, pbc=None):
            return self.pot(atomic_nums, coords, cell, pbc)

    class EnergyLoss(nn.Module):
        """The training example's loss: MSE of the energies over sqrt(atoms). ``net``: a
        callable ``(atomic_nums, coords[, cell, pbc]) -> energies``."""

        def __init__(self, net):
            super().__init__()
            self.net = net
            object.__setattr__(self, "__wrapped__", net)

        def forward(self, atomic_nums, coords, target_energies, cell=None, pbc=None):
            num_atoms = (atomic_nums >= 0).sum(dim=1, dtype=target_energies.dtype)
            out = self.net(atomic_nums, coords, cell, pbc)
            energies = out if isinstance(out, torch.Tensor) else out.energies
            return ((energies - target_energies).pow(2) / num_atoms.sqrt()).mean()

    class EnergiesAndForces(nn.Module):
        """``energies_and_forces(model, atomic_nums, coords, cell, pbc)`` (forces from
        ``torch.autograd.grad``; grad on even at inference, as an MD driver)."""

        def __init__(self, model):
            super().__init__()
            self.model = model

        def forward(self, atomic_nums, coords, cell=None, pbc=None):
            with torch.enable_grad():
                return tuple(energies_and_forces(self.model, atomic_nums, coords, cell, pbc))

    class EnergyForceLoss(nn.Module):
        """The training example with ``force_training``: energy MSE + 0.1 * force MSE,
        forces by ``forces_for_training`` (create_graph). ``model``: an ``ANI`` or a
        ``Potential``."""

        def __init__(self, model):
            super().__init__()
            self.model = model
            object.__setattr__(self, "__wrapped__", model)

        def forward(self, atomic_nums, coords, target_energies, target_forces, cell=None,
                    pbc=None):
            coords = coords.detach().requires_grad_(True)
            num_atoms = (atomic_nums >= 0).sum(dim=1, dtype=target_energies.dtype)
            if isinstance(self.model, torch.nn.Module) and hasattr(self.model, "species_converter"):
                energies = self.model((atomic_nums, coords), cell, pbc).energies
            else:
                energies = self.model(atomic_nums, coords, cell, pbc)
            forces = forces_for_training(energies, coords)
            mse = torch.nn.functional.mse_loss
            energy_loss = (mse(energies, target_energies, reduction="none")
                           / num_atoms.sqrt()).mean()
            force_loss = (mse(forces, target_forces, reduction="none").sum(dim=(1, 2))
                          / num_atoms).mean()
            return energy_loss + 0.1 * force_loss

    class SinglePoint(nn.Module):
        """``single_point(model, atomic_nums, coords, **options)`` (a dict of tensors)."""

        def __init__(self, model, **options):
            super().__init__()
            self.model = model
            self.options = options

        def forward(self, atomic_nums, coords, cell=None, pbc=None):
            with torch.enable_grad():
                return single_point(self.model, atomic_nums, coords, cell, pbc, **self.options)

    class Hessians(nn.Module):
        """``energies_forces_and_hessians``; ``vib``: then ``vibrational_analysis`` with the
        masses of the atomic numbers (one molecule)."""

        def __init__(self, model, vib=False):
            super().__init__()
            self.model = model
            self.vib = vib
            self.masses = AtomicNumbersToMasses()

        def forward(self, atomic_nums, coords):
            with torch.enable_grad():
                energies, forces, hessians = energies_forces_and_hessians(
                    self.model, atomic_nums, coords)
            if not self.vib:
                return energies, forces, hessians
            return tuple(vibrational_analysis(self.masses(atomic_nums), hessians, mode_kind="mdu"))

    class HessianStep(nn.Module):
        """Training with the Hessian analysis reported: energy + force loss (create_graph),
        the Hessian from the graph-carrying forces, ``vib``: its vibrational analysis (on the
        detached Hessian; dropped)."""

        def __init__(self, model, vib=False):
            super().__init__()
            self.model = model
            self.vib = vib
            self.masses = AtomicNumbersToMasses()
            object.__setattr__(self, "__wrapped__", model)

        def forward(self, atomic_nums, coords, target_energies, target_forces):
            coords = coords.detach().requires_grad_(True)
            energies = self.model((atomic_nums, coords)).energies
            forces, hessians = forces_and_hessians(energies, coords, retain_graph=True)
            if self.vib:
                vibrational_analysis(self.masses(atomic_nums), hessians.detach())
            return (energies - target_energies).pow(2).mean() \
                + 0.1 * (forces - target_forces).pow(2).mean()

    class Dipoles(nn.Module):
        """An ``ANIq`` model's energies, atomic charges, and the dipoles of the charges
        (``DipoleComputer``, center of mass)."""

        def __init__(self, model):
            super().__init__()
            self.model = model
            self.dipole = DipoleComputer()

        def forward(self, atomic_nums, coords):
            _, energies, charges = self.model((atomic_nums, coords))
            return energies, charges, self.dipole(atomic_nums, coords, charges)

    class DipoleLoss(nn.Module):
        """Charge-model training: energy MSE + dipole MSE."""

        def __init__(self, model):
            super().__init__()
            self.net = Dipoles(model)
            object.__setattr__(self, "__wrapped__", model)

        def forward(self, atomic_nums, coords, target_energies, target_dipoles):
            energies, _, dipoles = self.net(atomic_nums, coords)
            return (energies - target_energies).pow(2).mean() \
                + (dipoles - target_dipoles).pow(2).mean()

    class Legacy(nn.Module):
        """The legacy pipeline ``Sequential(converter, aev, ANIModel, EnergyShifter)``
        called with ``(species, coords)`` tuples: ``model((species, coords)).energies``."""

        def __init__(self, seq):
            super().__init__()
            self.seq = seq

        def forward(self, atomic_nums, coords, cell=None, pbc=None):
            return self.seq((atomic_nums, coords)).energies

    class TransformStep(nn.Module):
        """A training step that first applies the dataset transform to the batch (on
        device, as the training example says), then the energy loss of ``model``; without a
        model it returns the transformed batch."""

        def __init__(self, transform, model=None):
            super().__init__()
            self.transform = transform
            self.model = model

        def forward(self, batch):
            with torch.enable_grad():  # SubtractRepulsionXTB takes the forces by autograd
                batch = self.transform(dict(batch))
            if self.model is None:
                return batch
            species, coords = batch["species"], batch["coordinates"]
            num_atoms = (species >= 0).sum(dim=1, dtype=coords.dtype)
            energies = self.model((species, coords)).energies
            return ((energies - batch["energies"].detach()).pow(2) / num_atoms.sqrt()).mean()

    return types.SimpleNamespace(**{k: v for k, v in locals().items() if isinstance(v, type)})


# --- model factories ---------------------------------------------------------------------

def _energy_io(mode, net, pbc=False, forces=False):
    """Eval: ``net(atomic_nums, coords[, cell, pbc])``; train: ``EnergyLoss`` /
    ``EnergyForceLoss``."""
    inputs = _molecs(pbc=pbc)
    z, coords = inputs[:2]
    extra = {} if not pbc else {"cell": inputs[2], "pbc": inputs[3]}
    if mode == "train":
        if forces:
            return _nets().EnergyForceLoss(net), (z, coords) + _targets(z, True), extra
        return _nets().EnergyLoss(net), (z, coords) + _targets(z), extra
    return net, (z, coords), extra


def _aev_model(kind="1x", neighborlist="all_pairs", pbc=False, split=False, batch=2):
    """Eval: the AEVs (``AEVOnly``); train: AEV -> ``ANINetworks`` -> ``SelfEnergy``."""

    def make(mode):
        _prepare()
        n = _nets()
        aevc = _aev(kind, neighborlist)
        inputs = _molecs(pbc=pbc, batch=batch)
        z, coords = inputs[:2]
        extra = {} if not pbc else {"cell": inputs[2], "pbc": inputs[3]}
        if mode == "train":
            return n.EnergyLoss(n.AEVModel(aevc, split=split)), (z, coords) + _targets(z), extra
        return n.AEVOnly(aevc, split=split), (z, coords), extra

    return make


def _container(kind="ani", atomic=False, ensemble=0, ensemble_values=False):
    """Containers on random AEVs (56 features) and element indices with padding."""

    def make(mode):
        _prepare()
        import torch
        from torchani.nn import Ensemble

        in_dim = 56
        if ensemble:
            net = Ensemble([_networks(in_dim, kind) for _ in range(ensemble)])
        else:
            net = _networks(in_dim, kind)
        z, _ = _molecs()
        idxs = _idxs(z)
        aevs = torch.randn(idxs.shape + (in_dim,))
        mod = _nets().Container(net, atomic=atomic, ensemble_values=ensemble_values)
        if mode == "train":
            target = torch.randn(idxs.shape[0])
            return _nets().ScalarsLoss(mod), (idxs, aevs, target), {}
        return mod, (idxs, aevs), {}

    return make


def _ani(build, entry="forward", atomic=False, ensemble_values=False, pbc=False):
    def make(mode):
        _prepare()
        model = build()
        if mode == "train" and entry != "forward":
            return _energy_io(mode, _nets().ANICall(model), pbc=pbc)
        return _energy_io(mode, _nets().ANICall(model, entry, atomic, ensemble_values), pbc=pbc)

    return make


def _forces(build, pbc=False):
    """Eval: ``energies_and_forces``; train: ``EnergyForceLoss``."""

    def make(mode):
        _prepare()
        model = build()
        if mode == "train":
            return _energy_io(mode, model, pbc=pbc, forces=True)
        return _energy_io(mode, _nets().EnergiesAndForces(model), pbc=pbc)

    return make


def _single_point(build, **options):
    def make(mode):
        _prepare()
        model = build()
        if mode == "train":
            return _energy_io(mode, model, forces=True)
        return _energy_io(mode, _nets().SinglePoint(model, **options))

    return make


def _hessians(vib=False):
    """An ``Assembler`` model (small networks), one 4-atom molecule (vibrational analysis
    takes one), double precision."""

    def make(mode):
        _prepare()
        model = _assembler_model().double()
        z, coords = _molecs(batch=1, atoms=4)
        coords = coords.double()
        if mode == "train":
            e, f = _targets(z, True)
            return _nets().HessianStep(model, vib), (z, coords, e.double(), f.double()), {}
        return _nets().Hessians(model, vib), (z, coords), {}

    return make


def _potential(name):
    """A potential alone: eval ``pot(atomic_nums, coords)`` (``energies_and_forces`` for
    xTB, as the example); train: trainable ones fit energies and forces alone, the fixed ones
    are added to an ``Assembler`` model as a potential."""

    def build():
        from torchani.potentials import FixedCoulomb, LennardJones, RepulsionXTB, RepulsionZBL

        if name == "RepulsionXTB":
            return RepulsionXTB(symbols=_SYMBOLS, cutoff=_CUTOFF_R)
        if name == "LennardJones":
            return LennardJones(_SYMBOLS, trainable=("sigma", "eps"), cutoff=_CUTOFF_R)
        if name == "RepulsionZBL":
            return RepulsionZBL(_SYMBOLS, cutoff=_CUTOFF_R)
        if name == "FixedCoulomb":
            return FixedCoulomb(_SYMBOLS, charges=(0.3, -0.2, -0.4, -0.5), cutoff=_CUTOFF_R)
        if name == "Square":
            n4 = len(_SYMBOLS) * (len(_SYMBOLS) + 1) // 2
            return _nets().Square(symbols=_SYMBOLS, k=(1.0,) * n4, eq=(1.5,) * n4, bias=0.1,
                                  trainable="k", cutoff=_CUTOFF_R)
        raise ValueError(name)

    def make(mode):
        _prepare()
        pot = build()
        if mode == "train":
            if any(p.requires_grad for p in pot.parameters()):
                return _energy_io(mode, pot, forces=True)
            kwargs = {"charges": (0.3, -0.2, -0.4, -0.5)} if name == "FixedCoulomb" else {}
            return _energy_io(mode, _assembler_model(potentials=[(name, kwargs)]), forces=True)
        if name == "RepulsionXTB":
            return _energy_io(mode, _nets().EnergiesAndForces(pot))
        return _energy_io(mode, _nets().Potential(pot))

    return make


def _charges(kind="separate", via="simple"):
    def make(mode):
        _prepare()
        import torch

        if via == "simple":
            model = _simple_aniq(merge_charge_networks=(kind == "merged"), repulsion=False)
        else:
            model = _assembler_model(charges=kind)
        z, coords = _molecs()
        if mode == "train":
            e = _targets(z)[0]
            return _nets().DipoleLoss(model), (z, coords, e, torch.randn(z.shape[0], 3)), {}
        return _nets().Dipoles(model), (z, coords), {}

    return make


def _legacy_sequential(mode):
    """``torchani.nn.Sequential(SpeciesConverter, AEVComputer, ANIModel, EnergyShifter)``."""
    _prepare()
    from torchani.nn import ANIModel, AtomicNetwork, Sequential, SpeciesConverter
    from torchani.utils import EnergyShifter

    aevc = _aev("constants")
    nets = ANIModel({s: AtomicNetwork((aevc.out_dim,) + _DIMS + (1,), activation="celu",
                                      bias=True) for s in _SYMBOLS})
    shifter = EnergyShifter([-0.5, -37.8, -54.6, -75.0])
    seq = Sequential(SpeciesConverter(_SYMBOLS), aevc, nets, shifter)
    net = _nets().Legacy(seq.double())  # EnergyShifter's self energies are double
    z, coords = _molecs()
    if mode == "train":
        return _nets().EnergyLoss(net), (z, coords.double(), _targets(z)[0].double()), {}
    return net, (z, coords.double()), {}


def _transforms(mode):
    """``Compose([SubtractSAE, SubtractRepulsionXTB])`` on a batch dict (forces too)."""
    _prepare()
    from torchani.transforms import Compose, SubtractRepulsionXTB, SubtractSAE

    t = Compose([SubtractSAE(_SYMBOLS, (-0.5, -37.8, -54.6, -75.0)),
                 SubtractRepulsionXTB(symbols=_SYMBOLS, cutoff=_CUTOFF_R)])
    z, coords = _molecs()
    e, f = _targets(z, True)
    batch = {"species": z, "coordinates": coords, "energies": e, "forces": f}
    if mode == "train":
        model = _simple_ani(repulsion=False)
        return _nets().TransformStep(t, model), (batch,), {}
    return _nets().TransformStep(t), (batch,), {}


MODELS = {
    # AEVs (eval: features; train: in a small AEV -> networks -> self-energy model)
    "AEVComputer_like_1x": _aev_model("1x"),
    "AEVComputer_like_2x_smooth": _aev_model("2x"),
    "AEVComputer_from_constants": _aev_model("constants"),
    "AEVComputer_custom_cutoff": _aev_model("biweight"),
    "AEVComputer_custom_terms": _aev_model("custom_terms"),
    "AEVComputer_pbc": _aev_model("1x", pbc=True),
    "AEVComputer_cell_list_pbc": _aev_model("1x", neighborlist="cell_list", pbc=True, batch=1),
    "AEVComputer_verlet_cell_list": _aev_model("1x", neighborlist="verlet_cell_list", batch=1),
    "AEVComputer_compute_from_neighbors": _aev_model("2x", split=True),
    # atomic network containers
    "ANINetworks": _container("ani"),
    "ANINetworks_atomic": _container("ani_celu_bias", atomic=True),
    "ANISharedNetworks": _container("shared"),
    "SingleNN": _container("single"),
    "SingleNN_one_hot": _container("single_onehot"),
    "Ensemble": _container("ani", ensemble=2),
    "Ensemble_ensemble_values": _container("ani", ensemble=2, ensemble_values=True),
    # pipelines
    "Sequential_legacy": _legacy_sequential,
    # whole ANI models
    "simple_ani": _ani(lambda: _simple_ani()),
    "simple_ani_no_repulsion": _ani(lambda: _simple_ani(repulsion=False)),
    "simple_ani_ensemble_qbcs": _ani(lambda: _simple_ani(ensemble_size=2), entry="energies_qbcs"),
    "simple_ani_atomic_energies": _ani(lambda: _simple_ani(), entry="atomic_energies"),
    "simple_ani_atomic_stdev": _ani(lambda: _simple_ani(ensemble_size=2, repulsion=False),
                                    entry="atomic_stdev"),
    "Assembler_ANI_pbc": _ani(lambda: _assembler_model(), pbc=True),
    "Assembler_SingleNN_ensemble": _ani(lambda: _assembler_model(ensemble=2, container="single"),
                                        ensemble_values=True),
    "Assembler_LJ_ZBL_potentials": _ani(lambda: _assembler_model(
        potentials=[("LennardJones", {}), ("RepulsionZBL", {})])),
    # forces / single point / hessians
    "energies_and_forces": _forces(lambda: _simple_ani()),
    "energies_and_forces_pbc": _forces(lambda: _assembler_model(), pbc=True),
    "single_point_forces_atomic": _single_point(lambda: _simple_ani(), forces=True,
                                                atomic_energies=True),
    "single_point_ensemble_values": _single_point(lambda: _simple_ani(ensemble_size=2),
                                                  forces=True, ensemble_values=True),
    "hessians": _hessians(),
    "vibrational_analysis": _hessians(vib=True),
    # charge models
    "simple_aniq_dipoles": _charges("separate"),
    "simple_aniq_merged_dipoles": _charges("merged"),
    "Assembler_ANIq_dipoles": _charges("separate", via="assembler"),
    # potentials
    "RepulsionXTB": _potential("RepulsionXTB"),
    "LennardJones": _potential("LennardJones"),
    "RepulsionZBL": _potential("RepulsionZBL"),
    "FixedCoulomb": _potential("FixedCoulomb"),
    "PairPotential_custom": _potential("Square"),
    # transforms
    "transforms_Compose": _transforms,
}
