"""chemprop 2.3.1: message-passing networks for molecular property prediction, built as its docs
and tests build them (``nn.BondMessagePassing`` / ``nn.AtomMessagePassing`` -> an ``nn`` aggregation
-> an ``nn`` predictor, wrapped in ``models.MPNN``, ``MulticomponentMPNN`` or ``MolAtomBondMPNN``),
tiny (hidden size 16, depth 2-3, FFN width 16), random weights, no download.

Data: a few SMILES (ethanol, phenol, paracetamol, alanine, ...) go through the library's own pipeline:
``MoleculeDatapoint.from_smi`` (targets with a NaN, so the loss mask is used) -> ``MoleculeDataset``
with a featurizer (``SimpleMoleculeMolGraphFeaturizer`` with the V2 default, V1, ORGANIC and RIGR atom
featurizers; extra atom / bond features; ``CuikmolmakerMolGraphFeaturizer``; the CGR featurizer for
reactions) -> ``build_dataloader(..., shuffle=False)`` -> one batch (``TrainingBatch`` holding a
``BatchMolGraph``; ``MulticomponentTrainingBatch``; ``MolAtomBondTrainingBatch``).

Eval: ``model(bmg, V_d, X_d)`` (``predict_step``'s call), and ``fingerprint`` / ``encoding`` for two
uses. Train: ``TrainStep(model)(batch)`` = ``model.training_step(batch, 0)`` as Lightning calls it: the
mask / ``nan_to_num``, ``fingerprint``, ``predictor.train_step``, the criterion (a torchmetrics
``Metric`` forward) and ``self.log`` (no trainer attached: Lightning warns and returns).

Models (44):
- aggregations on the default bond MPNN and regression: ``MeanAggregation``, ``SumAggregation``,
  ``NormAggregation``, ``AttentiveAggregation``; ``AtomMessagePassing`` (mean, and undirected);
  ``BondMessagePassing`` undirected with dropout / bias / tanh; ``batch_norm=True``; a two-layer
  FFN with task weights; ``MAE`` / ``RMSE`` / ``BoundedMSE`` criteria (bounded with lt / gt masks);
- inputs: scaled targets (``UnscaleTransform.from_standard_scaler``) and scaled extra
  descriptors ``X_d`` (``ScaleTransform``; Morgan binary fingerprints, Morgan counts, and
  ``RDKit2DFeaturizer`` descriptors as ``x_d``), atom descriptors ``V_d`` (``d_vd``,
  ``V_d_transform``), extra atom / bond features (``V_f`` / ``E_f``) with a ``GraphTransform``,
  the V1 / ORGANIC / RIGR featurizers, the cuik-molmaker batched featurizer;
- predictors: ``RegressionFFN``, ``MveFFN`` (and scaled: ``transform_variance``), ``EvidentialFFN``,
  ``QuantileFFN``, ``BinaryClassificationFFN`` (BCE, and ``BinaryMCCLoss``), ``BinaryDirichletFFN``,
  ``MulticlassClassificationFFN`` (cross-entropy, and ``MulticlassMCCLoss``),
  ``MulticlassDirichletFFN``, ``SpectralFFN`` (SID with softplus; ``Wasserstein`` with ``exp``
  and a threshold);
- ``MulticomponentMPNN`` (two molecules, separate blocks; one shared block with ``V_d``s; a
  reaction + a solvent), a reaction ``MPNN`` on the CGR (``REAC_DIFF`` and ``PROD_DIFF`` modes);
- ``MolAtomBondMPNN``: molecule + atom + bond regression, atom and bond constrainers
  (``ConstrainerFFN`` with ``atom_constraint`` / ``bond_constraint``), atom-only classification on
  ``MABAtomMessagePassing``;
- ``MPNN.fingerprint`` and ``MPNN.encoding(i=1)`` (train: ``mean_loss_module``).

    pip install --no-deps chemprop==2.3.1
    pip install --no-deps rdkit==2026.3.6 cuik_molmaker_pin==2026.3.6
    pip install --no-deps descriptastorus==2.8.0 multiprocess==0.70.19 astartes==1.3.3 configargparse==1.9.0
    pip install --no-deps pandas-flavor==0.8.1

(already installed and used: lightning 2.6.6, torchmetrics, numpy, pandas, scipy, scikit-learn,
rich, dill, tabulate, xarray, psutil.) rdkit is pinned to 2026.3.6 because cuik_molmaker_pin pins
it (a binary extension, no torch). ``chemprop/__init__`` imports ``data`` (astartes for splitting),
``featurizers`` (descriptastorus -> pandas_flavor, multiprocess, cuik_molmaker) at its top.
Nothing stubbed: ``myerson`` (interpretation callback) and ray / optuna (hpopt) are imported only
by modules no model here imports.

Left out: the CLI (``chemprop train``), the Lightning ``Trainer`` loop, checkpoint loading, the
uncertainty estimators / calibrators (numpy / sklearn after ``predict``), ``validation_step`` (its
metrics are torchmetrics states updated in eval), the ``myerson`` Shapley explainer (a
callback), and the cuik-molmaker CGR featurizer (needs cuik_molmaker>=0.3's reaction API).
"""

import functools

PACKAGE = "chemprop"

mean_loss_module = None  # adapter.mean_loss_module, set by ZooSuite

_D = 16  # hidden size of message passing and FFNs
_SMILES = ["CCO", "c1ccccc1O", "CC(=O)Nc1ccc(O)cc1", "C[C@H](N)C(=O)O", "CC(C)Cc1ccc(cc1)C(C)C(=O)O",
           "O=C=O"]
_SOLVENTS = ["O", "CCO", "CS(C)=O", "ClCCl", "CC#N", "c1ccccc1"]
_RXNS = ["[CH3:1][OH:2]>>[CH2:1]=[O:2]", "[CH2:1]=[CH2:2].[H:3][H:4]>>[CH3:1][CH3:2]",
         "[CH3:1][C:2](=[O:3])[OH:4].[CH3:5][OH:6]>>[CH3:1][C:2](=[O:3])[O:6][CH3:5].[OH2:4]",
         "[CH3:1][Br:2].[OH-:3]>>[CH3:1][OH:3].[Br-:2]", "[CH3:1][CH2:2][OH:3]>>[CH2:1]=[CH2:2].[OH2:3]",
         "[NH3:1].[CH3:2][Cl:3]>>[CH3:2][NH2:1].[ClH:3]"]
_N = len(_SMILES)


def warm_up():
    import lightning  # noqa: F401
    import torch  # noqa: F401

    import chemprop  # noqa: F401
    import chemprop.models  # noqa: F401
    import chemprop.nn  # noqa: F401


def _quiet():
    import logging
    import warnings

    warnings.filterwarnings("ignore", module="lightning")
    logging.getLogger("lightning").setLevel(logging.ERROR)
    logging.getLogger("lightning.pytorch").setLevel(logging.ERROR)


# --- data ---------------------------------------------------------------------------------------

def _targets(task, t):
    """(N, t) targets for a task, with one NaN (the loss mask)."""
    import numpy as np

    rng = np.random.default_rng(0)
    if task == "regression":
        y = rng.normal(0.0, 1.0, (_N, t))
    elif task == "binary":
        y = (np.arange(_N * t).reshape(_N, t) % 2).astype(float)
    elif task == "multiclass":
        y = (np.arange(_N * t).reshape(_N, t) % 3).astype(float)
    elif task == "spectral":
        y = rng.uniform(0.1, 1.0, (_N, t))
        y = y / y.sum(1, keepdims=True)
        return y
    else:
        raise ValueError(task)
    y[1, 0] = np.nan
    return y


def _mol_dataset(task="regression", t=2, featurizer=None, x_d=None, v_d=0, v_f=0, e_f=0, bounded=False,
                 smiles=None, lazy=False):
    import numpy as np
    from chemprop import data
    from rdkit import Chem

    smiles = smiles or _SMILES
    ys = _targets(task, t)
    rng = np.random.default_rng(1)
    dps = []
    for i, smi in enumerate(smiles):
        kw = {}
        if x_d is not None:
            kw["x_d"] = x_d(Chem.MolFromSmiles(smi))
        if v_d or v_f or e_f:
            mol = Chem.MolFromSmiles(smi)
            if v_d:
                kw["V_d"] = rng.normal(0, 1, (mol.GetNumAtoms(), v_d))
            if v_f:
                kw["V_f"] = rng.normal(0, 1, (mol.GetNumAtoms(), v_f))
            if e_f:
                kw["E_f"] = rng.normal(0, 1, (mol.GetNumBonds(), e_f))
        if bounded:
            kw["lt_mask"] = np.array([i % 3 == 1] + [False] * (t - 1))
            kw["gt_mask"] = np.array([i % 3 == 2] + [False] * (t - 1))
        if lazy:
            dps.append(data.LazyMoleculeDatapoint(smiles=smi, y=ys[i], weight=1.0 + 0.1 * i, **kw))
        else:
            dps.append(data.MoleculeDatapoint.from_smi(smi, ys[i], weight=1.0 + 0.1 * i, **kw))
    if lazy:
        return data.CuikmolmakerDataset(dps, featurizer) if featurizer is not None else data.CuikmolmakerDataset(dps)
    return data.MoleculeDataset(dps, featurizer) if featurizer is not None else data.MoleculeDataset(dps)


def _rxn_dataset(task="regression", t=1, mode="REAC_DIFF"):
    from chemprop import data, featurizers

    ys = _targets(task, t)
    dps = [data.ReactionDatapoint.from_smi(r, ys[i]) for i, r in enumerate(_RXNS)]
    return data.ReactionDataset(dps, featurizers.CondensedGraphOfReactionFeaturizer(mode_=mode))


def _one_batch(dset):
    from chemprop import data

    return next(iter(data.build_dataloader(dset, batch_size=_N, shuffle=False)))


# --- model pieces -------------------------------------------------------------------------------

def _mp(kind="bond", featurizer=None, d_v=None, d_e=None, **kw):
    from chemprop import featurizers, nn

    f = featurizer or featurizers.SimpleMoleculeMolGraphFeaturizer()
    cls = {"bond": nn.BondMessagePassing, "atom": nn.AtomMessagePassing,
           "mab_bond": nn.MABBondMessagePassing, "mab_atom": nn.MABAtomMessagePassing}[kind]
    kw.setdefault("d_h", _D)
    kw.setdefault("depth", 3)
    return cls(d_v=d_v or f.atom_fdim, d_e=d_e or f.bond_fdim, **kw)


def _train_step(model):
    import torch

    class TrainStep(torch.nn.Module):
        """``model.training_step(batch, 0)``: what Lightning's fit loop runs each step."""

        def __init__(self, model):
            super().__init__()
            self.model = model

        def forward(self, batch):
            return self.model.training_step(batch, 0)

    return TrainStep(model)


def _use(mode, model, batch, kind="mpnn"):
    """(callable, args, kwargs): eval runs the model as ``predict_step`` does, train its
    ``training_step``."""
    _quiet()
    if mode == "train":
        return _train_step(model), (batch,), {}
    if kind == "mab":
        bmg, V_d, E_d, X_d, *_, constraints = batch
        return model, (bmg, V_d, E_d, X_d, constraints), {}
    bmg, V_d, X_d, *_ = batch
    return model, (bmg, V_d, X_d), {}


def _mpnn(mode, predictor="regression", agg="mean", mp_kind="bond", t=2, task=None, mp_kw=None,
          pred_kw=None, dset=None, featurizer=None, batch_norm=False, x_d_dim=0, X_d_transform=None,
          **dkw):
    from chemprop import models, nn

    task = task or {"regression": "regression", "mve": "regression", "evidential": "regression",
                    "quantile": "regression", "binary": "binary", "binary-dirichlet": "binary",
                    "multiclass": "multiclass", "multiclass-dirichlet": "multiclass",
                    "spectral": "spectral"}[predictor]
    if dset is None:
        dset = _mol_dataset(task, t, featurizer=featurizer, **dkw)
    mp = _mp(mp_kind, featurizer=featurizer, **(mp_kw or {}))
    ag = {"mean": nn.MeanAggregation, "sum": nn.SumAggregation, "norm": nn.NormAggregation}.get(agg)
    ag = nn.AttentiveAggregation(output_size=mp.output_dim) if agg == "attentive" else ag()
    pkw = dict(n_tasks=t, input_dim=mp.output_dim + x_d_dim, hidden_dim=_D)
    pkw.update(pred_kw or {})
    if isinstance(pkw.get("task_weights"), list):
        import torch

        pkw["task_weights"] = torch.tensor(pkw["task_weights"])
    if predictor.startswith("multiclass"):
        pkw.setdefault("n_classes", 3)
    cls = {"regression": nn.RegressionFFN, "mve": nn.MveFFN, "evidential": nn.EvidentialFFN,
           "quantile": nn.QuantileFFN, "binary": nn.BinaryClassificationFFN,
           "binary-dirichlet": nn.BinaryDirichletFFN, "multiclass": nn.MulticlassClassificationFFN,
           "multiclass-dirichlet": nn.MulticlassDirichletFFN, "spectral": nn.SpectralFFN}[predictor]
    ffn = cls(**pkw)
    model = models.MPNN(mp, ag, ffn, batch_norm=batch_norm, X_d_transform=X_d_transform)
    return model, _one_batch(dset)


def _plain(predictor, agg="mean", mp_kind="bond", **kw):
    def make(mode):
        model, batch = _mpnn(mode, predictor, agg, mp_kind, **kw)
        return _use(mode, model, batch)

    return make


# --- molecule MPNNs with extra inputs ------------------------------------------------------------

def _scaled_targets(predictor):
    def make(mode):
        from chemprop import nn

        dset = _mol_dataset("regression", 2)
        scaler = dset.normalize_targets()
        out = nn.UnscaleTransform.from_standard_scaler(scaler)
        model, batch = _mpnn(mode, predictor, dset=dset, pred_kw={"output_transform": out})
        return _use(mode, model, batch)

    return make


def _morgan(x_d):
    def fn(mol):
        from chemprop import featurizers

        f = {"binary": featurizers.MorganBinaryFeaturizer, "count": featurizers.MorganCountFeaturizer}[x_d]
        return f(radius=2, length=64)(mol).astype(float)

    return fn


def _rdkit2d(mol):
    import numpy as np
    from chemprop import featurizers

    return np.nan_to_num(featurizers.RDKit2DFeaturizer()(mol).astype(float), posinf=0.0, neginf=0.0)


def _extra_descriptors(kind):
    def make(mode):
        from chemprop import nn

        x_d = {"morgan": _morgan("binary"), "morgan_count": _morgan("count"), "rdkit2d": _rdkit2d}[kind]
        dset = _mol_dataset("regression", 2, x_d=x_d)
        scaler = dset.normalize_inputs("X_d")
        X_d_transform = nn.ScaleTransform.from_standard_scaler(scaler)
        model, batch = _mpnn(mode, "regression", dset=dset, x_d_dim=dset.d_xd, X_d_transform=X_d_transform)
        return _use(mode, model, batch)

    return make


def _atom_descriptors(mode):
    from chemprop import nn

    dset = _mol_dataset("regression", 2, v_d=3)
    scaler = dset.normalize_inputs("V_d")
    V_d_transform = nn.ScaleTransform.from_standard_scaler(scaler)
    model, batch = _mpnn(mode, "regression", dset=dset, mp_kw={"d_vd": 3, "V_d_transform": V_d_transform})
    return _use(mode, model, batch)


def _extra_features(mode):
    from chemprop import featurizers, nn

    f = featurizers.SimpleMoleculeMolGraphFeaturizer(extra_atom_fdim=2, extra_bond_fdim=1)
    dset = _mol_dataset("regression", 2, featurizer=f, v_f=2, e_f=1)
    V_f_scaler = dset.normalize_inputs("V_f")
    E_f_scaler = dset.normalize_inputs("E_f")
    V_f_transform = nn.ScaleTransform.from_standard_scaler(V_f_scaler, pad=f.atom_fdim - f.extra_atom_fdim)
    E_f_transform = nn.ScaleTransform.from_standard_scaler(E_f_scaler, pad=f.bond_fdim - f.extra_bond_fdim)
    gt = nn.GraphTransform(V_f_transform, E_f_transform)
    model, batch = _mpnn(mode, "regression", dset=dset, featurizer=f, mp_kw={"graph_transform": gt})
    return _use(mode, model, batch)


def _atom_featurizer(kind):
    def make(mode):
        from chemprop import featurizers
        from chemprop.featurizers.bond import RIGRBondFeaturizer

        kw = {"atom_featurizer": featurizers.get_multi_hot_atom_featurizer(kind)}
        if kind == "RIGR":
            kw["bond_featurizer"] = RIGRBondFeaturizer()
        f = featurizers.SimpleMoleculeMolGraphFeaturizer(**kw)
        model, batch = _mpnn(mode, "regression", featurizer=f)
        return _use(mode, model, batch)

    return make


def _cuik(mode):
    from chemprop import featurizers

    f = featurizers.CuikmolmakerMolGraphFeaturizer()
    dset = _mol_dataset("regression", 2, featurizer=f, lazy=True)
    model, batch = _mpnn(mode, "regression", dset=dset, featurizer=f)
    return _use(mode, model, batch)


def _criterion(name, predictor="regression", bounded=False):
    def make(mode):
        from chemprop import nn

        crit = {"mae": nn.MAE, "rmse": nn.RMSE, "bounded_mse": nn.BoundedMSE, "binary_mcc": nn.BinaryMCCLoss,
                "multiclass_mcc": nn.MulticlassMCCLoss}[name](task_weights=[1.0, 0.5])
        model, batch = _mpnn(mode, predictor, pred_kw={"criterion": crit}, bounded=bounded)
        return _use(mode, model, batch)

    return make


def _spectral_wasserstein(mode):
    from chemprop import nn

    crit = nn.Wasserstein(task_weights=[1.0] * 8, threshold=1e-4)
    model, batch = _mpnn(mode, "spectral", t=8, pred_kw={"criterion": crit, "spectral_activation": "exp"})
    return _use(mode, model, batch)


# --- multicomponent / reactions ----------------------------------------------------------------

def _multicomponent(shared=False, reaction=False, v_d=False):
    def make(mode):
        from chemprop import data, featurizers, models, nn

        ys = _targets("regression", 1)
        if reaction:
            d0 = _rxn_dataset("regression", 1)
            f0 = d0.featurizer
        else:
            d0 = _mol_dataset("regression", 1, v_d=2 if v_d else 0)
            f0 = featurizers.SimpleMoleculeMolGraphFeaturizer()
        dps1 = [data.MoleculeDatapoint.from_smi(s, ys[i]) for i, s in enumerate(_SOLVENTS)]
        if v_d:
            import numpy as np
            from rdkit import Chem

            rng = np.random.default_rng(2)
            dps1 = [data.MoleculeDatapoint.from_smi(s, ys[i], V_d=rng.normal(0, 1, (Chem.MolFromSmiles(s).GetNumAtoms(), 2)))
                    for i, s in enumerate(_SOLVENTS)]
        d1 = data.MoleculeDataset(dps1)
        mcdset = data.MulticomponentDataset([d0, d1])
        mp_kw = {"d_vd": 2} if v_d else {}
        if shared:
            blocks = [_mp("bond", **mp_kw)]
        else:
            blocks = [_mp("bond", featurizer=f0, **mp_kw), _mp("atom", **mp_kw)]
        mcmp = nn.MulticomponentMessagePassing(blocks=blocks, n_components=2, shared=shared)
        agg = nn.MeanAggregation()
        ffn = nn.RegressionFFN(n_tasks=1, input_dim=mcmp.output_dim, hidden_dim=_D)
        model = models.MulticomponentMPNN(mcmp, agg, ffn)
        return _use(mode, model, _one_batch(mcdset))

    return make


def _reaction(rxn_mode, predictor="regression"):
    def make(mode):
        task = "binary" if predictor == "binary" else "regression"
        dset = _rxn_dataset(task, 1, mode=rxn_mode)
        model, batch = _mpnn(mode, predictor, t=1, dset=dset, featurizer=dset.featurizer)
        return _use(mode, model, batch)

    return make


# --- mol / atom / bond ----------------------------------------------------------------------------

def _mab(kinds=("mol", "atom", "bond"), constrained=False, mp_kind="mab_bond", predictor="regression"):
    def make(mode):
        import numpy as np
        from chemprop import data, featurizers, models, nn
        from rdkit import Chem

        rng = np.random.default_rng(3)
        task = "binary" if predictor == "binary" else "regression"
        ys = _targets(task, 1)
        dps = []
        for i, smi in enumerate(_SMILES):
            mol = Chem.MolFromSmiles(smi)
            na, nb = mol.GetNumAtoms(), mol.GetNumBonds()
            kw = {}
            if "mol" in kinds:
                kw["y"] = ys[i]
            if "atom" in kinds:
                kw["atom_y"] = (rng.integers(0, 2, (na, 1)).astype(float) if task == "binary"
                                else rng.normal(0, 1, (na, 1)))
            if "bond" in kinds:
                kw["bond_y"] = rng.normal(0, 1, (nb, 1))
            if constrained:
                kw["atom_constraint"] = np.array([float(na) * 0.1])
                kw["bond_constraint"] = np.array([float(nb) * 0.2])
            dps.append(data.MolAtomBondDatapoint.from_smi(smi, **kw))
        f = featurizers.SimpleMoleculeMolGraphFeaturizer()
        dset = data.MolAtomBondDataset(dps, f)
        mp = _mp(mp_kind, return_edge_embeddings="bond" in kinds)
        d_v, d_e = mp.output_dims
        cls = nn.BinaryClassificationFFN if predictor == "binary" else nn.RegressionFFN
        mol_p = cls(n_tasks=1, input_dim=d_v, hidden_dim=_D) if "mol" in kinds else None
        atom_p = cls(n_tasks=1, input_dim=d_v, hidden_dim=_D) if "atom" in kinds else None
        bond_p = cls(n_tasks=1, input_dim=2 * d_e, hidden_dim=_D) if "bond" in kinds else None
        kw = {}
        if constrained:
            kw["atom_constrainer"] = nn.ConstrainerFFN(n_constraints=1, fp_dim=d_v, hidden_dim=_D)
            kw["bond_constrainer"] = nn.ConstrainerFFN(n_constraints=1, fp_dim=2 * d_e, hidden_dim=_D)
        model = models.MolAtomBondMPNN(mp, nn.MeanAggregation() if mol_p is not None else None,
                                       mol_p, atom_p, bond_p, **kw)
        return _use(mode, model, _one_batch(dset), kind="mab")

    return make


# --- methods ----------------------------------------------------------------------------------------

def _method(name):
    def make(mode):
        import torch

        model, batch = _mpnn(mode, "regression")
        bmg, V_d, X_d, *_ = batch

        class Method(torch.nn.Module):
            def __init__(self, model):
                super().__init__()
                self.model = model

            def forward(self, bmg):
                if name == "fingerprint":
                    return self.model.fingerprint(bmg)
                return self.model.encoding(bmg, i=1)

        net = Method(model)
        if mode == "train":
            net = mean_loss_module()(net)
        _quiet()
        return net, (bmg,), {}

    return make


MODELS = {
    # aggregations / message passing on a regression MPNN
    "MPNN_Bond_Mean_Regression": _plain("regression"),
    "MPNN_Bond_Sum_Regression": _plain("regression", agg="sum"),
    "MPNN_Bond_Norm_Regression": _plain("regression", agg="norm"),
    "MPNN_Bond_Attentive_Regression": _plain("regression", agg="attentive"),
    "MPNN_Atom_Mean_Regression": _plain("regression", mp_kind="atom"),
    "MPNN_Atom_Undirected_Sum": _plain("regression", agg="sum", mp_kind="atom",
                                       mp_kw={"undirected": True, "depth": 2}),
    "MPNN_Bond_Undirected_Dropout_Tanh": _plain("regression", mp_kw={"undirected": True, "dropout": 0.1,
                                                                    "bias": True, "activation": "tanh"}),
    "MPNN_BatchNorm": _plain("regression", batch_norm=True),
    "MPNN_DeepFFN_TaskWeights": _plain("regression", t=3, pred_kw={
        "hidden_dim": [_D, 8], "n_layers": 2, "dropout": 0.1, "activation": "leakyrelu",
        "task_weights": [1.0, 2.0, 0.5]}),
    # inputs / featurizers
    "MPNN_ScaledTargets": _scaled_targets("regression"),
    "MPNN_Morgan_Xd": _extra_descriptors("morgan"),
    "MPNN_MorganCount_Xd": _extra_descriptors("morgan_count"),
    "MPNN_RDKit2D_Xd": _extra_descriptors("rdkit2d"),
    "MPNN_AtomDescriptors_Vd": _atom_descriptors,
    "MPNN_ExtraFeatures_GraphTransform": _extra_features,
    "MPNN_V1Featurizer": _atom_featurizer("V1"),
    "MPNN_OrganicFeaturizer": _atom_featurizer("ORGANIC"),
    "MPNN_RIGRFeaturizer": _atom_featurizer("RIGR"),
    "MPNN_Cuikmolmaker": _cuik,
    # criteria
    "MPNN_MAE": _criterion("mae"),
    "MPNN_RMSE": _criterion("rmse"),
    "MPNN_BoundedMSE": _criterion("bounded_mse", bounded=True),
    # predictors
    "MPNN_MVE": _plain("mve"),
    "MPNN_MVE_Scaled": _scaled_targets("mve"),
    "MPNN_Evidential": _plain("evidential"),
    "MPNN_Quantile": _plain("quantile"),
    "MPNN_BinaryClassification": _plain("binary"),
    "MPNN_BinaryMCC": _criterion("binary_mcc", predictor="binary"),
    "MPNN_BinaryDirichlet": _plain("binary-dirichlet"),
    "MPNN_Multiclass": _plain("multiclass"),
    "MPNN_MulticlassMCC": _criterion("multiclass_mcc", predictor="multiclass"),
    "MPNN_MulticlassDirichlet": _plain("multiclass-dirichlet"),
    "MPNN_Spectral_SID": _plain("spectral", t=8),
    "MPNN_Spectral_Wasserstein_Exp": _spectral_wasserstein,
    # multicomponent / reactions
    "MulticomponentMPNN": _multicomponent(),
    "MulticomponentMPNN_Shared_Vd": _multicomponent(shared=True, v_d=True),
    "MulticomponentMPNN_ReactionSolvent": _multicomponent(reaction=True),
    "MPNN_Reaction_CGR_ReacDiff": _reaction("REAC_DIFF"),
    "MPNN_Reaction_CGR_ProdDiff_Binary": _reaction("PROD_DIFF", predictor="binary"),
    # mol / atom / bond
    "MolAtomBondMPNN": _mab(),
    "MolAtomBondMPNN_Constrained": _mab(kinds=("atom", "bond"), constrained=True),
    "MolAtomBondMPNN_AtomOnly_Binary": _mab(kinds=("atom",), mp_kind="mab_atom", predictor="binary"),
    # methods
    "MPNN_fingerprint": _method("fingerprint"),
    "MPNN_encoding": _method("encoding"),
}
