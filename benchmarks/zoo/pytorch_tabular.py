"""PyTorch Tabular 1.2.0: its supervised models (and the denoising auto-encoder SSL model), each built
straight from its config classes as ``TabularModel._prepare_model`` builds it (``DataConfig`` +
the model's ``ModelConfig`` + ``TrainerConfig`` + ``OptimizerConfig`` merged with ``OmegaConf``,
and an ``InferredConfig`` written by hand where the datamodule would infer it from a DataFrame:
4 continuous columns, 2 categorical columns of cardinality 4 and 6 (3 and 5 values plus the
unknown slot), embedding dims ``min(50, (card + 1) // 2)``), tiny sizes, random weights, no
download. Batch of 8, fed as the library's dataloader yields it: a dict ``{"continuous": float
(B, 4), "categorical": long (B, 2), "target": (B, 1)}`` (long class ids for classification,
float for regression).

Models: CategoryEmbedding (classification; regression with ``target_range`` and two targets;
continuous-only with batch-normed input), FTTransformer (classification; regression), TabTransformer
(classification; regression), TabNet (classification; regression), GANDALF (classification;
regression), NODE (classification; regression; data-aware initialised by one ``no_grad`` forward
as ``data_aware_initialization`` does in ``fit``), AutoInt (classification; regression with
``deep_layers`` and ``attention_pooling``), DANet (classification), GATE
(classification; regression with non-chained trees), MDN (CategoryEmbedding backbone; FTTransformer
backbone), DenoisingAutoEncoder (SSL, CategoryEmbedding encoder / decoder).

Eval: ``model(batch)`` (the output dict). Train: ``model.training_step(batch, 0)``, the library's
own loss and metric code that Lightning's fit loop runs (``calculate_loss`` with the
regularisation terms, ``calculate_metrics`` with torchmetrics; MDN's NLL; the DAE's
reconstruction + mask losses); outside a ``Trainer`` Lightning's ``self.log`` only warns and
returns, as it would in a user's compiled step without a trainer.

    pip install --no-deps pytorch_tabular==1.2.0
    pip install --no-deps omegaconf==2.3.0
    pip install --no-deps antlr4-python3-runtime==4.9.3

Everything else it imports (pytorch-lightning 2.6.6, torchmetrics, pandas, numpy, scikit-learn,
scikit-base, einops, rich, scipy) was already installed. omegaconf 2.3.0 pins antlr4 4.9.*; the
4.13.2 that was there made ``import omegaconf`` fail ("Could not deserialize ATN with version 3").
Nothing stubbed.

Left out: ``TabularModel`` itself (fit / predict / datamodule: pandas and a Lightning Trainer
around the same modules), ``StackingModel`` and the tuner / sweep utilities (compose the same
backbones), the optimizers and the Lightning callbacks.
"""

PACKAGE = "pytorch_tabular"

mean_loss_module = None  # adapter.mean_loss_module, set by ZooSuite

_B = 8
_NCONT = 4
_CARD = (4, 6)  # categorical cardinalities (values + unknown)
_NCLS = 3


def _configs(model_config, task, n_targets=1, cont_only=False, **data_kw):
    from omegaconf import OmegaConf
    from pytorch_tabular.config import DataConfig, InferredConfig, OptimizerConfig, TrainerConfig

    cont = [f"c{i}" for i in range(_NCONT)]
    cat = [] if cont_only else [f"k{i}" for i in range(len(_CARD))]
    target = [f"y{i}" for i in range(n_targets)]
    data_config = DataConfig(target=target, continuous_cols=cont, categorical_cols=cat, **data_kw)
    trainer_config = TrainerConfig(batch_size=_B, max_epochs=1, accelerator="cpu")
    optimizer_config = OptimizerConfig()
    config = OmegaConf.merge(
        *(
            OmegaConf.to_container(OmegaConf.structured(c))
            for c in (data_config, model_config, trainer_config, optimizer_config)
        )
    )
    card = [] if cont_only else list(_CARD)
    if task == "classification":
        out_card = [_NCLS] * n_targets
        out_dim = sum(out_card)
    else:
        out_card = None
        out_dim = n_targets
    inferred = InferredConfig(
        categorical_dim=len(card),
        continuous_dim=_NCONT,
        output_dim=out_dim,
        output_cardinality=out_card,
        categorical_cardinality=card,
        embedding_dims=[(x, min(50, (x + 1) // 2)) for x in card],
    )
    return config, OmegaConf.structured(inferred)


def _batch(task, n_targets=1, cont_only=False, b=_B):
    import torch

    batch = {"continuous": torch.randn(b, _NCONT)}
    if cont_only:
        batch["categorical"] = torch.empty(b, 0, dtype=torch.long)
    else:
        batch["categorical"] = torch.stack([torch.randint(0, c, (b,)) for c in _CARD], 1)
    if task == "classification":
        batch["target"] = torch.randint(0, _NCLS, (b, n_targets))
    else:
        batch["target"] = torch.randn(b, n_targets)
    return batch


def _train_step():
    import torch

    class TrainingStep(torch.nn.Module):
        """What a user's compiled Lightning step runs: ``model.training_step(batch, batch_idx)``."""

        def __init__(self, model):
            super().__init__()
            self.model = model

        def forward(self, batch):
            return self.model.training_step(batch, 0)

    return TrainingStep


def _make(mode, model_cls, model_config, task, n_targets=1, cont_only=False, data_aware_init=False,
          data_kw=None):
    import torch

    config, inferred = _configs(model_config, task, n_targets, cont_only, **(data_kw or {}))
    model = model_cls(config, inferred_config=inferred)
    if data_aware_init:  # NODE: one big no_grad forward, as ``fit`` does before training
        with torch.no_grad():
            model(_batch(task, n_targets, cont_only, b=64))
    batch = _batch(task, n_targets, cont_only)
    if mode == "train":
        return _train_step()(model), (batch,), {}
    return model, (batch,), {}


def _reg_kw():
    return {"target_range": [(-2.0, 2.0)]}


# ---- factories ------------------------------------------------------------------------------


def _ce_cls(mode):
    from pytorch_tabular.models import CategoryEmbeddingModel, CategoryEmbeddingModelConfig

    cfg = CategoryEmbeddingModelConfig(task="classification", layers="16-8", dropout=0.1,
                                       use_batch_norm=True)
    return _make(mode, CategoryEmbeddingModel, cfg, "classification")


def _ce_reg(mode):
    from pytorch_tabular.models import CategoryEmbeddingModel, CategoryEmbeddingModelConfig

    cfg = CategoryEmbeddingModelConfig(task="regression", layers="16-8",
                                       target_range=[(-2.0, 2.0), (0.0, 1.0)],
                                       head_config={"layers": "8"})
    return _make(mode, CategoryEmbeddingModel, cfg, "regression", n_targets=2)


def _ce_cont(mode):
    from pytorch_tabular.models import CategoryEmbeddingModel, CategoryEmbeddingModelConfig

    cfg = CategoryEmbeddingModelConfig(task="regression", layers="16", batch_norm_continuous_input=True)
    return _make(mode, CategoryEmbeddingModel, cfg, "regression", cont_only=True)


def _ft_cls(mode):
    from pytorch_tabular.models import FTTransformerConfig, FTTransformerModel

    cfg = FTTransformerConfig(task="classification", input_embed_dim=8, num_heads=2, num_attn_blocks=2)
    return _make(mode, FTTransformerModel, cfg, "classification")


def _ft_reg(mode):
    from pytorch_tabular.models import FTTransformerConfig, FTTransformerModel

    cfg = FTTransformerConfig(task="regression", input_embed_dim=8, num_heads=2, num_attn_blocks=1,
                              share_embedding=True, transformer_activation="ReLU",
                              attn_feature_importance=False, **_reg_kw())
    return _make(mode, FTTransformerModel, cfg, "regression")


def _tt_cls(mode):
    from pytorch_tabular.models import TabTransformerConfig, TabTransformerModel

    cfg = TabTransformerConfig(task="classification", input_embed_dim=8, num_heads=2, num_attn_blocks=2)
    return _make(mode, TabTransformerModel, cfg, "classification")


def _tt_reg(mode):
    from pytorch_tabular.models import TabTransformerConfig, TabTransformerModel

    cfg = TabTransformerConfig(task="regression", input_embed_dim=8, num_heads=2, num_attn_blocks=1,
                               share_embedding=True, share_embedding_strategy="add")
    return _make(mode, TabTransformerModel, cfg, "regression")


def _tabnet_cls(mode):
    from pytorch_tabular.models import TabNetModel, TabNetModelConfig

    cfg = TabNetModelConfig(task="classification", n_d=4, n_a=4, n_steps=2)
    return _make(mode, TabNetModel, cfg, "classification")


def _tabnet_reg(mode):
    from pytorch_tabular.models import TabNetModel, TabNetModelConfig

    cfg = TabNetModelConfig(task="regression", n_d=4, n_a=4, n_steps=2, mask_type="entmax",
                            grouped_features=[["c0", "c1"], ["k0", "k1"]])
    return _make(mode, TabNetModel, cfg, "regression")


def _gandalf_cls(mode):
    from pytorch_tabular.models import GANDALFConfig, GANDALFModel

    cfg = GANDALFConfig(task="classification", gflu_stages=2, gflu_dropout=0.1)
    return _make(mode, GANDALFModel, cfg, "classification")


def _gandalf_reg(mode):
    from pytorch_tabular.models import GANDALFConfig, GANDALFModel

    cfg = GANDALFConfig(task="regression", gflu_stages=2, learnable_sparsity=False, **_reg_kw())
    return _make(mode, GANDALFModel, cfg, "regression")


def _node_cls(mode):
    from pytorch_tabular.models import NODEModel, NodeConfig

    cfg = NodeConfig(task="classification", num_layers=2, num_trees=8, depth=3)
    return _make(mode, NODEModel, cfg, "classification", data_aware_init=True)


def _node_reg(mode):
    from pytorch_tabular.models import NODEModel, NodeConfig

    cfg = NodeConfig(task="regression", num_layers=1, num_trees=8, depth=2, choice_function="sparsemax",
                     bin_function="sparsemoid", additional_tree_output_dim=2)
    return _make(mode, NODEModel, cfg, "regression", data_aware_init=True)


def _autoint_cls(mode):
    from pytorch_tabular.models import AutoIntConfig, AutoIntModel

    cfg = AutoIntConfig(task="classification", attn_embed_dim=8, num_heads=2, num_attn_blocks=2,
                        embedding_dim=8)
    return _make(mode, AutoIntModel, cfg, "classification")


def _autoint_reg(mode):
    from pytorch_tabular.models import AutoIntConfig, AutoIntModel

    cfg = AutoIntConfig(task="regression", attn_embed_dim=8, num_heads=2, num_attn_blocks=1,
                        embedding_dim=8, deep_layers=True, layers="16-8", attention_pooling=True)
    return _make(mode, AutoIntModel, cfg, "regression")


def _danet_cls(mode):
    from pytorch_tabular.models import DANetConfig, DANetModel

    cfg = DANetConfig(task="classification", n_layers=2, abstlay_dim_1=8, k=2, virtual_batch_size=4)
    return _make(mode, DANetModel, cfg, "classification")


def _gate_cls(mode):
    from pytorch_tabular.models import GatedAdditiveTreeEnsembleConfig, GatedAdditiveTreeEnsembleModel

    cfg = GatedAdditiveTreeEnsembleConfig(task="classification", gflu_stages=2, num_trees=3, tree_depth=2)
    return _make(mode, GatedAdditiveTreeEnsembleModel, cfg, "classification")


def _gate_reg(mode):
    from pytorch_tabular.models import GatedAdditiveTreeEnsembleConfig, GatedAdditiveTreeEnsembleModel

    cfg = GatedAdditiveTreeEnsembleConfig(task="regression", gflu_stages=1, num_trees=2, tree_depth=2,
                                          chain_trees=False, tree_wise_attention=False,
                                          share_head_weights=False, binning_activation="entmoid",
                                          feature_mask_function="sparsemax", **_reg_kw())
    return _make(mode, GatedAdditiveTreeEnsembleModel, cfg, "regression")


def _mdn_ce(mode):
    from pytorch_tabular.models import MDNConfig, MDNModel

    cfg = MDNConfig(task="regression", backbone_config_class="CategoryEmbeddingModelConfig",
                    backbone_config_params={"task": "backbone", "layers": "16-8"},
                    head_config={"num_gaussian": 2})
    return _make(mode, MDNModel, cfg, "regression")


def _mdn_ft(mode):
    from pytorch_tabular.models import MDNConfig, MDNModel

    cfg = MDNConfig(task="regression", backbone_config_class="FTTransformerConfig",
                    backbone_config_params={"task": "backbone", "input_embed_dim": 8, "num_heads": 2,
                                            "num_attn_blocks": 1},
                    head_config={"num_gaussian": 2, "weight_regularization": 2, "speedup_training": True})
    return _make(mode, MDNModel, cfg, "regression")


def _dae(mode):
    import torch
    from pytorch_tabular.models import CategoryEmbeddingModelConfig
    from pytorch_tabular.ssl_models import DenoisingAutoEncoderConfig, DenoisingAutoEncoderModel

    enc = CategoryEmbeddingModelConfig(task="backbone", layers="16-8")
    dec = CategoryEmbeddingModelConfig(task="backbone", layers="8-16")
    cfg = DenoisingAutoEncoderConfig(encoder_config=enc, decoder_config=dec, noise_probabilities={"c0": 0.5},
                                     default_noise_probability=0.7)
    config, inferred = _configs(cfg, "ssl")
    model = DenoisingAutoEncoderModel(config, inferred_config=inferred)
    batch = _batch("regression")
    if mode == "train":
        return _train_step()(model), (batch,), {}
    return model, (batch,), {}


MODELS = {
    "CategoryEmbedding-cls": _ce_cls,
    "CategoryEmbedding-reg2": _ce_reg,
    "CategoryEmbedding-cont": _ce_cont,
    "FTTransformer-cls": _ft_cls,
    "FTTransformer-reg": _ft_reg,
    "TabTransformer-cls": _tt_cls,
    "TabTransformer-reg": _tt_reg,
    "TabNet-cls": _tabnet_cls,
    "TabNet-reg": _tabnet_reg,
    "GANDALF-cls": _gandalf_cls,
    "GANDALF-reg": _gandalf_reg,
    "NODE-cls": _node_cls,
    "NODE-reg": _node_reg,
    "AutoInt-cls": _autoint_cls,
    "AutoInt-reg": _autoint_reg,
    "DANet-cls": _danet_cls,
    "GATE-cls": _gate_cls,
    "GATE-reg": _gate_reg,
    "MDN-CategoryEmbedding": _mdn_ce,
    "MDN-FTTransformer": _mdn_ft,
    "DenoisingAutoEncoder": _dae,
}
