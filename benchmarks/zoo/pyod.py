"""PyOD 3.6.7: its PyTorch deep anomaly detectors (``pyod.models``) and the ``pyod.utils.torch_utility``
blocks they are built of, tiny (6 features, hidden layers of 4-16 units where the detector takes a
width; batches of 16 rows), random weights, no download, built the way a user builds them: the
detector class with a small config, ``fit`` on a random 64 x 6 table for one epoch (``epoch_num=1`` /
``epochs=1``, ``verbose=0``) where ``fit`` keeps its network, then the network it built.

Two kinds of entry per detector:

- ``<Detector>``: eval: the torch ``nn.Module`` the detector builds, its ``forward`` on one
  (normalised) batch; train: the per-batch step of the detector's fit loop. For the detectors on
  ``BaseDeepLearningDetector`` (``AutoEncoder``, ``VAE``, the new-style ``so_gaal_new.SO_GAAL``) that
  is the library's own ``training_forward(batch)``, exactly as ``BaseDeepLearningDetector.train``
  calls it (``zero_grad``, forward, the detector's criterion, ``backward``, ``optimizer.step()``,
  ``loss.item()``); for ``ALAD`` its own ``train_step((x, z))`` (both the discriminator and the
  generator step). The other detectors run their step inline in ``fit`` (``DeepSVDD``, the legacy
  ``so_gaal.SO_GAAL``, ``MO_GAAL``, ``AnoGAN``, ``DevNet``, ``LUNAR``, ``AE1SVM``,
  ``AnomalyTransformer``, ``LSTMAD``, the PyG detectors): their per-batch loss math is copied from
  ``fit`` into a wrapper module (without ``zero_grad`` / ``backward`` / ``step`` / ``.item()``, which
  are then adapter code) and calls the library's modules and loss helpers (``deviation_loss``,
  ``_compute_association_discrepancy``, ``_create_anomalous_view``, ``svm_decision_function``).
- ``<Detector>_decision_function``: the torch part of the detector's ``decision_function`` on one
  batch, under ``torch.no_grad()`` as the library runs it: ``evaluating_forward(batch)`` for the
  ``BaseDeepLearningDetector`` ones (forward, ``.numpy()``, ``pairwise_distances_no_broadcast``),
  ``ALAD.get_outlier_scores``, ``devnet.load_model_weight_predict``,
  ``ts_anomaly_transformer._score_windows``, ``LSTMAD._predict_model``, ``InnerDeepSVDD._init_c``
  (the center initialisation ``fit`` runs), and copies of the inline scoring of ``DeepSVDD``,
  ``AnoGAN`` (the per-sample query loss) and ``AE1SVM``. The same callable in both modes (train: the
  networks in their training state, still under ``no_grad``, as ``so_gaal_new``'s
  ``evaluating_prepare`` leaves them).

Models (43): AutoEncoder (batch norm + dropout; no batch norm, tanh, SGD), VAE (default; beta-VAE
with ``capacity``; batch norm, sigmoid output, no ``logvar_clip``), SO_GAAL (new-style: generator
and discriminator steps; after ``fit`` with the generator frozen (``stop_flag``); legacy
``so_gaal.SO_GAAL``), MO_GAAL (k=3 sub-generators, the percentile trick labels), DeepSVDD (plain;
``use_ae=True``; ``_init_c``), AnoGAN (GAN step; query model), ALAD (default; reconstruction loss +
spectral norm; without the zz discriminator), DevNet (depth 4, 2, 1 with ``deviation_loss``), LUNAR
(WEIGHT, SCORE), DIF (``MLPnet`` tanh; with skip connections and batch norm), AE1SVM,
AnomalyTransformer, LSTMAD, DOMINANT, AnomalyDAE, CoLA, CONAD, GUIDE, and ``torch_utility``'s
``LinearBlock`` (batch norm, dropout, ELU, xavier init) on its own.

    pip install --no-deps pyod==3.6.7

(already installed and used: numpy, scipy, scikit-learn, joblib, numba, pandas, tqdm,
torch_geometric 2.8.1 for the PyG detectors.) Stubbed: ``matplotlib`` / ``matplotlib.pyplot``
(not installed; ``anogan.py`` and ``alad.py`` import ``pyplot`` at their top for
``plot_learning_curves`` only).

Left out: ``AudioAE`` (needs librosa / soundfile; its network is ``AutoEncoder``, covered), the
``pyod.utils.encoders`` / ``ad_engine`` orchestration (pretrained embedders, no detector network),
the non-torch detectors, ``SCAN`` / ``ANOMALOUS`` / ``Radar`` (numpy / scipy only), the DataLoader
loops of ``fit`` / ``evaluate`` and the sklearn / numpy post-processing of the scores (IsolationForest
for DIF, ``kneighbors`` for LUNAR, Mahalanobis for LSTMAD). Notes: the PyG detectors keep their model
local to ``fit``, so it is built with the library's own factory (``_DOMINANTModel`` etc.) with the
sizes ``fit`` passes; ``LSTMAD._predict_model`` and ``load_model_weight_predict`` call
``torch.tensor`` on what they are given (a numpy array in ``decision_function``), here a float tensor.
"""

import functools

PACKAGE = "pyod"
DISTRIBUTION = "pyod"

mean_loss_module = None  # set by ZooSuite
stub_modules = None

_N, _D, _B = 64, 6, 16  # training rows, features, batch


def before_build():
    stub_modules({"matplotlib": ((), ()),
                  "matplotlib.pyplot": (("figure", "show", "subplots", "plot", "close"), ())}, "pyod")


def warm_up():
    before_build()
    import torch  # noqa: F401
    import pyod.models.auto_encoder  # noqa: F401
    import pyod.models.vae  # noqa: F401
    import pyod.models.alad  # noqa: F401
    import pyod.models.anogan  # noqa: F401
    import numpy as np
    from pyod.utils.stat_models import pairwise_distances_no_broadcast

    for dt in (np.float32, np.float64):  # numba compiles its kernel on first use (~10 s)
        pairwise_distances_no_broadcast(np.zeros((2, 3), dt), np.ones((2, 3), dt))


def _X(n=_N, d=_D, seed=0):
    import numpy as np

    rng = np.random.RandomState(seed)
    X = rng.randn(n, d)
    X[: n // 10] += 4.0  # a few outliers
    return X


def _batch(b=_B, d=_D):
    import torch

    return torch.randn(b, d)


def _fit(det, X=None, **kw):
    import contextlib
    import io

    with contextlib.redirect_stdout(io.StringIO()):  # the legacy detectors print per epoch
        det.fit(_X() if X is None else X, **kw)
    return det


@functools.cache
def _nets():
    import types

    import numpy as np
    import torch
    import torch.nn as nn
    import torch.nn.functional as F

    # --- BaseDeepLearningDetector: the library's own per-batch methods --------------------------

    class TrainingForward(nn.Module):
        """``BaseDeepLearningDetector.train``'s loop body: ``loss = self.training_forward(batch)``."""

        def __init__(self, det, **modules):
            super().__init__()
            self.det = det
            for k, m in modules.items():
                self.add_module(k, m)

        def forward(self, batch):
            return self.det.training_forward(batch)

    class EvaluatingForward(nn.Module):
        """``BaseDeepLearningDetector.evaluate``: ``with torch.no_grad(): self.evaluating_forward(b)``."""

        def __init__(self, det, **modules):
            super().__init__()
            self.det = det
            for k, m in modules.items():
                self.add_module(k, m)

        def forward(self, batch):
            with torch.no_grad():
                return self.det.evaluating_forward(batch)

    class Call(nn.Module):
        """A library function / method on the batch, under ``no_grad`` as its caller runs it."""

        def __init__(self, fn, no_grad=True, **modules):
            super().__init__()
            self.fn = fn
            self.no_grad = no_grad
            for k, m in modules.items():
                self.add_module(k, m)

        def forward(self, *args):
            if self.no_grad:
                with torch.no_grad():
                    return self.fn(*args)
            return self.fn(*args)

    # --- ALAD: its own train_step ---------------------------------------------------------------

    class ALADTrainStep(nn.Module):
        def __init__(self, det):
            super().__init__()
            self.det = det
            self.enc, self.dec = det.enc, det.dec
            self.disc_xx, self.disc_zz, self.disc_xz = det.disc_xx, det.disc_zz, det.disc_xz

        def forward(self, x, z):
            self.det.train_step((x, z))
            return self.det.hist_loss_gen[-1]

    # --- the inline steps of fit(), copied (loss only) -----------------------------------------

    class DeepSVDDLoss(nn.Module):
        def __init__(self, det):
            super().__init__()
            self.model_ = det.model_
            self.register_buffer("c_", det.c_)
            self.use_ae = det.use_ae

        def forward(self, batch_x):
            outputs = self.model_(batch_x)
            dist = torch.sum((outputs - self.c_) ** 2, dim=-1)
            w_d = 1e-6 * sum([torch.linalg.norm(w) for w in self.model_.parameters()])
            if self.use_ae:
                loss = torch.mean(dist) + w_d + torch.mean(torch.square(outputs - batch_x))
            else:
                loss = torch.mean(dist) + w_d
            return loss

    class DeepSVDDScore(nn.Module):
        def __init__(self, det):
            super().__init__()
            self.model_ = det.model_
            self.register_buffer("c_", det.c_)

        def forward(self, X_norm):
            with torch.no_grad():
                outputs = self.model_(X_norm)
                dist = torch.sum((outputs - self.c_) ** 2, dim=-1)
            return dist.numpy()

    class GAALLegacyLoss(nn.Module):
        """so_gaal.SO_GAAL.fit, one batch before the stop epoch: discriminator and generator losses."""

        def __init__(self, det, latent_size):
            super().__init__()
            self.generator, self.discriminator = det.generator, det.discriminator
            self.latent_size = latent_size
            self.criterion = nn.BCELoss()

        def forward(self, data_batch):
            batch_size = data_batch.size(0)
            noise = torch.rand(batch_size, self.latent_size)
            generated_data = self.generator(noise)
            real_labels = torch.ones(batch_size, 1)
            fake_labels = torch.zeros(batch_size, 1)
            outputs_real = self.discriminator(data_batch)
            outputs_fake = self.discriminator(generated_data)
            d_loss = self.criterion(outputs_real, real_labels) + self.criterion(outputs_fake, fake_labels)
            trick_labels = torch.ones(batch_size, 1)
            g_loss = self.criterion(self.discriminator(self.generator(noise)), trick_labels)
            return d_loss + g_loss

    class MOGAALLoss(nn.Module):
        """mo_gaal.MO_GAAL.fit, one batch: k sub-generators on noise slices, the discriminator loss,
        the percentile trick labels from the discriminator's scores on X, the generators' losses."""

        def __init__(self, det, generators, X):
            super().__init__()
            self.discriminator = det.discriminator
            self.generators = nn.ModuleList(generators)
            self.k = det.k
            self.X = X
            self.criterion = nn.BCELoss()

        def forward(self, data_batch):
            k = self.k
            batch_size = data_batch.size(0)
            latent_size = data_batch.size(1)
            noise = torch.rand(batch_size, latent_size)
            block = (1 + k) * k // 2
            noises, generated = [], []
            for i in range(k):
                noise_start = int((k + (k - i + 1)) * i / 2 * (batch_size // block))
                if i != k - 1:
                    noise_end = int((k + (k - i)) * (i + 1) / 2 * (batch_size // block))
                    noises.append(noise[noise_start:noise_end])
                else:
                    noises.append(noise[noise_start:batch_size])
                generated.append(self.generators[i](noises[i]))
            all_data = torch.cat([data_batch] + generated, dim=0)
            labels = torch.cat([torch.ones(batch_size, 1),
                                torch.zeros(sum([d.size(0) for d in generated]), 1)], dim=0)
            outputs = self.discriminator(all_data).view(-1, 1)
            discriminator_loss = self.criterion(outputs, labels)
            with torch.no_grad():
                pred_scores = self.discriminator(torch.tensor(self.X, dtype=torch.float32)).cpu().numpy().ravel()
            total = discriminator_loss
            for i in range(k):
                T = np.percentile(pred_scores, i / k * 100)
                trick = torch.tensor([float(T)] * noises[i].size(0)).unsqueeze(1)
                fake_outputs = self.discriminator(self.generators[i](noises[i]))
                total = total + self.criterion(fake_outputs, trick)
            return total

    class AnoGANLoss(nn.Module):
        """anogan.AnoGAN.fit, one batch: discriminator loss (real labels 0.9) and generator loss."""

        def __init__(self, det):
            super().__init__()
            self.generator, self.discriminator = det.generator, det.discriminator
            self.latent_dim_G = det.latent_dim_G

        def forward(self, X_train_sel):
            latent_noise = torch.rand(X_train_sel.size(0), self.latent_dim_G, dtype=torch.float32)
            generated_data = self.generator(latent_noise)
            real_output = self.discriminator(X_train_sel)
            fake_output = self.discriminator(generated_data.detach())
            loss_D_real = nn.BCELoss()(real_output, torch.ones_like(real_output) * 0.9)
            loss_D_fake = nn.BCELoss()(fake_output, torch.zeros_like(fake_output))
            loss_D = loss_D_real + loss_D_fake
            fake_output = self.discriminator(generated_data)
            loss_G = nn.BCELoss()(fake_output, torch.ones_like(fake_output))
            return loss_D + loss_G

    class AnoGANQuery(nn.Module):
        """anogan.AnoGAN: the query model's loss for one sample (train: ``fit``'s query step;
        eval: ``decision_function``'s per-sample score, ``total_loss.item()``)."""

        def __init__(self, det):
            super().__init__()
            self.query_model = det.query_model
            self.discriminator = det.discriminator
            self.latent_dim_G = det.latent_dim_G

        def forward(self, query_sample):
            zeros = torch.zeros((1, self.latent_dim_G))
            z, sample_gen, sample_disc_latent = self.query_model(zeros)
            with torch.no_grad():
                sample_disc_latent_original = self.discriminator(query_sample)
            loss_recon_gen = torch.mean(torch.mean(torch.abs(query_sample - sample_gen), axis=-1))
            loss_recon_disc = torch.mean(torch.mean(torch.abs(sample_disc_latent_original - sample_disc_latent), axis=-1))
            total_loss = loss_recon_gen + loss_recon_disc
            if self.training:
                return total_loss
            return total_loss.item()

    class DevNetLoss(nn.Module):
        def __init__(self, model):
            super().__init__()
            self.model = model

        def forward(self, data, labels):
            from pyod.models.devnet import deviation_loss

            data, labels = data.to(torch.float32), labels.to(torch.float32)
            outputs = self.model(data)
            return deviation_loss(outputs, labels)

    class LUNARLoss(nn.Module):
        def __init__(self, network):
            super().__init__()
            self.network = network
            self.criterion = nn.MSELoss(reduction="none")

        def forward(self, train_dist, train_y):
            out = self.network(train_dist)
            return self.criterion(out, train_y).sum()

    class AE1SVMLoss(nn.Module):
        def __init__(self, det):
            super().__init__()
            self.model = det.model
            self.loss_fn = det.loss_fn
            self.alpha = det.alpha

        def forward(self, data):
            data = data.float()
            reconstructions, rff_features = self.model(data)
            recon_loss = self.loss_fn(data, reconstructions)
            svm_scores = self.model.svm_decision_function(rff_features)
            svm_loss = torch.mean(torch.clamp(1 - svm_scores, min=0))
            return self.alpha * recon_loss + svm_loss

    class AE1SVMScore(nn.Module):
        def __init__(self, det):
            super().__init__()
            self.model = det.model

        def forward(self, data):
            from pyod.utils.stat_models import pairwise_distances_no_broadcast

            with torch.no_grad():
                data = data.float()
                reconstructions, rff_features = self.model(data)
                return pairwise_distances_no_broadcast(data.cpu().numpy(), reconstructions.cpu().numpy())

    class AnomalyTransformerLoss(nn.Module):
        """ts_anomaly_transformer.AnomalyTransformer._train, one batch: the minimax phases' losses
        (each phase its own forward, as the loop does)."""

        def __init__(self, det):
            super().__init__()
            self.model = det.model_
            self.lambda_ = det.lambda_

        def forward(self, batch):
            from pyod.models.ts_anomaly_transformer import _compute_association_discrepancy

            recon, associations = self.model(batch)
            recon_loss = F.mse_loss(recon, batch)
            ass_dis_min = _compute_association_discrepancy(associations, detach_prior=True)
            loss_min = recon_loss - self.lambda_ * ass_dis_min.mean()
            recon, associations = self.model(batch)
            ass_dis_max = _compute_association_discrepancy(associations, detach_series=True)
            loss_max = -ass_dis_max.mean()
            return loss_min + loss_max

    class LSTMADLoss(nn.Module):
        def __init__(self, net):
            super().__init__()
            self.net = net
            self.criterion = nn.MSELoss()

        def forward(self, batch_x, batch_y):
            pred = self.net(batch_x)
            return self.criterion(pred, batch_y)

    # --- the PyG detectors' fit loops (one epoch, full graph) ------------------------------------

    class NoGradInEval(nn.Module):
        """Eval: ``forward`` under ``torch.no_grad()``, as ``fit`` scores after training."""

        def __call__(self, *args, **kwargs):
            if self.training:
                return super().__call__(*args, **kwargs)
            with torch.no_grad():
                return super().__call__(*args, **kwargs)

    class ReconGraphLoss(NoGradInEval):
        """DOMINANT / AnomalyDAE: structure + attribute reconstruction (train: the loss; eval: the
        scores ``fit`` computes after training, ``.cpu().numpy()``)."""

        def __init__(self, model, adj, alpha):
            super().__init__()
            self.model = model
            self.register_buffer("adj", adj)
            self.alpha = alpha

        def forward(self, x, ei):
            a_hat, x_hat = self.model(x, ei)
            struct_loss = torch.sum((self.adj - a_hat) ** 2, dim=1)
            attr_loss = torch.sum((x - x_hat) ** 2, dim=1)
            if self.training:
                return torch.mean(self.alpha * struct_loss + (1 - self.alpha) * attr_loss)
            return (self.alpha * struct_loss + (1 - self.alpha) * attr_loss).cpu().numpy()

    class CoLALoss(NoGradInEval):
        def __init__(self, model, adj_norm, n_nodes):
            super().__init__()
            self.model = model
            self.adj_norm = adj_norm
            self.n_nodes = n_nodes

        def forward(self, x, ei):
            n_nodes = self.n_nodes
            z = self.model.encode(x, ei)
            local_ctx = torch.sparse.mm(self.adj_norm, z)
            pos_scores = self.model.discriminate(z, local_ctx)
            if not self.training:  # fit's scoring: -discriminate, .cpu().numpy()
                return (-pos_scores).cpu().numpy()
            perm = torch.randperm(n_nodes)
            z_neg = self.model.encode(x[perm], ei)
            neg_scores = self.model.discriminate(z_neg, local_ctx)
            pos_loss = F.binary_cross_entropy_with_logits(pos_scores, torch.ones(n_nodes))
            neg_loss = F.binary_cross_entropy_with_logits(neg_scores, torch.zeros(n_nodes))
            return pos_loss + neg_loss

    class CONADLoss(NoGradInEval):
        def __init__(self, model, adj, aug_ratio, alpha):
            super().__init__()
            self.model = model
            self.register_buffer("adj", adj)
            self.aug_ratio, self.alpha = aug_ratio, alpha

        def forward(self, x, ei):
            from pyod.models.pyg_conad import _create_anomalous_view

            x_aug, ei_aug = _create_anomalous_view(x, ei, self.aug_ratio)
            z_orig, z_aug, x_hat, a_hat = self.model(x, ei, x_aug, ei_aug)
            z_o = F.normalize(z_orig, dim=1)
            z_a = F.normalize(z_aug, dim=1)
            if not self.training:  # fit's scoring
                cos_dist = 1.0 - (z_o * z_a).sum(dim=1)
                struct_err = torch.sum((self.adj - a_hat) ** 2, dim=1)
                attr_err = torch.sum((x - x_hat) ** 2, dim=1)
                return (cos_dist + self.alpha * (struct_err + attr_err)).cpu().numpy()
            cos_sim = (z_o * z_a).sum(dim=1)
            contrastive_loss = -cos_sim.mean()
            struct_loss = torch.mean(torch.sum((self.adj - a_hat) ** 2, dim=1))
            attr_loss = torch.mean(torch.sum((x - x_hat) ** 2, dim=1))
            return contrastive_loss + self.alpha * (struct_loss + attr_loss)

    class GUIDELoss(NoGradInEval):
        def __init__(self, model, adj_dense, motif_dense, alpha):
            super().__init__()
            self.model = model
            self.register_buffer("adj_dense", adj_dense)
            self.register_buffer("motif_dense", motif_dense)
            self.alpha = alpha

        def forward(self, x, ei, ei_motif):
            x_hat_o, x_hat_m, a_hat_o, a_hat_m = self.model(x, ei, ei_motif)
            err_orig = torch.sum((self.adj_dense - a_hat_o) ** 2, dim=1) + torch.sum((x - x_hat_o) ** 2, dim=1)
            err_motif = torch.sum((self.motif_dense - a_hat_m) ** 2, dim=1) + torch.sum((x - x_hat_m) ** 2, dim=1)
            scores = self.alpha * err_orig + (1 - self.alpha) * err_motif
            if self.training:
                return torch.mean(scores)
            return scores.cpu().numpy()

    found = dict(locals())
    return types.SimpleNamespace(**{k: v for k, v in found.items() if isinstance(v, type)})


def _mean(net, args, mode):
    if mode == "train":
        return mean_loss_module()(net), args, {}
    return net, args, {}


# --- BaseDeepLearningDetector detectors --------------------------------------------------------

def _base_dl(cls_path, fit=True, decision=False, **kwargs):
    """``<cls>(**kwargs)``, fitted for one epoch (``fit=False``: ``build_model`` +
    ``training_prepare``, what ``fit`` does before its loop); eval: the network's forward, train:
    ``training_forward``; ``decision``: ``evaluating_forward`` in both modes."""

    def make(mode):
        import importlib

        mod, _, name = cls_path.rpartition(".")
        cls = getattr(importlib.import_module(mod), name)
        det = cls(epoch_num=1, verbose=0, **kwargs)
        if fit:
            _fit(det)
        else:
            X = _X()
            det.data_num, det.feature_size = X.shape
            det.build_model()
            det.training_prepare()
        modules = ({"model": det.model} if hasattr(det, "model")
                   else {"generator": det.generator, "discriminator": det.discriminator})
        x = _batch()
        if decision:
            return _nets().EvaluatingForward(det, **modules), (x,), {}
        if mode == "train":
            return _nets().TrainingForward(det, **modules), (x,), {}
        net = modules["model"] if "model" in modules else modules["discriminator"]
        return net, (x,), {}

    return make


# --- the inline-fit detectors ------------------------------------------------------------------

def _deep_svdd(part, **kwargs):
    def make(mode):
        from pyod.models.deep_svdd import DeepSVDD

        kw = dict(n_features=_D, epochs=1, hidden_neurons=[8, 4], verbose=0, random_state=0)
        det = _fit(DeepSVDD(**{**kw, **kwargs}))
        x = _batch()
        if part == "init_c":
            return _nets().Call(det.model_._init_c, no_grad=False, model=det.model_), (x,), {}
        if part == "decision":
            return _nets().DeepSVDDScore(det), (x,), {}
        if mode == "train":
            return _nets().DeepSVDDLoss(det), (x,), {}
        return det.model_, (x,), {}

    return make


def _so_gaal_legacy(mode):
    from pyod.models.so_gaal import SO_GAAL

    det = _fit(SO_GAAL(stop_epochs=1))
    x = _batch()
    if mode == "train":
        return _nets().GAALLegacyLoss(det, _D), (x,), {}
    return det.discriminator, (x,), {}


def _mo_gaal(mode):
    from pyod.models.gaal_base import create_generator
    from pyod.models.mo_gaal import MO_GAAL

    det = _fit(MO_GAAL(k=3, stop_epochs=1))
    x = _batch(18)  # 3 sub-generators: block 6, slices of 3, 6, 9 rows
    if mode == "train":
        gens = [create_generator(_D) for _ in range(det.k)]
        return _nets().MOGAALLoss(det, gens, _X()), (x,), {}
    return det.discriminator, (x,), {}


def _anogan(part, **kwargs):
    def make(mode):
        from pyod.models.anogan import AnoGAN

        det = _fit(AnoGAN(epochs=1, epochs_query=1, G_layers=[8, 4, 8], D_layers=[8, 4], batch_size=16,
                          **kwargs), X=_X(24))
        if part == "query":
            return _nets().AnoGANQuery(det), (_batch(1),), {}
        if mode == "train":
            return _nets().AnoGANLoss(det), (_batch(),), {}
        import torch

        return det.generator, (torch.rand(_B, det.latent_dim_G),), {}

    return make


def _alad(decision=False, **kwargs):
    def make(mode):
        import torch
        from pyod.models.alad import ALAD

        det = _fit(ALAD(epochs=1, dec_layers=[4, 8], enc_layers=[8, 4], disc_xx_layers=[8, 4],
                        disc_zz_layers=[8, 4], disc_xz_layers=[8, 4], batch_size=_B, **kwargs))
        x = _batch()
        if decision:
            mods = dict(enc=det.enc, dec=det.dec, disc_xx=det.disc_xx)
            return _nets().Call(det.get_outlier_scores, no_grad=False, **mods), (x,), {}
        if mode == "train":
            z = torch.randn(_B, det.latent_dim)
            return _nets().ALADTrainStep(det), (x, z), {}
        import torch.nn as nn

        class EncDec(nn.Module):  # the reconstruction get_outlier_scores scores: dec(enc(x))
            def __init__(self):
                super().__init__()
                self.enc, self.dec = det.enc, det.dec

            def forward(self, x):
                return self.dec(self.enc(x))

        return EncDec(), (x,), {}

    return make


def _devnet(depth, decision=False):
    def make(mode):
        import numpy as np
        import torch
        from pyod.models.devnet import DevNet, load_model_weight_predict

        X = _X()
        y = np.zeros(len(X))
        y[: len(X) // 10] = 1
        det = _fit(DevNet(network_depth=depth, epochs=1, batch_size=32), X=X, y=y)
        x = _batch()
        if decision:
            return _nets().Call(functools.partial(load_model_weight_predict, det.model), model=det.model), (x,), {}
        if mode == "train":
            labels = torch.tensor([i % 2 for i in range(_B)])  # SupDataset: int labels
            return _nets().DevNetLoss(det.model), (x, labels), {}
        return det.model, (x,), {}

    return make


def _lunar(model_type):
    def make(mode):
        import torch
        from pyod.models.lunar import LUNAR

        det = _fit(LUNAR(model_type=model_type, n_neighbours=5, n_epochs=1, random_state=0))
        dist = torch.rand(_B, 5).sort(dim=1).values  # kneighbors distances
        if mode == "train":
            y = (torch.arange(_B) % 2).float()
            return _nets().LUNARLoss(det.network), (dist, y), {}
        return det.network, (dist,), {}

    return make


def _dif(**kwargs):
    def make(mode):
        from pyod.models.dif import DIF

        det = _fit(DIF(n_ensemble=2, n_estimators=4, max_samples=32, hidden_neurons=[16, 8],
                       representation_dim=4, random_state=0, **kwargs))
        net = det.net_lst[0]
        return _mean(net, (_batch(),), mode)

    return make


def _dif_mlpnet(mode):
    """``dif.MLPnet`` as ``DIF`` builds it, with the options ``fit`` does not pass (batch norm, ReLU
    from its default ``activation``... here 'relu' as ``get_activation_by_name`` spells it)."""
    from pyod.models.dif import MLPnet

    net = MLPnet(_D, n_hidden=[16, 8], n_output=4, activation="relu", bias=True, batch_norm=True,
                 skip_connection=True)
    return _mean(net, (_batch(),), mode)


def _ae1svm(decision=False):
    def make(mode):
        from pyod.models.ae1svm import AE1SVM

        det = _fit(AE1SVM(hidden_neurons=[16, 8], epochs=1, batch_size=_B, kernel_approx_features=16))
        x = _batch()
        if decision:
            return _nets().AE1SVMScore(det), (x,), {}
        if mode == "train":
            return _nets().AE1SVMLoss(det), (x,), {}
        return det.model, (x,), {}

    return make


def _anomaly_transformer(decision=False):
    def make(mode):
        import numpy as np
        import torch
        from pyod.models.ts_anomaly_transformer import AnomalyTransformer, _score_windows

        det = _fit(AnomalyTransformer(window_size=8, d_model=16, n_heads=2, n_layers=2, epochs=1,
                                      batch_size=8), X=np.random.RandomState(0).randn(24, 3))
        windows = torch.randn(4, 8, 3)
        if decision:
            fn = functools.partial(_score_windows, det.model_, device=torch.device("cpu"), window_size=8)
            return _nets().Call(fn, no_grad=False, model=det.model_), (windows,), {}
        if mode == "train":
            return _nets().AnomalyTransformerLoss(det), (windows,), {}
        return det.model_, (windows,), {}

    return make


def _lstmad(decision=False):
    def make(mode):
        import numpy as np
        import torch
        from pyod.models.ts_lstm import LSTMAD

        det = _fit(LSTMAD(window_size=8, hidden_size=8, n_layers=2, epochs=1, batch_size=8),
                   X=np.random.RandomState(0).randn(40, 3))
        net = det.model_._net
        inputs = torch.randn(4, 8, 3)
        if decision:
            return _nets().Call(functools.partial(det._predict_model, det.model_), no_grad=False, net=net), (inputs,), {}
        if mode == "train":
            return _nets().LSTMADLoss(net), (inputs, torch.randn(4, 3)), {}
        return net, (inputs,), {}

    return make


# --- the PyG detectors -------------------------------------------------------------------------

def _graph():
    import torch

    n = 12
    g = torch.Generator().manual_seed(0)
    x = torch.randn(n, _D, generator=g)
    ring = torch.arange(n)
    src = torch.cat([ring, ring, ring[::3]])
    dst = torch.cat([(ring + 1) % n, (ring + 2) % n, (ring[::3] + 5) % n])
    ei = torch.cat([torch.stack([src, dst]), torch.stack([dst, src])], dim=1)  # triangles i, i+1, i+2
    adj = torch.zeros(n, n)
    adj[ei[0], ei[1]] = 1.0
    return n, x, ei, adj


def _pyg(kind):
    def make(mode):
        import numpy as np
        import torch

        n, x, ei, adj = _graph()
        if kind == "DOMINANT":
            from pyod.models.pyg_dominant import _DOMINANTModel

            return _nets().ReconGraphLoss(_DOMINANTModel(_D, 8, 2, 0.3), adj, 0.5), (x, ei), {}
        if kind == "AnomalyDAE":
            from pyod.models.pyg_anomalydae import _AnomalyDAEModel

            return _nets().ReconGraphLoss(_AnomalyDAEModel(_D, 8, 2, 0.3), adj, 0.5), (x, ei), {}
        if kind == "CoLA":
            from pyod.models.pyg_cola import _CoLAModel
            from torch_geometric.utils import degree

            row_deg = degree(ei[0], num_nodes=n).clamp(min=1)
            adj_norm = torch.sparse_coo_tensor(ei, 1.0 / row_deg[ei[0]], (n, n)).coalesce()
            return _nets().CoLALoss(_CoLAModel(_D, 8, 2), adj_norm, n), (x, ei), {}
        if kind == "CONAD":
            from pyod.models.pyg_conad import _CONADModel

            return _nets().CONADLoss(_CONADModel(_D, 8, 2, 0.3), adj, 0.2, 0.5), (x, ei), {}
        if kind == "GUIDE":
            from pyod.models._pyg_utils import to_sparse_adj
            from pyod.models.pyg_guide import _GUIDEModel

            adj_sp = to_sparse_adj(ei.numpy(), n)
            motif = adj_sp.dot(adj_sp).multiply(adj_sp).tocoo()
            ei_motif = torch.LongTensor(np.array([motif.row, motif.col]))
            motif_dense = torch.zeros(n, n)
            motif_dense[ei_motif[0], ei_motif[1]] = 1.0
            return _nets().GUIDELoss(_GUIDEModel(_D, 8, 2, 0.3), adj, motif_dense, 0.5), (x, ei, ei_motif), {}
        raise ValueError(kind)

    return make


# --- torch_utility -----------------------------------------------------------------------------

def _linear_block(mode):
    import torch.nn as nn
    from pyod.utils.torch_utility import LinearBlock

    net = nn.Sequential(
        LinearBlock(_D, 8, activation_name="elu", batch_norm=True, dropout_rate=0.1, init_type="xavier_uniform"),
        LinearBlock(8, 8, activation_name="leaky_relu", init_type="kaiming_normal",
                    activation_params={"leaky_relu_negative_slope": 0.2}),
        LinearBlock(8, 4, activation_name="softmax", activation_params={"softmax_dim": 1},
                    init_type="orthogonal"),
        LinearBlock(4, _D, has_act=False, init_type="trunc_normal"),
    )
    return _mean(net, (_batch(),), mode)


_AE = "pyod.models.auto_encoder.AutoEncoder"
_VAE = "pyod.models.vae.VAE"
_SOG = "pyod.models.so_gaal_new.SO_GAAL"

MODELS = {
    # BaseDeepLearningDetector: forward / training_forward; evaluating_forward
    "AutoEncoder": _base_dl(_AE, hidden_neuron_list=[16, 8]),
    "AutoEncoder_decision_function": _base_dl(_AE, decision=True, hidden_neuron_list=[16, 8]),
    "AutoEncoder_tanh_no_batchnorm_sgd": _base_dl(_AE, hidden_neuron_list=[8, 4, 2], hidden_activation_name="tanh",
                                                  batch_norm=False, dropout_rate=0.0, optimizer_name="sgd",
                                                  optimizer_params={"sgd_momentum": 0.9}),
    "VAE": _base_dl(_VAE, encoder_neuron_list=[16, 8], decoder_neuron_list=[8, 16]),
    "VAE_decision_function": _base_dl(_VAE, decision=True, encoder_neuron_list=[16, 8], decoder_neuron_list=[8, 16]),
    "VAE_beta_capacity": _base_dl(_VAE, beta=2.0, capacity=1.0, encoder_neuron_list=[16, 8],
                                  decoder_neuron_list=[8, 16], latent_dim=3),
    "VAE_batchnorm_sigmoid_no_clip": _base_dl(_VAE, encoder_neuron_list=[16, 8], decoder_neuron_list=[8, 16],
                                              batch_norm=True, output_activation_name="sigmoid", logvar_clip=None),
    "SO_GAAL": _base_dl(_SOG, fit=False),
    "SO_GAAL_after_stop": _base_dl(_SOG),
    "SO_GAAL_decision_function": _base_dl(_SOG, decision=True),
    # legacy inline-fit GAALs
    "SO_GAAL_legacy": _so_gaal_legacy,
    "MO_GAAL": _mo_gaal,
    # DeepSVDD
    "DeepSVDD": _deep_svdd("model"),
    "DeepSVDD_use_ae": _deep_svdd("model", use_ae=True, hidden_neurons=[8, 4, 2]),
    "DeepSVDD_decision_function": _deep_svdd("decision"),
    "DeepSVDD_init_c": _deep_svdd("init_c"),
    # AnoGAN / ALAD
    "AnoGAN": _anogan("gan"),
    "AnoGAN_query_decision_function": _anogan("query"),
    "ALAD": _alad(),
    "ALAD_recon_spectral_norm": _alad(add_recon_loss=True, spectral_normalization=True),
    "ALAD_no_zz": _alad(add_disc_zz_loss=False, activation_hidden_gen="relu", output_activation="sigmoid"),
    "ALAD_decision_function": _alad(decision=True),
    # DevNet
    "DevNet_depth4": _devnet(4),
    "DevNet_depth2": _devnet(2),
    "DevNet_linear": _devnet(1),
    "DevNet_decision_function": _devnet(2, decision=True),
    # LUNAR, DIF, AE1SVM
    "LUNAR_WEIGHT": _lunar("WEIGHT"),
    "LUNAR_SCORE": _lunar("SCORE"),
    "DIF": _dif(),
    "DIF_skip_connection": _dif(skip_connection=True),
    "DIF_MLPnet_batchnorm": _dif_mlpnet,
    "AE1SVM": _ae1svm(),
    "AE1SVM_decision_function": _ae1svm(decision=True),
    # time series
    "AnomalyTransformer": _anomaly_transformer(),
    "AnomalyTransformer_decision_function": _anomaly_transformer(decision=True),
    "LSTMAD": _lstmad(),
    "LSTMAD_decision_function": _lstmad(decision=True),
    # graphs (torch_geometric)
    "DOMINANT": _pyg("DOMINANT"),
    "AnomalyDAE": _pyg("AnomalyDAE"),
    "CoLA": _pyg("CoLA"),
    "CONAD": _pyg("CONAD"),
    "GUIDE": _pyg("GUIDE"),
    # torch_utility
    "LinearBlock_stack": _linear_block,
}
