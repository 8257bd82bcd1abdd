"""Captum (PyTorch's model interpretability library) 0.9.0, import name ``captum``: its attribution
algorithms, its ``robust`` attacks, its ``metrics`` and its ``module`` stochastic gates, used as its
tutorials and tests use them: on small user models (captum's own test helpers
``captum.testing.helpers.basic_models``: ``BasicModel_ConvNet`` (a 1x10x10 image, two conv / max-pool
blocks, 10 softmax outputs), ``BasicModel_ConvNet_MaxPool1d``, ``BasicModel_MultiLayer`` (3 features,
2 outputs), ``BasicEmbeddingModel`` (two embedding tables, cut to 8 dims), ``SimpleLRPModel``; and a
tutorial-style embedding + LSTM text classifier written here), random inputs (batch 4), no download.
Each entry is a user's step module whose forward calls the library (the compiled call):

- primary attribution: ``Saliency`` (abs, and signed), ``IntegratedGradients`` (gauss-legendre with
  ``return_convergence_delta``, ``riemann_trapezoid`` with a per-sample ``internal_batch_size``,
  and on a text model through ``configure_interpretable_embedding_layer`` /
  ``indices_to_embeddings``), ``InputXGradient``, ``DeepLift`` (2d and 1d max-pool CNNs),
  ``DeepLiftShap`` (a baseline distribution), ``GradientShap``, ``GuidedBackprop``,
  ``Deconvolution``, ``GuidedGradCam``, ``LRP``; perturbation: ``Occlusion``, ``FeatureAblation``
  (a feature mask of quadrants), ``FeaturePermutation``, ``ShapleyValueSampling`` (mask),
  ``ShapleyValues`` (exact), ``Lime`` and ``KernelShap`` (one example, as their docs ask);
  ``NoiseTunnel`` (smoothgrad over IG, vargrad over Saliency, smoothgrad_sq over GradientShap);
- layer attribution: ``LayerGradCam`` + ``LayerAttribution.interpolate``, ``LayerConductance``,
  ``LayerIntegratedGradients`` (on an embedding with a ``TokenReferenceBase`` baseline through the
  LSTM classifier, on ``BasicEmbeddingModel.embedding1``, and on a conv layer's input),
  ``LayerActivation``, ``LayerGradientXActivation``, ``InternalInfluence``, ``LayerDeepLift``,
  ``LayerGradientShap``, ``LayerFeatureAblation``;
- neuron attribution: ``NeuronConductance``, ``NeuronGradient``, ``NeuronIntegratedGradients``,
  ``NeuronDeepLift``, ``NeuronGuidedBackprop``;
- ``captum.metrics``: ``infidelity`` (a Gaussian-noise ``perturb_func``) of IG attributions and
  ``sensitivity_max`` of ``Saliency.attribute``;
- ``captum.robust``: ``FGSM`` and ``PGD`` (Linf with a random start; L2) attacks;
- ``captum.module``: ``BinaryConcreteStochasticGates`` and ``GaussianStochasticGates`` (with a
  feature-group ``mask``) gating a model's input.

Eval: the step returns what the library returns (attributions, with the convergence delta where
asked; the adversarial inputs and the model's outputs on them; the metric values; the gated model's
outputs). Train: a training step whose loss uses the library: an attribution-regularised loss
(cross entropy of the model on fixed labels + 0.01 x the mean absolute attribution, an attribution
prior) for the attribution and metric entries; adversarial training (cross entropy on the clean and
the FGSM / PGD inputs) for the attacks; cross entropy of the gated model + the gates' L0
regulariser for the stochastic gates. Measured first as it came, before any rule looked at it.

    pip install --no-deps captum==0.9.0
    pip install --no-deps matplotlib==3.11.2 contourpy==1.3.3 cycler==0.12.1 fonttools==4.68.0 kiwisolver==1.5.1

``captum/__init__`` imports ``captum.attr``, whose ``llm_attr`` and ``visualization`` import
matplotlib at their top, so matplotlib is installed (pinned, ``--no-deps``, with its deps that were
missing; numpy, packaging, tqdm, pillow, pyparsing and python-dateutil were already there). Lime /
KernelShap's default interpretable models use scikit-learn (already installed, 1.9.1). Nothing
stubbed.

Left out: ``captum.influence`` (TracInCP / influence functions: datasets and saved checkpoints,
a data-loader loop, not a step), ``captum.concept`` (TCAV: trains a scikit-learn classifier on
saved activations on disk), ``LLMAttribution`` / ``LLMGradientAttribution`` (need a Hugging Face
tokenizer and causal LM), ``RemoteLLMAttribution`` / ``VLLMProvider`` (a server),
``DataLoaderAttribution`` (a DataLoader loop), ``AttackComparator`` / ``MinParamPerturbation``
(Python search / summary loops around the attacks kept), ``visualization`` (matplotlib).
Notes: ``BasicModel_ConvNet`` ends in a softmax (the cross entropy is taken on it as is); captum's
gradient methods call ``torch.autograd.grad`` inside the step, so in train the attribution term is a
constant of the parameters for most methods (the regulariser adds its value; the gradients come
from the cross entropy); the hook-based methods (DeepLift, GuidedBackprop, LRP, ...) register and
remove module hooks inside each ``attribute``. ``LRP``'s train term is taken on the detached
attribution: its relevance graph holds the weights that ``LRP`` restores in place after
``attribute``, so backpropagating it fails eagerly (an in-place modification error).
"""

PACKAGE = "captum"

_B = 4  # batch
_REG = 0.01  # weight of the attribution term in the train loss


def warm_up():
    import captum.attr  # noqa: F401
    import captum.metrics  # noqa: F401
    import captum.module  # noqa: F401
    import captum.robust  # noqa: F401
    import captum.testing.helpers.basic_models  # noqa: F401
    import torch  # noqa: F401


# --- user models ---------------------------------------------------------------------------------

def _cnn():
    import torch
    from captum.testing.helpers.basic_models import BasicModel_ConvNet

    return BasicModel_ConvNet(), torch.randn(_B, 1, 10, 10), 10


def _cnn1d():
    import torch
    from captum.testing.helpers.basic_models import BasicModel_ConvNet_MaxPool1d

    return BasicModel_ConvNet_MaxPool1d(), torch.randn(_B, 1, 10), 10


def _mlp():
    import torch
    from captum.testing.helpers.basic_models import BasicModel_MultiLayer

    return BasicModel_MultiLayer(), torch.randn(_B, 3), 2


def _lrp_mlp():
    import torch
    from captum.testing.helpers.basic_models import SimpleLRPModel

    return SimpleLRPModel(inplace=False), torch.randn(_B, 3), 1


def _embedding_model():
    from captum.testing.helpers.basic_models import BasicEmbeddingModel

    return BasicEmbeddingModel(num_embeddings=30, embedding_dim=8, hidden_dim=16, output_dim=3)


def _lstm_classifier():
    import torch
    from torch import nn

    class LSTMClassifier(nn.Module):
        """A tutorial-style text classifier: embedding -> LSTM -> last hidden state -> linear."""

        def __init__(self, vocab=20, dim=8, hidden=8, classes=2):
            super().__init__()
            self.embedding = nn.Embedding(vocab, dim, padding_idx=0)
            self.lstm = nn.LSTM(dim, hidden, batch_first=True)
            self.fc = nn.Linear(hidden, classes)

        def forward(self, text):
            emb = self.embedding(text)
            _, (h, _) = self.lstm(emb)
            return self.fc(h[-1])

    return LSTMClassifier(), torch.randint(1, 20, (_B, 7)), 2


def _quadrant_mask():
    import torch

    m = torch.zeros(1, 1, 10, 10, dtype=torch.long)
    m[..., :5, 5:] = 1
    m[..., 5:, :5] = 2
    m[..., 5:, 5:] = 3
    return m


# --- steps ----------------------------------------------------------------------------------------

def _tensors(out):
    import torch

    todo, got = [out], []
    while todo:
        o = todo.pop()
        if isinstance(o, torch.Tensor):
            if o.is_floating_point():
                got.append(o)
        elif isinstance(o, (tuple, list)):
            todo.extend(o)
    return got


def _logits(out):
    return out[0] if isinstance(out, (tuple, list)) else out


def _attr_step():
    import torch
    import torch.nn.functional as F
    from torch import nn

    class AttributionStep(nn.Module):
        """A user's step: ``explain(explainer, net, *inputs, target)`` calls ``.attribute``; in
        train, cross entropy + ``_REG`` x the mean absolute attribution."""

        def __init__(self, net, explainer, explain, classes, net_inputs=None, detach=False):
            super().__init__()
            self.detach = detach  # LRP: its attribution's graph holds weights it restores in place
            self.net = net
            self.explainer = explainer
            self.explain = explain
            self.net_inputs = net_inputs  # which inputs the model's own forward takes (train)
            self.register_buffer("labels", torch.arange(_B) % classes)
            self.classes = classes

        def forward(self, *inputs):
            n = inputs[0].shape[0]
            target = self.labels[:n]
            attr = self.explain(self.explainer, self.net, inputs, target)
            if not self.training:
                return attr
            x = inputs if self.net_inputs is None else self.net_inputs(inputs)
            out = _logits(self.net(*x))
            if self.classes == 1:
                loss = F.mse_loss(out.squeeze(-1), target.float())
            else:
                loss = F.cross_entropy(out, target)
            terms = [(a.detach() if self.detach else a).abs().mean() for a in _tensors(attr)]
            return loss + _REG * torch.stack(terms).sum()

    return AttributionStep


def _attribution(model, build, explain, **kw):
    """A factory: ``model()`` -> (net, inputs, classes); ``build(net)`` -> the captum explainer."""

    def make(mode):
        net, x, classes = model()
        x = x if isinstance(x, tuple) else (x,)
        step = _attr_step()(net, build(net), explain, classes, **kw)
        return step, x, {}

    return make


# --- attribution entries --------------------------------------------------------------------------

def _captum(name):
    import importlib

    mod, _, attr = name.rpartition(".")
    return getattr(importlib.import_module(mod), attr)


def _A(name):
    """``captum.attr.<name>`` built on the whole model."""
    return lambda net: _captum(f"captum.attr.{name}")(net)


def _L(name, layer, **kw):
    """``captum.attr.<name>`` built on one of the model's layers."""
    return lambda net: _captum(f"captum.attr.{name}")(net, getattr(net, layer), **kw)


def _saliency(e, net, x, t):
    return e.attribute(x[0], target=t)


def _saliency_signed(e, net, x, t):
    return e.attribute(x[0], target=t, abs=False)


def _ig_delta(e, net, x, t):
    import torch

    return e.attribute(x[0], baselines=torch.zeros_like(x[0]), target=t, n_steps=8,
                       return_convergence_delta=True)


def _ig_trapezoid(e, net, x, t):
    return e.attribute(x[0], baselines=0.0, target=t, n_steps=6, method="riemann_trapezoid",
                       internal_batch_size=_B)


def _plain(e, net, x, t):
    return e.attribute(x[0], target=t)


def _deeplift(e, net, x, t):
    import torch

    return e.attribute(x[0], baselines=torch.zeros_like(x[0]), target=t, return_convergence_delta=True)


def _deeplift_shap(e, net, x, t):
    import torch

    baselines = torch.randn(3, *x[0].shape[1:]) * 0.1
    return e.attribute(x[0], baselines=baselines, target=t)


def _gradient_shap(e, net, x, t):
    import torch

    baselines = torch.cat([x[0] * 0, x[0] * 0 + 1])
    return e.attribute(x[0], baselines=baselines, n_samples=5, stdevs=0.1, target=t)


def _lrp(e, net, x, t):
    return e.attribute(x[0], target=0, return_convergence_delta=True)


def _occlusion(e, net, x, t):
    return e.attribute(x[0], sliding_window_shapes=(1, 3, 3), strides=(1, 2, 2), baselines=0, target=t)


def _feature_ablation(e, net, x, t):
    return e.attribute(x[0], target=t, feature_mask=_quadrant_mask())


def _shapley_sampling(e, net, x, t):
    return e.attribute(x[0], target=t, n_samples=3, feature_mask=_quadrant_mask())


def _lime(e, net, x, t):
    return e.attribute(x[0][:1], target=1, n_samples=20)


def _nt_ig(e, net, x, t):
    return e.attribute(x[0], nt_type="smoothgrad", nt_samples=3, stdevs=0.1, target=t, n_steps=4)


def _nt_vargrad(e, net, x, t):
    return e.attribute(x[0], nt_type="vargrad", nt_samples=4, target=t)


def _nt_gradshap(e, net, x, t):
    import torch

    return e.attribute(x[0], nt_type="smoothgrad_sq", nt_samples=2, nt_samples_batch_size=2,
                       baselines=torch.zeros_like(x[0]), target=t)


def _grad_cam(e, net, x, t):
    from captum.attr import LayerAttribution

    attr = e.attribute(x[0], target=t)
    return LayerAttribution.interpolate(attr, x[0].shape[-2:])


def _layer_conductance(e, net, x, t):
    return e.attribute(x[0], target=t, n_steps=6)


def _lig_lstm(e, net, x, t):
    from captum.attr import TokenReferenceBase

    ref = TokenReferenceBase(reference_token_idx=0)
    baselines = ref.generate_reference(x[0].shape[1], device=x[0].device).unsqueeze(0).expand_as(x[0])
    return e.attribute(x[0], baselines=baselines, target=t, n_steps=6, return_convergence_delta=True)


def _lig_embedding(e, net, x, t):
    return e.attribute(x[0], additional_forward_args=(x[1],), target=t, n_steps=5)


def _lig_conv_input(e, net, x, t):
    return e.attribute(x[0], target=t, n_steps=5, attribute_to_layer_input=True)


def _layer_activation(e, net, x, t):
    return e.attribute(x[0])


def _internal_influence(e, net, x, t):
    return e.attribute(x[0], target=t, n_steps=6)


def _layer_deeplift(e, net, x, t):
    return e.attribute(x[0], target=t)


def _layer_gradient_shap(e, net, x, t):
    import torch

    return e.attribute(x[0], baselines=torch.zeros(2, 3), n_samples=4, stdevs=0.05, target=t)


def _layer_ablation(e, net, x, t):
    return e.attribute(x[0], target=t)


def _neuron_conductance(e, net, x, t):
    return e.attribute(x[0], neuron_selector=1, target=t, n_steps=6)


def _neuron_gradient(e, net, x, t):
    return e.attribute(x[0], neuron_selector=2)


def _neuron_ig(e, net, x, t):
    return e.attribute(x[0], neuron_selector=3, n_steps=6)


def _neuron_deeplift(e, net, x, t):
    return e.attribute(x[0], neuron_selector=(0, 0, 0))


def _neuron_guided(e, net, x, t):
    return e.attribute(x[0], neuron_selector=(1, 0, 0))


def _interpretable_embedding_model():
    import torch
    from captum.attr import configure_interpretable_embedding_layer

    net = _embedding_model()
    ids1 = torch.randint(0, 30, (_B, 5))
    ids2 = torch.randint(0, 30, (_B, 5))
    configure_interpretable_embedding_layer(net, "embedding1")
    return net, (ids1, ids2), 3


def _ig_interpretable(e, net, x, t):
    import torch

    emb = net.embedding1.indices_to_embeddings(x[0])
    return e.attribute(emb, baselines=torch.zeros_like(emb), additional_forward_args=(x[1],),
                       target=t, n_steps=5)


# --- metrics --------------------------------------------------------------------------------------

def _noise_perturb(inputs):
    import torch

    noise = torch.randn_like(inputs) * 0.03
    return noise, inputs - noise


def _infidelity(e, net, x, t):
    from captum.metrics import infidelity

    attr = e.attribute(x[0], target=t, n_steps=5)
    return infidelity(net, _noise_perturb, x[0], attr, target=t, n_perturb_samples=4)


def _sensitivity(e, net, x, t):
    from captum.metrics import sensitivity_max

    return sensitivity_max(e.attribute, x[0], target=t, n_perturb_samples=3, perturb_radius=0.02)


# --- attacks and gates -----------------------------------------------------------------------------

def _attack_step():
    import torch
    import torch.nn.functional as F
    from torch import nn

    class AttackStep(nn.Module):
        """Eval: the adversarial inputs and the model's outputs on them; train: adversarial training
        (cross entropy on the clean and the perturbed batch)."""

        def __init__(self, net, attack, perturb, classes):
            super().__init__()
            self.net = net
            self.attack = attack
            self.perturb = perturb
            self.register_buffer("labels", torch.arange(_B) % classes)

        def forward(self, x):
            x_adv = self.perturb(self.attack, x, self.labels)
            if not self.training:
                return x_adv, self.net(x_adv)
            return F.cross_entropy(self.net(x), self.labels) + F.cross_entropy(self.net(x_adv), self.labels)

    return AttackStep


def _attack(model, build, perturb):
    def make(mode):
        net, x, classes = model()
        return _attack_step()(net, build(net), perturb, classes), (x,), {}

    return make


def _fgsm_build(net):
    from captum.robust import FGSM

    return FGSM(net, lower_bound=-3.0, upper_bound=3.0)


def _pgd_build(net):
    from captum.robust import PGD

    return PGD(net, torch_nn_cross_entropy(), lower_bound=-3.0, upper_bound=3.0)


def torch_nn_cross_entropy():
    from torch import nn

    return nn.CrossEntropyLoss(reduction="none")


def _fgsm(attack, x, y):
    return attack.perturb(x, epsilon=0.05, target=y)


def _fgsm_targeted_mask(attack, x, y):
    import torch

    mask = torch.ones_like(x)
    mask[..., :2] = 0
    return attack.perturb(x, epsilon=0.05, target=(y + 1) % 2, targeted=True, mask=mask)


def _pgd_linf(attack, x, y):
    return attack.perturb(x, radius=0.1, step_size=0.02, step_num=3, target=y, random_start=True)


def _pgd_l2(attack, x, y):
    return attack.perturb(x, radius=0.5, step_size=0.1, step_num=3, target=y, norm="L2")


def _gates(kind, masked):
    def make(mode):
        import torch
        import torch.nn.functional as F
        from torch import nn
        from captum.module import BinaryConcreteStochasticGates, GaussianStochasticGates

        net, x, classes = _cnn()
        if masked:  # one gate per quadrant
            gates = GaussianStochasticGates(4, mask=_quadrant_mask()[0], std=0.5)
        else:
            gates = BinaryConcreteStochasticGates(100)

        class GatedModel(nn.Module):
            def __init__(self):
                super().__init__()
                self.gates = gates
                self.net = net
                self.register_buffer("labels", torch.arange(_B) % classes)

            def forward(self, x):
                gated, reg = self.gates(x)
                out = self.net(gated)
                if not self.training:
                    return out, self.gates.get_gate_values()
                return F.cross_entropy(out, self.labels) + 0.01 * reg

        return GatedModel(), (x,), {}

    return make


def _interpretable_ig(mode):
    from captum.attr import IntegratedGradients

    net, x, classes = _interpretable_embedding_model()

    def net_inputs(inputs):
        return (net.embedding1.indices_to_embeddings(inputs[0]), inputs[1])

    step = _attr_step()(net, IntegratedGradients(net), _ig_interpretable, classes, net_inputs=net_inputs)
    return step, x, {}


def _embedding_inputs():
    import torch

    net = _embedding_model()
    return net, (torch.randint(0, 30, (_B, 5)), torch.randint(0, 30, (_B, 5))), 3


MODELS = {
    # primary, gradient
    "Saliency": _attribution(_cnn, _A("Saliency"), _saliency),
    "Saliency_signed": _attribution(_mlp, _A("Saliency"), _saliency_signed),
    "IntegratedGradients": _attribution(_cnn, _A("IntegratedGradients"), _ig_delta),
    "IntegratedGradients_trapezoid_batched": _attribution(_mlp, _A("IntegratedGradients"), _ig_trapezoid),
    "IntegratedGradients_interpretable_embedding": _interpretable_ig,
    "InputXGradient": _attribution(_mlp, _A("InputXGradient"), _plain),
    "DeepLift": _attribution(_cnn, _A("DeepLift"), _deeplift),
    "DeepLift_conv1d": _attribution(_cnn1d, _A("DeepLift"), _plain),
    "DeepLiftShap": _attribution(_cnn, _A("DeepLiftShap"), _deeplift_shap),
    "GradientShap": _attribution(_cnn, _A("GradientShap"), _gradient_shap),
    "GuidedBackprop": _attribution(_cnn, _A("GuidedBackprop"), _plain),
    "Deconvolution": _attribution(_cnn, _A("Deconvolution"), _plain),
    "GuidedGradCam": _attribution(_cnn, _L("GuidedGradCam", "conv2"), _plain),
    "LRP": _attribution(_lrp_mlp, _A("LRP"), _lrp, detach=True),
    # primary, perturbation
    "Occlusion": _attribution(_cnn, _A("Occlusion"), _occlusion),
    "FeatureAblation": _attribution(_cnn, _A("FeatureAblation"), _feature_ablation),
    "FeaturePermutation": _attribution(_mlp, _A("FeaturePermutation"), _plain),
    "ShapleyValueSampling": _attribution(_cnn, _A("ShapleyValueSampling"), _shapley_sampling),
    "ShapleyValues": _attribution(_mlp, _A("ShapleyValues"), _plain),
    "Lime": _attribution(_mlp, _A("Lime"), _lime),
    "KernelShap": _attribution(_mlp, _A("KernelShap"), _lime),
    # noise tunnel
    "NoiseTunnel_smoothgrad_IG": _attribution(
        _cnn, lambda net: _captum("captum.attr.NoiseTunnel")(_captum("captum.attr.IntegratedGradients")(net)),
        _nt_ig),
    "NoiseTunnel_vargrad_Saliency": _attribution(
        _mlp, lambda net: _captum("captum.attr.NoiseTunnel")(_captum("captum.attr.Saliency")(net)), _nt_vargrad),
    "NoiseTunnel_smoothgrad_sq_GradientShap": _attribution(
        _cnn, lambda net: _captum("captum.attr.NoiseTunnel")(_captum("captum.attr.GradientShap")(net)),
        _nt_gradshap),
    # layer
    "LayerGradCam": _attribution(_cnn, _L("LayerGradCam", "conv2"), _grad_cam),
    "LayerConductance": _attribution(_mlp, _L("LayerConductance", "linear1"), _layer_conductance),
    "LayerIntegratedGradients_lstm": _attribution(
        _lstm_classifier, _L("LayerIntegratedGradients", "embedding"), _lig_lstm),
    "LayerIntegratedGradients_embedding": _attribution(
        _embedding_inputs, _L("LayerIntegratedGradients", "embedding1"), _lig_embedding),
    "LayerIntegratedGradients_conv_input": _attribution(
        _cnn, _L("LayerIntegratedGradients", "conv2"), _lig_conv_input),
    "LayerActivation": _attribution(_cnn, _L("LayerActivation", "conv1"), _layer_activation),
    "LayerGradientXActivation": _attribution(_mlp, _L("LayerGradientXActivation", "linear1"), _plain),
    "InternalInfluence": _attribution(_mlp, _L("InternalInfluence", "linear1"), _internal_influence),
    "LayerDeepLift": _attribution(_cnn, _L("LayerDeepLift", "conv2"), _layer_deeplift),
    "LayerGradientShap": _attribution(_mlp, _L("LayerGradientShap", "linear1"), _layer_gradient_shap),
    "LayerFeatureAblation": _attribution(_cnn, _L("LayerFeatureAblation", "conv2"), _layer_ablation),
    # neuron
    "NeuronConductance": _attribution(_mlp, _L("NeuronConductance", "linear1"), _neuron_conductance),
    "NeuronGradient": _attribution(_mlp, _L("NeuronGradient", "linear1"), _neuron_gradient),
    "NeuronIntegratedGradients": _attribution(_mlp, _L("NeuronIntegratedGradients", "linear1"), _neuron_ig),
    "NeuronDeepLift": _attribution(_cnn, _L("NeuronDeepLift", "conv2"), _neuron_deeplift),
    "NeuronGuidedBackprop": _attribution(_cnn, _L("NeuronGuidedBackprop", "conv2"), _neuron_guided),
    # metrics
    "infidelity": _attribution(_cnn, _A("IntegratedGradients"), _infidelity),
    "sensitivity_max": _attribution(_cnn, _A("Saliency"), _sensitivity),
    # robust
    "FGSM": _attack(_cnn, _fgsm_build, _fgsm),
    "FGSM_targeted_mask": _attack(_mlp, _fgsm_build, _fgsm_targeted_mask),
    "PGD_Linf": _attack(_cnn, _pgd_build, _pgd_linf),
    "PGD_L2": _attack(_mlp, _pgd_build, _pgd_l2),
    # module
    "BinaryConcreteStochasticGates": _gates("binary", masked=False),
    "GaussianStochasticGates_mask": _gates("gaussian", masked=True),
}
