"""PyKEEN 1.11.1: knowledge-graph embedding models as its README, docs, examples, reproducibility
configs (``pykeen/experiments``) and tests use them, tiny (embedding dims 8-12), random weights,
no download. The data is what pykeen's docs and tests use: the Nations dataset (14 entities, 55
relations, 1,592 training triples; shipped inside the wheel, read from its own files, never
downloaded), with ``create_inverse_triples=True`` where the model or its config asks for it;
NationsLiteral (Nations with its numeric literals, also shipped) for the literal models; the
tests' ``pykeen.datasets.mocks.create_inductive_dataset`` (13 training / 5 inference entities, 7
relations) for the inductive models; the docs examples' ``generate_triples_factory(15, 3, 100)``
for their representation examples; and a hand-written knowledge graph of labelled triples (cities,
countries, continents, languages) through ``TriplesFactory.from_labeled_triples`` for the
prediction workflow (``predict_target`` / ``predict_triples`` with labels).

- the model classes, configured as their experiment configs do (``TransE``, ``TransH`` with the
  NormLimit and Orthogonality regularizers, ``TransR``, ``TransD``, ``DistMult``, ``ComplEx``,
  ``RotatE``, ``RESCAL``, ``ERMLP``, ``ConvE``, ``ConvKB``, ``TuckER`` with label smoothing,
  ``HolE``, ``SimplE`` with clamped scores and the PowerSum regularizer, ``QuatE`` with Lp
  regularizers, ``MuRE``, ``BoxE``, ``KG2E``, ``RGCN`` (the Schlichtkrull config: block
  decomposition, inverse-in-degree weighting, the ``schlichtkrull`` subgraph sampler), ``NodePiece``
  (anchors + relations, RotatE interaction)) or as the tests / defaults do (``TransF``, ``TorusE``,
  ``SE``, ``UM``, ``DistMA``, ``ERMLPE``, ``ProjE``, ``PairRE``, ``CrossE``, ``NTN``, ``CP``,
  ``AutoSF``, ``CompGCN``, ``KG2E`` with KL similarity, ``RGCN`` with bases, ``NodePiece`` with
  relation tokens and with an MLP aggregation, ``CooccurrenceFilteredModel`` over RotatE), the
  literal models (``DistMultLiteral``, ``ComplExLiteral``, LCWA as in test_multimodal.py), the
  inductive ``InductiveNodePiece`` / ``InductiveNodePieceGNN`` (the inductive-LP tutorial: NSSA,
  ``mode="training"`` in the loop, ``mode="testing"`` at inference);
- variants users set: ComplEx under the symmetric LCWA loop with a cubic (N3) Lp regularizer,
  MuRE under LCWA with relation loss weights (docs/examples/training/loss_weights.py), TransE
  under LCWA with inverse triples and cross-entropy;
- ``ERModel`` composed by hand (docs: models / representations tutorials and examples): DistMult
  with embedding dropout (monte_carlo_embedding.py), ``make_model`` with the interactions that have
  no model class (``LineaRE``, ``TripleRE``, ``Transformer``, ``MultiLinearTucker``), and the
  representation examples: ``LowRankRepresentation`` (softmax mixture), ``EmbeddingBag``,
  ``MLPTransformedRepresentation``, ``CombinedRepresentation`` (concat-projection of features and
  an embedding), ``FeatureEnrichedEmbedding``, ``TransformedRepresentation`` over frozen
  random-walk positional encodings, ``BackfillRepresentation`` and the PyG message-passing
  representations (simple GCN, typed RGCN, featurized GAT) via torch_geometric (where an example
  does not run as printed in 1.11.1, the fix a user makes: relation embeddings of the entity
  representation's ``shape``, ``shape=`` for the embedding bag, the projection's ``input_dims`` and
  the feature tensor as a frozen ``Embedding.from_pretrained`` for the combination);
- the evaluation-only baselines ``MarginalDistributionBaseline`` and ``SoftInverseTripleBaseline``
  (``score_h`` / ``score_t`` as test_baselines.py calls them: ``predict`` asks the model for its
  device, which a model without parameters cannot infer);
- the prediction and evaluation workflows: ``predict_target`` and ``predict_triples`` (the
  prediction docs, on labels, then ``.df`` / ``.process(...).df``), ``predict_all`` with ``k``,
  ``RankBasedEvaluator.evaluate`` with filter triples (beyond_pipeline.py, conv_e.py).

Eval: what the rank-based evaluator computes per batch of test triples: ``model.predict(hrt_batch,
target=..., slice_size=None, mode=...)`` for the head and tail targets (1-N scoring through
``score_h`` / ``score_t``, the inverse-relation path for models trained with inverse triples,
sigmoid where ``predict_with_sigmoid``); the workflow entries return their dataframes /
``MetricResults``. Train: one training step as pykeen's training loops compute it: the loop built
as users build it (``SLCWATrainingLoop`` with the config's negative sampler, ``LCWATrainingLoop``,
``SymmetricLCWATrainingLoop``), one batch of 16 from its own data loader (shuffled, negatives
sampled there, as in ``TrainingLoop._train``), and the forward is ``loop._process_batch(batch, 0,
16, label_smoothing)``: ``score_hrt`` on positives and negatives then
``loss.process_slcwa_scores``, or ``score_t`` then ``loss.process_lcwa_scores``, plus
``model.collect_regularization_term()`` (what ``_forward_pass`` back-propagates). The workflow
entries' train runs such a step and then the prediction / evaluation on the updated model, as the
pipeline's evaluation callbacks do (``TrainThen``: the loss is returned). The baselines have no
training (eval only: their "train" raises NotImplementedError).

    pip install --no-deps pykeen==1.11.1 class-resolver==0.8.2 docdata==0.0.5 pystow==0.10.3 \
        more-click==0.1.3 torch-ppr==0.0.8 torch-max-mem==0.1.6 more-itertools==11.2.1

(numpy, scipy, pandas, scikit-learn, click, tqdm, requests, tabulate, pyyaml, typing-extensions
and torch_geometric, for the pyg entries, are installed already; pykeen's optuna (HPO),
dataclasses-json, click-default-group (its CLI) are never imported on these paths.) Nothing
stubbed: ``pykeen.nn.vision`` guards its torchvision import and is never used. Importing pykeen
creates empty folders under ``~/.data/pykeen`` (pystow's home); nothing is downloaded or cached. Stop 45: measured
first as it came, before any rule looked at it.

Left out: text-based representations (``TextRepresentation``, ``LabelBasedInitializer``, the
``partition.py`` example; they load a pre-trained transformer from a hub), Wikidata text / visual
representations (downloads, torchvision), every dataset but the shipped Nations (downloads), HPO
and ablation (optuna, many full trainings), the PyTorch Lightning wrapper, checkpoints and
``pipeline()`` itself (full trainings with file output; the loops' steps above are its core),
``FixedModel`` (a test fixture), and ``DistMultLiteralGated``: 1.11.1 passes
``entity_embedding_dim=`` to a ``GatedCombination`` that does not take it (TypeError when built;
its tests skip it).

Eager check on torch 2.13 CPU: all 66 models build and run (train: ``.backward()`` on the loss),
except the two baselines' train (eval only).
"""

import functools

PACKAGE = "pykeen"

_B = 16  # training / evaluation batch
_D = 8  # embedding dimension
mean_loss_module = classifier_loss_module = stub_modules = None  # adapter.py's, set by ZooSuite


def warm_up():
    import torch  # noqa: F401

    import pykeen.datasets  # noqa: F401
    import pykeen.evaluation  # noqa: F401
    import pykeen.models  # noqa: F401
    import pykeen.predict  # noqa: F401
    import pykeen.training  # noqa: F401


# --- data -----------------------------------------------------------------------------------

_LABELED = [  # a small hand-written KG of labelled triples (prediction docs: labels in, labels out)
    ("berlin", "capital_of", "germany"), ("paris", "capital_of", "france"), ("rome", "capital_of", "italy"),
    ("madrid", "capital_of", "spain"), ("lisbon", "capital_of", "portugal"), ("vienna", "capital_of", "austria"),
    ("munich", "located_in", "germany"), ("lyon", "located_in", "france"), ("milan", "located_in", "italy"),
    ("porto", "located_in", "portugal"), ("barcelona", "located_in", "spain"), ("graz", "located_in", "austria"),
    ("germany", "part_of", "europe"), ("france", "part_of", "europe"), ("italy", "part_of", "europe"),
    ("spain", "part_of", "europe"), ("portugal", "part_of", "europe"), ("austria", "part_of", "europe"),
    ("germany", "borders", "france"), ("france", "borders", "germany"), ("france", "borders", "spain"),
    ("spain", "borders", "france"), ("spain", "borders", "portugal"), ("portugal", "borders", "spain"),
    ("germany", "borders", "austria"), ("austria", "borders", "germany"), ("italy", "borders", "austria"),
    ("austria", "borders", "italy"), ("italy", "borders", "france"), ("france", "borders", "italy"),
    ("germany", "speaks", "german"), ("austria", "speaks", "german"), ("france", "speaks", "french"),
    ("italy", "speaks", "italian"), ("spain", "speaks", "spanish"), ("portugal", "speaks", "portuguese"),
]


@functools.cache
def _data(kind="nations", inverse=False):
    """(training factory, evaluation triples (16, 3), inductive mode for the loop, for inference, extra
    model kwargs)."""
    import numpy as np

    if kind == "nations":
        from pykeen.datasets import Nations

        dataset = Nations(create_inverse_triples=inverse)
        return dataset.training, dataset.testing.mapped_triples[:_B], None, None, {}
    if kind == "literal":
        from pykeen.datasets.nations import NationsLiteral

        dataset = NationsLiteral(create_inverse_triples=inverse)
        return dataset.training, dataset.testing.mapped_triples[:_B], None, None, {}
    if kind == "inductive":  # the tests' InductiveModelTestCase numbers
        from pykeen.datasets.mocks import create_inductive_dataset

        dataset = create_inductive_dataset(
            num_relations=7, num_entities_transductive=13, num_entities_inductive=5, num_triples_training=33,
            num_triples_inference=31, num_triples_testing=37, create_inverse_triples=inverse)
        return (dataset.transductive_training, dataset.inductive_testing.mapped_triples[:_B], "training", "testing",
                dict(inference_factory=dataset.inductive_inference))
    if kind == "generated":  # the representation examples' mock triples
        from pykeen.triples.generation import generate_triples_factory

        factory = generate_triples_factory(15, 3, 100, create_inverse_triples=inverse)
        return factory, factory.mapped_triples[:_B], None, None, {}
    if kind == "labeled":
        from pykeen.triples import TriplesFactory

        factory = TriplesFactory.from_labeled_triples(np.array(_LABELED, dtype=str), create_inverse_triples=inverse)
        return factory, factory.mapped_triples[:_B], None, None, {}
    raise ValueError(kind)


# --- the user-side wrappers ------------------------------------------------------------------

@functools.cache
def _wrappers():
    import torch

    class Rank(torch.nn.Module):
        """The rank-based evaluator's scoring of one batch: ``model.predict`` for heads and tails."""

        def __init__(self, model, mode=None, targets=("head", "tail")):
            super().__init__()
            self.model, self.mode, self.targets = model, mode, targets

        def forward(self, hrt_batch):
            return tuple(self.model.predict(hrt_batch=hrt_batch, target=target, slice_size=None, mode=self.mode)
                         for target in self.targets)

    class TrainStep(torch.nn.Module):
        """One training step's loss: ``loop._process_batch`` (what ``_forward_pass`` back-propagates)."""

        def __init__(self, loop, label_smoothing=0.0):
            super().__init__()
            self.model = loop.model
            object.__setattr__(self, "loop", loop)  # not a module: the loop holds model, loss, optimizer
            self.label_smoothing = label_smoothing

        def forward(self, batch):
            size = self.loop._get_batch_size(batch)
            return self.loop._process_batch(batch=batch, start=0, stop=size, label_smoothing=self.label_smoothing,
                                            slice_size=None)

    class TrainThen(torch.nn.Module):
        """A training step, then a prediction / evaluation on the updated model (as the pipeline's
        evaluation callbacks run one during training); returns the loss."""

        def __init__(self, step, after):
            super().__init__()
            self.step = step
            self.after = after

        def forward(self, batch):
            loss = self.step(batch)
            self.after()
            return loss

    class HeadTail(torch.nn.Module):
        """test_baselines.py: ``score_h`` / ``score_t`` of an evaluation-only model (``predict`` needs a
        device, which a model with no parameters cannot infer)."""

        def __init__(self, model):
            super().__init__()
            self.model = model

        def forward(self, hrt_batch):
            return self.model.score_h(rt_batch=hrt_batch[:, 1:]), self.model.score_t(hr_batch=hrt_batch[:, :2])

    return Rank, TrainStep, TrainThen, HeadTail


def _loop_and_batch(model, factory, loop="slcwa", loop_mode=None, sampler=None, **loop_kwargs):
    """The training loop as users build it and one batch of 16 from its own data loader."""
    from pykeen.training import training_loop_resolver

    loop = training_loop_resolver.make(loop, model=model, triples_factory=factory, mode=loop_mode, **loop_kwargs)
    loader = loop._create_training_data_loader(factory, batch_size=_B, drop_last=False, num_workers=0,
                                               pin_memory=False, shuffle=True, sampler=sampler)
    return loop, next(iter(loader))


def _run(model, mode, data, loop="slcwa", label_smoothing=0.0, sampler=None, **loop_kwargs):
    factory, eval_triples, loop_mode, eval_mode, _ = data
    Rank, TrainStep = _wrappers()[:2]
    if mode == "train":
        loop, batch = _loop_and_batch(model, factory, loop, loop_mode, sampler, **loop_kwargs)
        return TrainStep(loop, label_smoothing), (batch,), {}
    return Rank(model, mode=eval_mode), (eval_triples,), {}


def _kge(cls, data="nations", inverse=False, loop="slcwa", label_smoothing=0.0, sampler=None, loop_kwargs=None,
         **model_kwargs):
    """A model class from ``pykeen.models`` built on ``data`` with ``model_kwargs`` (loss, regularizer, ...)."""

    def make(mode):
        import pykeen.models

        d = _data(data, inverse)
        model = getattr(pykeen.models, cls)(triples_factory=d[0], **d[4], **model_kwargs)
        return _run(model, mode, d, loop, label_smoothing, sampler, **(loop_kwargs or {}))

    return make


def _custom(build, data="nations", inverse=False, loop="slcwa", **loop_kwargs):
    """An ``ERModel`` composed by hand: ``build(factory)`` returns it."""

    def make(mode):
        d = _data(data, inverse)
        return _run(build(d[0]), mode, d, loop, **loop_kwargs)

    return make


# --- hand-composed ERModels (docs examples) --------------------------------------------------

def _dropout_distmult(factory):  # docs/examples/nn/representation/monte_carlo_embedding.py
    from pykeen.models import ERModel

    return ERModel(triples_factory=factory, interaction="distmult",
                   entity_representations_kwargs=dict(embedding_dim=_D, dropout=0.1),
                   relation_representations_kwargs=dict(embedding_dim=_D, dropout=0.1))


def _make_model(interaction, dimensions, **interaction_kwargs):
    def build(factory):
        from pykeen.models import make_model

        return make_model(dimensions=dimensions, interaction=interaction, interaction_kwargs=interaction_kwargs or None,
                          triples_factory=factory)

    return build


def _low_rank(factory):  # low_rank_mixture.py
    from pykeen.models import ERModel
    from pykeen.nn import LowRankRepresentation

    relations = LowRankRepresentation(max_id=factory.num_relations, shape=_D, num_bases=3,
                                      weight_kwargs=dict(normalizer="softmax"))
    return ERModel(triples_factory=factory, interaction="distmult", entity_representations_kwargs=dict(shape=_D),
                   relation_representations=relations)


def _embedding_bag(factory):  # embedding_bag.py
    import torch
    from pykeen.models import ERModel
    from pykeen.nn import Embedding, EmbeddingBagRepresentation

    features = torch.rand(factory.num_entities, _D) < 0.5
    entities = EmbeddingBagRepresentation.from_iter((list(fingerprint.nonzero()) for fingerprint in features),
                                                    shape=_D)
    relations = Embedding(max_id=factory.num_relations, shape=entities.shape)
    return ERModel(triples_factory=factory, interaction="DistMult", entity_representations=entities,
                   relation_representations=relations)


def _mlp_transformed(factory):  # mlp_transformation.py
    import torch
    from pykeen.models import ERModel
    from pykeen.nn import Embedding, MLPTransformedRepresentation

    base = Embedding.from_pretrained(torch.rand(factory.num_entities, 32))
    entities = MLPTransformedRepresentation(base=base, output_dim=_D)
    relations = Embedding(max_id=factory.num_relations, shape=entities.shape)
    return ERModel(triples_factory=factory, interaction="DistMult", entity_representations=entities,
                   relation_representations=relations)


def _combined(factory):  # combination.py
    import torch
    from pykeen.models import ERModel
    from pykeen.nn import CombinedRepresentation, ConcatProjectionCombination, Embedding

    features = Embedding.from_pretrained(torch.rand(factory.num_entities, 12), trainable=False)
    embedding = Embedding(max_id=factory.num_entities, shape=16)
    entities = CombinedRepresentation(max_id=factory.num_entities, base=[embedding, features],
                                      combination=ConcatProjectionCombination,
                                      combination_kwargs=dict(input_dims=[16, 12], output_dim=_D))
    relations = Embedding(max_id=factory.num_relations, embedding_dim=_D)
    return ERModel(triples_factory=factory, interaction="DistMult", entity_representations=entities,
                   relation_representations=relations)


def _feature_enriched(factory):  # feature_enriched_embedding.py
    import torch
    from pykeen.models import ERModel
    from pykeen.nn import Embedding, FeatureEnrichedEmbedding

    entities = FeatureEnrichedEmbedding(torch.rand(factory.num_entities, _D))
    relations = Embedding(max_id=factory.num_relations, shape=entities.shape)  # (static + learned: 2 * _D)
    return ERModel(triples_factory=factory, interaction="DistMult", entity_representations=entities,
                   relation_representations=relations)


def _transformed_rwpe(factory):  # transformed.py: an MLP over frozen random-walk positional encodings
    from torch import nn
    from pykeen.models import ERModel
    from pykeen.nn import TransformedRepresentation, init

    initializer = init.RandomWalkPositionalEncodingInitializer(triples_factory=factory, dim=_D + 1)
    mlp = nn.Sequential(nn.Linear(_D, 16), nn.ReLU(), nn.Linear(16, _D))
    entities = TransformedRepresentation(transformation=mlp, base_kwargs=dict(
        max_id=factory.num_entities, shape=(_D,), initializer=initializer, trainable=False))
    return ERModel(triples_factory=factory, interaction="distmult", entity_representations=entities,
                   relation_representations_kwargs=dict(shape=_D))


def _backfill(factory):  # backfill.py: frozen "pretrained" vectors for 4 known entities, new ones for the rest
    import torch
    from pykeen.models import ERModel
    from pykeen.nn import BackfillRepresentation, Embedding, init

    known_ids = factory.entities_to_ids(["burma", "china", "india", "indonesia"])
    initializer = init.PretrainedInitializer(tensor=torch.randn(len(known_ids), _D))
    base = Embedding(max_id=len(known_ids), shape=(_D,), initializer=initializer, trainable=False)
    entities = BackfillRepresentation(base_ids=known_ids, max_id=factory.num_entities, base=base)
    return ERModel(triples_factory=factory, interaction="distmult", entity_representations=entities,
                   relation_representations_kwargs=dict(shape=_D))


def _pyg(kind):  # docs/examples/nn/pyg/{simple,typed,featurized}.py
    def build(factory):
        from pykeen.models import ERModel
        from pykeen.nn import Embedding
        from pykeen.nn.pyg import (FeaturizedMessagePassingRepresentation, SimpleMessagePassingRepresentation,
                                   TypedMessagePassingRepresentation)

        if kind == "simple":
            entities = SimpleMessagePassingRepresentation(
                triples_factory=factory, base_kwargs=dict(shape=_D), layers=["gcn"] * 2,
                layers_kwargs=dict(in_channels=_D, out_channels=_D))
            return ERModel(triples_factory=factory, entity_representations=entities,
                           relation_representations_kwargs=dict(embedding_dim=_D), interaction="DistMult")
        if kind == "typed":
            entities = TypedMessagePassingRepresentation(
                triples_factory=factory, base_kwargs=dict(shape=_D), layers="rgcn",
                layers_kwargs=dict(in_channels=_D, out_channels=_D, num_bases=2,
                                   num_relations=factory.num_relations))
            return ERModel(triples_factory=factory, entity_representations=entities,
                           relation_representations_kwargs=dict(embedding_dim=_D), interaction="DistMult")
        relations = Embedding(max_id=factory.num_relations, embedding_dim=_D)
        entities = FeaturizedMessagePassingRepresentation(
            triples_factory=factory, base_kwargs=dict(shape=_D), relation_representation=relations, layers="gat",
            layers_kwargs=dict(in_channels=_D, out_channels=_D, edge_dim=_D))
        return ERModel(triples_factory=factory, entity_representations=entities,
                       relation_representations=relations, interaction="DistMult")

    return build


def _loss_weighted_mure(mode):  # docs/examples/training/loss_weights.py
    from pykeen.models import MuRE
    from pykeen.triples.weights import RelationLossWeighter

    d = _data("nations")
    model = MuRE(triples_factory=d[0], embedding_dim=_D, loss="BCEWithLogits")
    weighter = RelationLossWeighter.inverse_relation_frequency(mapped_triples=d[0].mapped_triples)
    return _run(model, mode, d, "lcwa", loss_weighter=weighter)


# --- baselines and workflows -----------------------------------------------------------------

def _baseline(cls, **kwargs):
    def make(mode):
        import pykeen.models

        if mode == "train":
            raise NotImplementedError(f"{cls}: an evaluation-only model, no training step (eval only)")
        factory, eval_triples = _data("nations")[:2]
        return _wrappers()[3](getattr(pykeen.models, cls)(triples_factory=factory, **kwargs)), (eval_triples,), {}

    return make


def _workflow(kind):
    """The prediction / evaluation workflows on a TransE-like model (PairRE in the prediction docs)."""

    def make(mode):
        import functools as ft

        from pykeen.evaluation import RankBasedEvaluator
        from pykeen.models import PairRE, TransE
        from pykeen.predict import predict_all, predict_target, predict_triples

        if kind in ("predict_target", "predict_triples"):
            factory = _data("labeled")[0]
            model = PairRE(triples_factory=factory, embedding_dim=_D)
        else:
            factory = _data("nations")[0]
            model = TransE(triples_factory=factory, embedding_dim=_D)
        if kind == "predict_target":
            def run():
                return predict_target(model=model, head="france", relation="borders",
                                      triples_factory=factory).filter_triples(factory).df
        elif kind == "predict_triples":
            triples = [("berlin", "located_in", "germany"), ("paris", "capital_of", "spain"),
                       ("italy", "speaks", "italian"), ("portugal", "borders", "france")]

            def run():
                return predict_triples(model=model, triples=triples, triples_factory=factory).process(
                    factory=factory).df
        elif kind == "predict_all":
            run = ft.partial(predict_all, model=model, k=10)
        else:  # beyond_pipeline.py / conv_e.py: evaluate with filtering
            nations = __import__("pykeen.datasets", fromlist=["Nations"]).Nations()
            run = ft.partial(RankBasedEvaluator().evaluate, model=model,
                             mapped_triples=nations.testing.mapped_triples[:_B], batch_size=_B,
                             additional_filter_triples=[nations.training.mapped_triples,
                                                        nations.validation.mapped_triples])
        if mode == "train":
            _, TrainStep, TrainThen, _ = _wrappers()
            loop, batch = _loop_and_batch(model, factory)
            return TrainThen(TrainStep(loop), run), (batch,), {}
        return run, (), {}

    return make


MODELS = {
    # translational / distance models
    "TransE": _kge("TransE", embedding_dim=_D, loss="MarginRankingLoss", loss_kwargs=dict(margin=1.0)),
    "TransE_lcwa_inverse": _kge("TransE", inverse=True, loop="lcwa", embedding_dim=_D, loss="crossentropy"),
    "TransH": _kge("TransH", embedding_dim=_D, regularizer="NormLimit", regularizer_kwargs=dict(p=2),
                   relation_regularizer="Orthogonality", loss="MarginRankingLoss", loss_kwargs=dict(margin=0.25),
                   loop_kwargs=dict(negative_sampler="bernoulli")),
    "TransR": _kge("TransR", embedding_dim=_D, relation_dim=4, loss="MarginRankingLoss",
                   loss_kwargs=dict(margin=1.0), loop_kwargs=dict(negative_sampler="bernoulli")),
    "TransD": _kge("TransD", embedding_dim=_D, relation_dim=4, entity_constrainer="clamp_norm",
                   relation_constrainer="clamp_norm", loss="MarginRankingLoss", loss_kwargs=dict(margin=1.0),
                   loop_kwargs=dict(negative_sampler="bernoulli")),
    "TransF": _kge("TransF", embedding_dim=_D),
    "TorusE": _kge("TorusE", embedding_dim=_D),
    "SE": _kge("SE", embedding_dim=_D),
    "UM": _kge("UM", embedding_dim=_D),
    "RotatE": _kge("RotatE", embedding_dim=_D, loss="nssa", loss_kwargs=dict(margin=24, adversarial_temperature=1.0),
                   loop_kwargs=dict(negative_sampler_kwargs=dict(num_negs_per_pos=4))),
    "PairRE": _kge("PairRE", embedding_dim=_D),
    "MuRE": _kge("MuRE", embedding_dim=_D, p=2, power_norm=True, loss="BCEWithLogitsLoss"),
    "MuRE_lcwa_loss_weights": _loss_weighted_mure,
    "BoxE": _kge("BoxE", embedding_dim=_D, p=2, tanh_map=True, loss="nssa",
                 loss_kwargs=dict(margin=3.0, adversarial_temperature=4.0)),
    "KG2E_EL": _kge("KG2E", embedding_dim=_D, dist_similarity="expectedlikelihood", c_min=0.05, c_max=5.0,
                    loss="MarginRankingLoss", loss_kwargs=dict(margin=1.0),
                    loop_kwargs=dict(negative_sampler="bernoulli")),
    "KG2E_KL": _kge("KG2E", embedding_dim=_D, dist_similarity="negativekullbackleiblerdivergence", c_min=0.01,
                    c_max=1.0),
    # semantic matching / factorization models
    "DistMult": _kge("DistMult", embedding_dim=_D, loss="MarginRankingLoss", loss_kwargs=dict(margin=1.0)),
    "DistMA": _kge("DistMA", embedding_dim=_D),
    "ComplEx": _kge("ComplEx", embedding_dim=_D, loss="SoftplusLoss"),
    "ComplEx_symmetric_lcwa_N3": _kge("ComplEx", loop="symmetriclcwa", embedding_dim=_D, loss="crossentropy",
                                      regularizer="lp", regularizer_kwargs=dict(p=3.0, weight=0.01)),
    "RESCAL": _kge("RESCAL", inverse=True, loop="lcwa", embedding_dim=_D, loss="crossentropy"),
    "HolE": _kge("HolE", embedding_dim=_D, loss="MarginRankingLoss", loss_kwargs=dict(margin=0.2)),
    "SimplE": _kge("SimplE", embedding_dim=_D, clamp_score=20.0, loss="SoftplusLoss", regularizer="PowerSum"),
    "QuatE": _kge("QuatE", embedding_dim=_D, loss="BCEWithLogitsLoss", entity_regularizer="Lp",
                  entity_regularizer_kwargs=dict(apply_only_once=False, weight=0.05, p=2.0, normalize=False),
                  relation_regularizer="Lp",
                  relation_regularizer_kwargs=dict(apply_only_once=False, weight=0.05, p=2.0, normalize=False)),
    "TuckER": _kge("TuckER", inverse=True, loop="lcwa", label_smoothing=0.1, embedding_dim=_D, relation_dim=4,
                   dropout_0=0.2, dropout_1=0.2, dropout_2=0.3, apply_batch_normalization=True,
                   loss="BCEAfterSigmoidLoss"),
    "CP": _kge("CP", embedding_dim=_D, rank=4),
    "AutoSF": _kge("AutoSF", embedding_dim=_D),
    "CrossE": _kge("CrossE", embedding_dim=_D),
    # neural models
    "ERMLP": _kge("ERMLP", inverse=True, loop="lcwa", embedding_dim=_D, hidden_dim=4, loss="bceaftersigmoid"),
    "ERMLPE": _kge("ERMLPE", loop="lcwa", embedding_dim=_D, hidden_dim=4),
    "ProjE": _kge("ProjE", embedding_dim=_D),
    "NTN": _kge("NTN", embedding_dim=_D, num_slices=2),
    "ConvE": _kge("ConvE", inverse=True, loop="lcwa", embedding_dim=12, output_channels=2,
                  embedding_height=3, embedding_width=4, kernel_height=3, kernel_width=3, input_dropout=0.2,
                  feature_map_dropout=0.2, output_dropout=0.3, loss="BCEAfterSigmoidLoss"),
    "ConvKB": _kge("ConvKB", embedding_dim=_D, num_filters=2, hidden_dropout_rate=0.0, loss="SoftplusLoss",
                   loop_kwargs=dict(negative_sampler="bernoulli")),
    # graph neural models
    "RGCN_block": _kge("RGCN", embedding_dim=_D, num_layers=2, interaction="distmult", decomposition="block",
                       decomposition_kwargs=dict(num_blocks=2), edge_weighting="inverse_in_degree",
                       edge_dropout=0.4, self_loop_dropout=0.2, regularizer="Lp", regularizer_kwargs=dict(weight=0.01),
                       loss="BCEWithLogits", sampler="schlichtkrull"),
    "RGCN_bases": _kge("RGCN", embedding_dim=_D, interaction="transe", interaction_kwargs=dict(p=1),
                       decomposition="bases", decomposition_kwargs=dict(num_bases=3)),
    "CompGCN": _kge("CompGCN", inverse=True, encoder_kwargs=dict(
        entity_representations_kwargs=dict(shape=(_D,)), relation_representations_kwargs=dict(shape=(_D,)))),
    "NodePiece": _kge("NodePiece", inverse=True, embedding_dim=_D, tokenizers="RelationTokenizer", num_tokens=4),
    "NodePiece_mlp": _kge("NodePiece", inverse=True, embedding_dim=_D, aggregation="mlp", num_tokens=4),
    "NodePiece_anchors_rotate": _kge(
        "NodePiece", inverse=True, loop="lcwa", embedding_dim=_D, interaction="RotatEInteraction",
        aggregation="mlp", tokenizers=["AnchorTokenizer", "RelationTokenizer"], num_tokens=[3, 2],
        tokenizers_kwargs=[dict(selection="MixtureAnchorSelection", searcher="CSGraphAnchorSearcher",
                                selection_kwargs=dict(selections=["degree", "pagerank"], ratios=[0.5, 0.5],
                                                      num_anchors=5)), dict()],
        loss="BCEWithLogitsLoss"),
    "InductiveNodePiece": _kge("InductiveNodePiece", data="inductive", inverse=True, embedding_dim=_D,
                               num_tokens=4, loss="nssa", loss_kwargs=dict(margin=15)),
    "InductiveNodePieceGNN": _kge("InductiveNodePieceGNN", data="inductive", inverse=True, embedding_dim=_D,
                                  num_tokens=4, aggregation="mlp", loss="nssa", loss_kwargs=dict(margin=15),
                                  loop_kwargs=dict(negative_sampler_kwargs=dict(num_negs_per_pos=4))),
    # meta and literal models
    "CooccurrenceFilteredModel": _kge("CooccurrenceFilteredModel", embedding_dim=_D),
    "DistMultLiteral": _kge("DistMultLiteral", data="literal", loop="lcwa", embedding_dim=_D, input_dropout=0.1),
    "ComplExLiteral": _kge("ComplExLiteral", data="literal", loop="lcwa", embedding_dim=_D),
    # ERModels composed by hand
    "ERModel_distmult_dropout": _custom(_dropout_distmult),
    "ERModel_lineare": _custom(_make_model("lineare", dict(d=_D), p=1)),
    "ERModel_triplere": _custom(_make_model("triplere", dict(d=_D))),
    "ERModel_transformer": _custom(_make_model("transformer", dict(d=_D), input_dim=_D, num_heads=2, num_layers=1,
                                                 dim_feedforward=16)),
    "ERModel_multilineartucker": _custom(_make_model("multilineartucker", dict(d=_D, e=4, f=_D), head_dim=_D,
                                                                relation_dim=4, tail_dim=_D)),
    "Repr_LowRank": _custom(_low_rank, inverse=True),
    "Repr_EmbeddingBag": _custom(_embedding_bag, data="generated"),
    "Repr_MLPTransformed": _custom(_mlp_transformed, data="generated"),
    "Repr_Combined": _custom(_combined, data="generated"),
    "Repr_FeatureEnriched": _custom(_feature_enriched, data="generated"),
    "Repr_TransformedRWPE": _custom(_transformed_rwpe),
    "Repr_Backfill": _custom(_backfill),
    "PyG_simple_gcn": _custom(_pyg("simple")),
    "PyG_typed_rgcn": _custom(_pyg("typed")),
    "PyG_featurized_gat": _custom(_pyg("featurized")),
    # evaluation-only baselines
    "MarginalDistributionBaseline": _baseline("MarginalDistributionBaseline"),
    "SoftInverseTripleBaseline": _baseline("SoftInverseTripleBaseline"),
    # workflows
    "predict_target": _workflow("predict_target"),
    "predict_triples": _workflow("predict_triples"),
    "predict_all": _workflow("predict_all"),
    "RankBasedEvaluator": _workflow("evaluate"),
}
