"""ctgan (SDV / DataCebo) 0.12.1: CTGAN and TVAE, their torch modules and the synthesisers'
pieces around them, tiny, random weights, no download.

Data: small random ``pandas`` tables (and one ``numpy`` array), fitted with the library's own
``DataTransformer`` (rdt ``ClusterBasedNormalizer`` per continuous column: a tanh scalar plus a
softmax over its modes; ``OneHotEncoder`` per discrete column) and, for CTGAN, its
``DataSampler``, exactly as ``CTGAN.fit`` / ``TVAE.fit`` set up before their loops; that set-up
(pandas / rdt / sklearn, numpy sampling of condition vectors and real rows) runs at build time,
outside the compiled region. Tables (60 rows): ``mixed`` (two continuous, one integer treated as
continuous, two string categoricals), ``continuous`` (no discrete column: CTGAN has no condition
vector), ``discrete`` (categoricals only), ``numpy`` (a float array, its third column discrete by
index), ``dtypes`` (bool and int categories beside a float), ``discrete_nan`` (a categorical with
missing values). Sizes: ``embedding_dim=8``, ``generator_dim=(16, 16)``,
``discriminator_dim=(16, 16)``, ``compress_dims=decompress_dims=(16, 16)``, batch 20, ``pac=10``
(CTGAN's default) unless named.

Eval: the generator / decoder forward as ``sample`` runs it: CTGAN
``torch.normal(mean, std)`` -> ``cat`` the condition vector (``sample_original_condvec``, or
``generate_cond_from_condition_column_info`` for conditional sampling) -> ``Generator`` ->
``_apply_activate`` (tanh spans, ``_gumbel_softmax`` spans at ``tau=0.2``); TVAE
``torch.normal`` -> ``Decoder`` -> ``torch.tanh``. The ``*_numpy`` models keep the step's numpy
edges inside (``torch.from_numpy`` of the condition vector, ``.detach().cpu().numpy()`` of the
result), as the loop body of ``sample`` has them. The ``*_D`` models' eval is the critic on real
and generated rows (no gradient penalty: it differentiates, and eval runs without gradients).
Train: the losses as ``fit`` computes them, without the optimizer steps, ``.backward`` calls and
the ``.item()`` / pandas loss logging: CTGAN's generator loss (``-mean(D(fake ++ c1))`` plus
``_cond_loss``), CTGAN's discriminator loss plus ``Discriminator.calc_gradient_penalty``
(``torch.autograd.grad`` with ``create_graph=True``; ``fit`` backpropagates the two separately,
here their sum is returned); TVAE's ``Encoder`` -> reparameterisation (``randn_like``) ->
``Decoder`` -> ``_loss_function`` (``loss_1 + loss_2``). Modules on their own
(``Residual``, ``Generator``, ``Discriminator``, ``Encoder``, ``Decoder``) and the methods on their
own (``_apply_activate``, ``_gumbel_softmax``, ``_cond_loss``, ``_loss_function``) take
``mean_loss_module`` in train unless they are a loss already.

    pip install --no-deps ctgan==0.12.1
    pip install --no-deps rdt==1.18.2
    pip install --no-deps Faker==37.12.0

(already installed and used: numpy 2.4.6, pandas 3.0.6, scipy 1.17.1, scikit-learn 1.9.1, joblib,
tqdm 4.70.1, python-dateutil. rdt imports Faker at its top (``rdt.transformers.pii``); Faker
declares ``tzdata``, which is not installed and not needed to import. rdt 1.18.2 rather than 2.0.0:
2.0.0 declares ``pandas<3``, 1.18.2 declares no upper bound.) Nothing stubbed.

Left out: ``CTGAN.fit`` / ``TVAE.fit`` / ``sample`` as wholes (tqdm loops, numpy sampling per row,
pandas ``inverse_transform``, optimizer steps), ``load_demo`` (a download), the ``__main__`` CLI,
``DataTransformer`` / ``DataSampler`` themselves (numpy / pandas / rdt, no torch), TVAE's
``decoder.sigma.data.clamp_`` (after the optimizer step), ``set_device`` / ``set_random_state``.
Notes: CTGAN's ``Generator`` ends in BatchNorm'd ``Residual`` blocks (train mode: batch
statistics) and the ``Discriminator`` has ``Dropout(0.5)``; batch 20 is a multiple of every
``pac`` used (10, 2, 1), as ``Discriminator.forward`` asserts. ``DataTransformer`` gives a continuous
column's mode span ``dim`` as a ``numpy.int64`` (``sum(gm.valid_component_indicator)``), as the
synthesisers get it. Measured first as it came, before any rule looked at it.
"""

import functools

PACKAGE = "ctgan"

mean_loss_module = None  # adapter.mean_loss_module, set by ZooSuite
_ROWS = 60
_B = 20  # batch_size
_EMB = 8


def warm_up():
    import torch  # noqa: F401

    import ctgan  # noqa: F401
    import ctgan.data_sampler  # noqa: F401
    import ctgan.data_transformer  # noqa: F401
    import ctgan.synthesizers.ctgan  # noqa: F401
    import ctgan.synthesizers.tvae  # noqa: F401


# --- data ------------------------------------------------------------------------------------

def _frame(kind):
    """A small random table and its discrete columns."""
    import numpy as np
    import pandas as pd

    rng = np.random.RandomState(0)
    n = _ROWS
    if kind == "mixed":
        age = np.where(rng.rand(n) < 0.5, rng.normal(25, 3, n), rng.normal(55, 5, n))
        df = pd.DataFrame({
            "age": age,
            "income": rng.lognormal(10, 0.5, n),
            "hours": rng.randint(20, 60, n),
            "workclass": rng.choice(["Private", "Self-emp", "Gov"], n),
            "sex": rng.choice(["M", "F"], n),
        })
        return df, ("workclass", "sex")
    if kind == "continuous":
        return pd.DataFrame({"x": rng.normal(0, 1, n), "y": rng.uniform(-3, 3, n),
                             "z": np.concatenate([rng.normal(-5, 1, n // 2), rng.normal(5, 1, n - n // 2)])}), ()
    if kind == "discrete":
        return pd.DataFrame({"a": rng.choice(["x", "y", "z", "w"], n), "b": rng.choice(["yes", "no"], n),
                             "c": rng.choice(["lo", "mid", "hi"], n)}), ("a", "b", "c")
    if kind == "numpy":
        arr = np.stack([rng.normal(0, 1, n), rng.normal(3, 2, n), rng.randint(0, 3, n).astype(float)], axis=1)
        return arr, (2,)
    if kind == "dtypes":
        return pd.DataFrame({"flag": rng.rand(n) < 0.3, "level": rng.randint(1, 4, n),
                             "value": rng.normal(10, 2, n)}), ("flag", "level")
    if kind == "discrete_nan":
        col = rng.choice(["red", "green", "blue"], n).astype(object)
        col[rng.rand(n) < 0.2] = np.nan
        return pd.DataFrame({"color": col, "size": rng.normal(1, 0.2, n)}), ("color",)
    raise ValueError(kind)


@functools.cache
def _transformed(kind):
    """``DataTransformer`` fitted on the table and the transformed matrix (``fit``'s set-up)."""
    import numpy as np

    from ctgan.data_transformer import DataTransformer

    np.random.seed(0)
    data, discrete = _frame(kind)
    transformer = DataTransformer()
    transformer.fit(data, discrete)
    return transformer, transformer.transform(data), data


# --- CTGAN set-up -----------------------------------------------------------------------------

def _ctgan(kind="mixed", pac=10, generator_dim=(16, 16), discriminator_dim=(16, 16), log_frequency=True):
    """A ``CTGAN`` with what ``fit`` builds before its loop: transformer, data sampler, generator,
    and the discriminator (returned)."""
    from ctgan import CTGAN
    from ctgan.data_sampler import DataSampler
    from ctgan.synthesizers.ctgan import Discriminator, Generator

    synth = CTGAN(embedding_dim=_EMB, generator_dim=generator_dim, discriminator_dim=discriminator_dim,
                  batch_size=_B, pac=pac, epochs=1, log_frequency=log_frequency, enable_gpu=False)
    transformer, train_data, _ = _transformed(kind)
    synth._transformer = transformer
    synth._data_sampler = DataSampler(train_data, transformer.output_info_list, log_frequency)
    data_dim = transformer.output_dimensions
    synth._generator = Generator(_EMB + synth._data_sampler.dim_cond_vec(), generator_dim, data_dim)
    discriminator = Discriminator(data_dim + synth._data_sampler.dim_cond_vec(), discriminator_dim, pac=pac)
    return synth, discriminator, train_data


def _noise():
    import torch

    mean = torch.zeros(_B, _EMB)
    return mean, mean + 1


def _train_batch(synth, train_data, numpy=False):
    """One step's numpy draws as ``fit`` makes them: ``sample_condvec``, the permuted real rows."""
    import numpy as np
    import torch

    np.random.seed(0)
    condvec = synth._data_sampler.sample_condvec(_B)
    if condvec is None:
        real = synth._data_sampler.sample_data(train_data, _B, None, None)
        c1 = m1 = perm = None
    else:
        c1, m1, col, opt = condvec
        perm = np.arange(_B)
        np.random.shuffle(perm)
        real = synth._data_sampler.sample_data(train_data, _B, col[perm], opt[perm])
    if numpy:
        return c1, m1, perm, real
    t = (lambda a: None if a is None else torch.from_numpy(a))
    return t(c1), t(m1), (None if perm is None else torch.from_numpy(perm)), torch.from_numpy(real.astype("float32"))


@functools.cache
def _classes():
    import numpy as np
    import torch
    from torch import nn

    from ctgan.synthesizers.tvae import _loss_function

    class CTGANSampleStep(nn.Module):
        """The body of ``CTGAN.sample``'s loop up to the activated generator output."""

        def __init__(self, synth, to_numpy=False):
            super().__init__()
            self.generator = synth._generator
            object.__setattr__(self, "synth", synth)
            self.to_numpy = to_numpy

        def forward(self, mean, std, condvec=None):
            fakez = torch.normal(mean=mean, std=std)
            if condvec is not None:
                c1 = torch.from_numpy(condvec) if self.to_numpy else condvec
                fakez = torch.cat([fakez, c1], dim=1)
            fake = self.generator(fakez)
            fakeact = self.synth._apply_activate(fake)
            if self.to_numpy:
                return fakeact.detach().cpu().numpy()
            return fakeact

    class CTGANGeneratorLoss(nn.Module):
        """``loss_g`` of ``CTGAN.fit``'s generator step."""

        def __init__(self, synth, discriminator, from_numpy=False):
            super().__init__()
            self.generator = synth._generator
            self.discriminator = discriminator
            object.__setattr__(self, "synth", synth)
            self.from_numpy = from_numpy

        def forward(self, mean, std, c1=None, m1=None):
            fakez = torch.normal(mean=mean, std=std)
            if c1 is not None:
                if self.from_numpy:
                    c1 = torch.from_numpy(c1)
                    m1 = torch.from_numpy(m1)
                fakez = torch.cat([fakez, c1], dim=1)
            fake = self.generator(fakez)
            fakeact = self.synth._apply_activate(fake)
            if c1 is not None:
                y_fake = self.discriminator(torch.cat([fakeact, c1], dim=1))
            else:
                y_fake = self.discriminator(fakeact)
            if c1 is None:
                cross_entropy = 0
            else:
                cross_entropy = self.synth._cond_loss(fake, c1, m1)
            return -torch.mean(y_fake) + cross_entropy

    class CTGANDiscriminatorStep(nn.Module):
        """``CTGAN.fit``'s discriminator step: ``loss_d + pen`` in train, the critic's scores on
        real and generated rows in eval."""

        def __init__(self, synth, discriminator, from_numpy=False):
            super().__init__()
            self.generator = synth._generator
            self.discriminator = discriminator
            object.__setattr__(self, "synth", synth)
            self.pac = synth.pac
            self.from_numpy = from_numpy

        def forward(self, mean, std, real, c1=None, perm=None):
            fakez = torch.normal(mean=mean, std=std)
            if self.from_numpy:
                real = torch.from_numpy(real.astype("float32"))
                if c1 is not None:
                    c1 = torch.from_numpy(c1)
            if c1 is not None:
                fakez = torch.cat([fakez, c1], dim=1)
                c2 = c1[perm]
            fake = self.generator(fakez)
            fakeact = self.synth._apply_activate(fake)
            if c1 is not None:
                fake_cat = torch.cat([fakeact, c1], dim=1)
                real_cat = torch.cat([real, c2], dim=1)
            else:
                real_cat = real
                fake_cat = fakeact
            y_fake = self.discriminator(fake_cat)
            y_real = self.discriminator(real_cat)
            if not self.training:
                return y_real, y_fake
            pen = self.discriminator.calc_gradient_penalty(real_cat, fake_cat, "cpu", self.pac)
            loss_d = -(torch.mean(y_real) - torch.mean(y_fake))
            return loss_d + pen

    class GradientPenalty(nn.Module):
        """``Discriminator.calc_gradient_penalty`` on its own (train); the critic in eval."""

        def __init__(self, discriminator, pac):
            super().__init__()
            self.discriminator = discriminator
            self.pac = pac

        def forward(self, real_cat, fake_cat):
            if not self.training:
                return self.discriminator(real_cat)
            return self.discriminator.calc_gradient_penalty(real_cat, fake_cat, "cpu", self.pac, 10)

    class Method(nn.Module):
        """A synthesiser method on its own, its generator kept as a submodule."""

        def __init__(self, synth, name, **kwargs):
            super().__init__()
            self.generator = synth._generator
            object.__setattr__(self, "synth", synth)
            self.name = name
            self.kwargs = kwargs

        def forward(self, *args):
            return getattr(self.synth, self.name)(*args, **self.kwargs)

    class TVAESampleStep(nn.Module):
        """The body of ``TVAE.sample``'s loop."""

        def __init__(self, decoder, to_numpy=False):
            super().__init__()
            self.decoder = decoder
            self.to_numpy = to_numpy

        def forward(self, mean, std):
            noise = torch.normal(mean=mean, std=std)
            fake, sigmas = self.decoder(noise)
            fake = torch.tanh(fake)
            if self.to_numpy:
                return fake.detach().cpu().numpy(), sigmas.detach().cpu().numpy()
            return fake, sigmas

    class TVAELoss(nn.Module):
        """``TVAE.fit``'s loss for one batch."""

        def __init__(self, encoder, decoder, output_info, factor):
            super().__init__()
            self.encoder = encoder
            self.decoder = decoder
            self.output_info = output_info
            self.factor = factor

        def forward(self, real):
            mu, std, logvar = self.encoder(real)
            eps = torch.randn_like(std)
            emb = eps * std + mu
            rec, sigmas = self.decoder(emb)
            loss_1, loss_2 = _loss_function(rec, real, sigmas, mu, logvar, self.output_info, self.factor)
            return loss_1 + loss_2

    class LossFunction(nn.Module):
        """``tvae._loss_function`` on its own, on fixed encoder / decoder outputs."""

        def __init__(self, data_dim, output_info, factor):
            super().__init__()
            self.sigmas = nn.Parameter(torch.ones(data_dim) * 0.1)
            self.output_info = output_info
            self.factor = factor

        def forward(self, recon_x, x, mu, logvar):
            loss_1, loss_2 = _loss_function(recon_x, x, self.sigmas, mu, logvar, self.output_info, self.factor)
            return loss_1 + loss_2

    del np
    return {c.__name__: c for c in (CTGANSampleStep, CTGANGeneratorLoss, CTGANDiscriminatorStep, GradientPenalty,
                                      Method, TVAESampleStep, TVAELoss, LossFunction)}


# --- CTGAN factories --------------------------------------------------------------------------

def _ctgan_g(kind="mixed", numpy=False, condition=None, **cfg):
    """Eval: the sampling step (``condition``: (column, value) as ``sample`` takes them).
    Train: the generator loss."""

    def make(mode):
        import numpy as np

        C = _classes()
        synth, disc, train_data = _ctgan(kind, **cfg)
        mean, std = _noise()
        if mode == "eval":
            np.random.seed(0)
            if condition is not None:
                info = synth._transformer.convert_column_name_value_to_id(*condition)
                condvec = synth._data_sampler.generate_cond_from_condition_column_info(info, _B)
            else:
                condvec = synth._data_sampler.sample_original_condvec(_B)
            if condvec is not None and not numpy:
                import torch

                condvec = torch.from_numpy(condvec)
            return C["CTGANSampleStep"](synth, to_numpy=numpy), (mean, std, condvec), {}
        c1, m1, _, _ = _train_batch(synth, train_data, numpy=numpy)
        return C["CTGANGeneratorLoss"](synth, disc, from_numpy=numpy), (mean, std, c1, m1), {}

    return make


def _ctgan_d(kind="mixed", numpy=False, **cfg):
    """Train: the discriminator loss with the gradient penalty. Eval: the critic's scores."""

    def make(mode):
        C = _classes()
        synth, disc, train_data = _ctgan(kind, **cfg)
        mean, std = _noise()
        c1, _, perm, real = _train_batch(synth, train_data, numpy=numpy)
        return C["CTGANDiscriminatorStep"](synth, disc, from_numpy=numpy), (mean, std, real, c1, perm), {}

    return make


def _wrap(net, mode):
    return net if mode == "eval" else mean_loss_module()(net)


def _residual(mode):
    import torch

    from ctgan.synthesizers.ctgan import Residual

    return _wrap(Residual(12, 16), mode), (torch.randn(_B, 12),), {}


def _generator(generator_dim):
    def make(mode):
        import torch

        from ctgan.synthesizers.ctgan import Generator

        return _wrap(Generator(12, generator_dim, 10), mode), (torch.randn(_B, 12),), {}

    return make


def _discriminator(pac, discriminator_dim=(16, 16)):
    def make(mode):
        import torch

        from ctgan.synthesizers.ctgan import Discriminator

        return _wrap(Discriminator(10, discriminator_dim, pac=pac), mode), (torch.randn(_B, 10),), {}

    return make


def _gradient_penalty(mode):
    import torch

    from ctgan.synthesizers.ctgan import Discriminator

    disc = Discriminator(10, (16, 16), pac=10)
    real = torch.randn(_B, 10)
    fake = torch.randn(_B, 10, requires_grad=mode == "train")  # as the generator's output
    return _classes()["GradientPenalty"](disc, 10), (real, fake), {}


def _method(name, kind="mixed", **kwargs):
    """``_apply_activate`` / ``_gumbel_softmax`` / ``_cond_loss`` on a generator's raw output."""

    def make(mode):
        import torch

        synth, _, train_data = _ctgan(kind)
        dim = synth._transformer.output_dimensions
        net = _classes()["Method"](synth, name, **kwargs)
        raw = torch.randn(_B, dim, requires_grad=mode == "train")
        if name == "_gumbel_softmax":
            args = (raw[:, :5] if mode == "eval" else torch.randn(_B, 5, requires_grad=True),)
        elif name == "_cond_loss":
            c1, m1, _, _ = _train_batch(synth, train_data)
            return net, (raw, c1, m1), {}
        else:
            args = (raw,)
        return _wrap(net, mode), args, {}

    return make


# --- TVAE factories ---------------------------------------------------------------------------

def _tvae(kind="mixed", compress_dims=(16, 16), decompress_dims=(16, 16), embedding_dim=_EMB, loss_factor=2,
          numpy=False):
    """Eval: the sampling step. Train: the loss of one batch."""

    def make(mode):
        import torch

        from ctgan import TVAE
        from ctgan.synthesizers.tvae import Decoder, Encoder

        synth = TVAE(embedding_dim=embedding_dim, compress_dims=compress_dims, decompress_dims=decompress_dims,
                     batch_size=_B, epochs=1, loss_factor=loss_factor, enable_gpu=False)
        transformer, train_data, _ = _transformed(kind)
        synth.transformer = transformer
        data_dim = transformer.output_dimensions
        encoder = Encoder(data_dim, synth.compress_dims, synth.embedding_dim)
        synth.decoder = Decoder(synth.embedding_dim, synth.decompress_dims, data_dim)
        C = _classes()
        if mode == "eval":
            mean = torch.zeros(_B, synth.embedding_dim)
            return C["TVAESampleStep"](synth.decoder, to_numpy=numpy), (mean, mean + 1), {}
        real = torch.from_numpy(train_data.astype("float32"))[:_B]
        return C["TVAELoss"](encoder, synth.decoder, transformer.output_info_list, synth.loss_factor), (real,), {}

    return make


def _encoder(mode):
    import torch

    from ctgan.synthesizers.tvae import Encoder

    return _wrap(Encoder(10, (16, 16), _EMB), mode), (torch.randn(_B, 10),), {}


def _decoder(mode):
    import torch

    from ctgan.synthesizers.tvae import Decoder

    return _wrap(Decoder(_EMB, (16, 16), 10), mode), (torch.randn(_B, _EMB),), {}


def _loss_function(mode):
    import torch

    transformer, train_data, _ = _transformed("mixed")
    dim = transformer.output_dimensions
    net = _classes()["LossFunction"](dim, transformer.output_info_list, 2)
    x = torch.from_numpy(train_data.astype("float32"))[:_B]
    return net, (torch.randn(_B, dim), x, torch.randn(_B, _EMB), torch.randn(_B, _EMB) * 0.1), {}


MODELS = {
    # CTGAN: sampling step (eval) / generator loss (train), per table
    "CTGAN_mixed": _ctgan_g("mixed"),
    "CTGAN_continuous": _ctgan_g("continuous"),
    "CTGAN_discrete": _ctgan_g("discrete"),
    "CTGAN_numpy_array": _ctgan_g("numpy"),
    "CTGAN_dtypes": _ctgan_g("dtypes"),
    "CTGAN_discrete_nan": _ctgan_g("discrete_nan"),
    "CTGAN_conditional_sample": _ctgan_g("mixed", condition=("workclass", "Gov")),
    "CTGAN_step_numpy": _ctgan_g("mixed", numpy=True),
    "CTGAN_pac1": _ctgan_g("mixed", pac=1),
    "CTGAN_one_residual": _ctgan_g("mixed", generator_dim=(32,), discriminator_dim=(32,)),
    "CTGAN_deep": _ctgan_g("mixed", generator_dim=(16, 16, 16), discriminator_dim=(16, 16, 16)),
    "CTGAN_no_log_frequency": _ctgan_g("discrete", log_frequency=False),
    # CTGAN: critic (eval) / discriminator loss + gradient penalty (train)
    "CTGAN_D_mixed": _ctgan_d("mixed"),
    "CTGAN_D_continuous": _ctgan_d("continuous"),
    "CTGAN_D_discrete": _ctgan_d("discrete"),
    "CTGAN_D_numpy_array": _ctgan_d("numpy"),
    "CTGAN_D_dtypes": _ctgan_d("dtypes"),
    "CTGAN_D_pac2": _ctgan_d("mixed", pac=2),
    "CTGAN_D_linear_critic": _ctgan_d("mixed", discriminator_dim=()),
    "CTGAN_D_step_numpy": _ctgan_d("mixed", numpy=True),
    # CTGAN modules and methods on their own
    "Residual": _residual,
    "Generator": _generator((16, 16)),
    "Generator_wide_one_layer": _generator((64,)),
    "Discriminator_pac10": _discriminator(10),
    "Discriminator_pac1": _discriminator(1),
    "Discriminator_calc_gradient_penalty": _gradient_penalty,
    "CTGAN_apply_activate": _method("_apply_activate"),
    "CTGAN_apply_activate_continuous": _method("_apply_activate", "continuous"),
    "CTGAN_gumbel_softmax": _method("_gumbel_softmax", tau=0.2),
    "CTGAN_gumbel_softmax_hard": _method("_gumbel_softmax", tau=0.5, hard=True),
    "CTGAN_cond_loss": _method("_cond_loss"),
    # TVAE: sampling step (eval) / loss (train), per table
    "TVAE_mixed": _tvae("mixed"),
    "TVAE_continuous": _tvae("continuous"),
    "TVAE_discrete": _tvae("discrete"),
    "TVAE_numpy_array": _tvae("numpy"),
    "TVAE_dtypes": _tvae("dtypes"),
    "TVAE_discrete_nan": _tvae("discrete_nan"),
    "TVAE_small_loss_factor": _tvae("mixed", compress_dims=(32,), decompress_dims=(32,), embedding_dim=4,
                                    loss_factor=1),
    "TVAE_step_numpy": _tvae("mixed", numpy=True),
    # TVAE modules and the loss on its own
    "Encoder": _encoder,
    "Decoder": _decoder,
    "TVAE_loss_function": _loss_function,
}
