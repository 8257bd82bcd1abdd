"""TorchKGE 0.17.7 (Armand Boschin, Telecom Paris): knowledge-graph embedding models, their losses,
negative samplers and the link-prediction / relation-prediction / triplet-classification
evaluators, as its README, its tutorials (``docs/tutorials``: ``transe.rst`` and ``hole.rst``, the
training loop ``sampler.corrupt_batch`` -> ``model(...)`` -> ``criterion(pos, neg)``;
``transe_early_stopping.rst``, ignite's ``process_batch``; ``training.rst``, the ``Trainer``
wrapper; ``linkprediction.rst``, ``LinkPredictionEvaluator``; ``tripletclassification.rst``) and
its tests (``tests/test_evaluation.py``: a pandas ``from`` / ``to`` / ``rel`` frame through
``KnowledgeGraph(df)``, ``split_kg(sizes=...)``) use them; tiny (a synthetic KG of 16 entities,
4 relations, 48 triples, embedding dims 8-12), random weights, no download.

Covered (``MODELS``, 36):

- every model class's forward (``Model.forward``: scores of a batch of 16 facts and of 16
  pre-sampled Bernoulli negatives): ``TransEModel`` (L2 and L1), ``TransHModel``,
  ``TransRModel``, ``TransDModel``, ``TorusEModel`` (``torus_L2`` and ``torus_eL2``),
  ``RESCALModel``, ``DistMultModel``, ``HolEModel``, ``ComplExModel``, ``AnalogyModel``,
  ``ConvKBModel``; train: the criterion the tutorials pair them with on (pos, neg):
  ``MarginLoss`` for the translational models, ``LogisticLoss`` (HolE, RESCAL, Analogy as
  hole.rst), ``BinaryCrossEntropyLoss`` (DistMult, ComplEx, ConvKB);
- the training step as the tutorials / ignite's ``process_batch`` write it, the negatives drawn
  inside the step: ``BernoulliNegativeSampler`` (TransE), ``UniformNegativeSampler`` (DistMult),
  ``BernoulliNegativeSampler(n_neg=3)`` (TransH: the several-negatives path of ``forward``),
  ``PositionalNegativeSampler`` (ComplEx), ``BernoulliRelationNegativeSampler`` (TransE, with
  negative relations); eval: the same step as a validation loss; and ``Trainer.process_batch``
  (the library's own step: ``zero_grad``, forward, margin loss, ``backward``, Adam ``step``,
  ``.item()``) on a ``TrainDataLoader`` batch (train; eval: its forward and loss);
- link prediction: the body of ``LinkPredictionEvaluator.evaluate`` for one batch
  (``inference_prepare_candidates``, ``inference_scoring_function`` for tails then heads,
  ``filter_scores`` on the KG's dictionaries, ``get_rank``) for TransE, TransH, TransR, TransD,
  TorusE, RESCAL, DistMult, HolE, ComplEx, Analogy, ConvKB (the projected models compute
  their ``projected_entities`` on the first call, as in the evaluator);
- relation prediction: the body of ``RelationPredictionEvaluator.evaluate`` (TransE; DistMult
  with ``directed=False``; TransR, whose scoring falls back on ``rel_emb_dim``);
- triplet classification: ``TripletClassificationEvaluator`` thresholds from ``evaluate`` on the
  validation split, then what ``accuracy`` computes on the test facts and their negatives
  (``get_scores`` through the library's ``SmallKG`` / ``DataLoader``);
- inference: the body of ``EntityInference.evaluate`` (missing tails, filtered with
  ``dict_of_tails``, top 3) and of ``RelationInference.evaluate`` (top 2), written out since
  their ``evaluate`` cannot store its scores in 0.17.7 (``self.scores[i * b, (i + 1) * b] = ...``
  indexes one element).

Eval: the forward's (pos, neg) scores, the steps' loss (a validation loss), the evaluators' ranks /
accuracy, the inference's top-k indices and scores. Train: the loss (gradients on; the probe
back-propagates it); ``Trainer.process_batch`` runs its own ``backward`` and ``step`` and returns
``loss.item()``; the link- and relation-prediction entries run the ignite tutorial's epoch
(``transe_early_stopping.rst``): the margin / logistic / BCE step, ``model.normalize_parameters()``,
then the evaluation batch on the updated model, returning the loss. The triplet-classification
and inference entries are eval only: their "train" raises NotImplementedError (no loss; they run
on a trained model). Measured first as it came,
before any rule looked at it (stop 59: first contact).

    pip install --no-deps torchkge==0.17.7
    # already there: numpy, pandas, tqdm (torchkge's only requirements besides torch)

Capture (torch 2.13.0+cpu): 36 models, 69 runs (the three eval-only entries' "train" skipped), all
built, all 69 ran under Dynamo (none failed). Breaks in the source: ``.item()`` (GB0124) and
data-dependent boolean-mask assignments (GB0036) in the negative samplers' ``corrupt_batch``, the
positional sampler's per-fact loop (GB7000), ``get_true_targets``' ``.item()`` in the filtering loop
(GB7000 for ``filter_scores``), ``Trainer.process_batch``'s ``zero_grad`` / ``backward`` / ``.item()``.
First numbers with the frozen start-of-stop-59 linter (``/tmp/lint-start59``): graph-break statement
recall 0.17 (3/18), precision 1.00 (6/6), 14 findings (14 in files run), 8 unjudged (3 shadowed, 5 not
reached).

Nothing stubbed. Left out: the dataset loaders (``load_fb15k`` etc. download), the pre-trained
models (``load_pretrained_transe`` etc. download), ``Trainer.run`` (full epochs with tqdm; its
batch step is covered), the ``*.evaluate`` loops as a whole (one batch's body is covered).
"""

PACKAGE = "torchkge"

mean_loss_module = None  # adapter.py's, set by ZooSuite

_N_ENT, _N_REL, _N_FACTS, _B = 16, 4, 48, 16
_D = 8


def warm_up():
    import torch  # noqa: F401

    import torchkge  # noqa: F401
    import torchkge.evaluation  # noqa: F401
    import torchkge.inference  # noqa: F401
    import torchkge.sampling  # noqa: F401


def _kg():
    """A synthetic KG as the tests build theirs: a pandas frame of (from, to, rel) labels."""
    import numpy as np
    import pandas as pd

    from torchkge.data_structures import KnowledgeGraph

    rng = np.random.default_rng(0)
    seen, rows = set(), []
    while len(rows) < _N_FACTS:
        h, t, r = (int(x) for x in (rng.integers(_N_ENT), rng.integers(_N_ENT), rng.integers(_N_REL)))
        if h != t and (h, t, r) not in seen:
            seen.add((h, t, r))
            rows.append([f"e{h}", f"e{t}", f"r{r}"])
    for i in range(_N_ENT):  # every entity and relation appears
        rows.append([f"e{i}", f"e{(i + 1) % _N_ENT}", f"r{i % _N_REL}"])
    df = pd.DataFrame(rows, columns=["from", "to", "rel"]).drop_duplicates()
    return KnowledgeGraph(df)


def _batch(kg):
    from torchkge.utils import DataLoader

    h, t, r = next(iter(DataLoader(kg, batch_size=_B)))[:3]
    return h, t, r


def _negatives(kg, h, t, r):
    from torchkge.sampling import BernoulliNegativeSampler

    return BernoulliNegativeSampler(kg).corrupt_batch(h, t, r)


def _model(name, kg):
    from torchkge import models as m

    n, k = kg.n_ent, kg.n_rel
    return {
        "TransE": lambda: m.TransEModel(_D, n, k, dissimilarity_type="L2"),
        "TransE_L1": lambda: m.TransEModel(_D, n, k, dissimilarity_type="L1"),
        "TransH": lambda: m.TransHModel(_D, n, k),
        "TransR": lambda: m.TransRModel(_D, 6, n, k),
        "TransD": lambda: m.TransDModel(_D, 6, n, k),
        "TorusE": lambda: m.TorusEModel(_D, n, k, dissimilarity_type="torus_L2"),
        "TorusE_eL2": lambda: m.TorusEModel(_D, n, k, dissimilarity_type="torus_eL2"),
        "RESCAL": lambda: m.RESCALModel(_D, n, k),
        "DistMult": lambda: m.DistMultModel(_D, n, k),
        "HolE": lambda: m.HolEModel(_D, n, k),
        "ComplEx": lambda: m.ComplExModel(_D, n, k),
        "Analogy": lambda: m.AnalogyModel(12, n, k),
        "ConvKB": lambda: m.ConvKBModel(_D, 3, n, k),
    }[name]()


def _criterion(kind):
    from torchkge.utils import BinaryCrossEntropyLoss, LogisticLoss, MarginLoss

    return {"margin": lambda: MarginLoss(0.5), "logistic": LogisticLoss, "bce": BinaryCrossEntropyLoss}[kind]()


# --- modules: a step as the tutorials write it ----------------------------------------------------


def _step_cls():
    import torch

    class KGEStep(torch.nn.Module):
        """pos, neg = model(h, t, r, n_h, n_t); loss = criterion(pos, neg) (the tutorials' loop body);
        with a sampler, the negatives are drawn in the step (``sampler.corrupt_batch``)."""

        def __init__(self, model, criterion, sampler=None):
            super().__init__()
            self.model = model
            self.criterion = criterion
            self.sampler = sampler

        def forward(self, h, t, r, n_h=None, n_t=None):
            n_r = None
            if self.sampler is not None:
                neg = self.sampler.corrupt_batch(h, t, r)
                if len(neg) == 3:
                    n_h, n_t, n_r = neg
                else:
                    n_h, n_t = neg
            pos, neg = self.model(h, t, r, n_h, n_t, n_r)
            return self.criterion(pos, neg)

    return KGEStep


_LOSS = {  # the criterion the tutorials pair each model with
    "TransE": "margin", "TransE_L1": "margin", "TransH": "margin", "TransR": "margin", "TransD": "margin",
    "TorusE": "margin", "TorusE_eL2": "margin", "RESCAL": "logistic", "DistMult": "bce", "HolE": "logistic",
    "ComplEx": "bce", "Analogy": "logistic", "ConvKB": "bce",
}


def _forward_entry(name, loss):
    def make(mode):
        kg = _kg()
        h, t, r = _batch(kg)
        n_h, n_t = _negatives(kg, h, t, r)
        model = _model(name, kg)
        if mode == "train":
            return _step_cls()(model, _criterion(loss)), (h, t, r, n_h, n_t), {}
        return model, (h, t, r, n_h, n_t), {}

    make.__name__ = f"_forward_{name}"
    return make


def _sampler_entry(name, loss, sampler, **kw):
    def make(mode):
        from torchkge import sampling

        kg = _kg()
        h, t, r = _batch(kg)
        model = _model(name, kg)
        if sampler == "PositionalNegativeSampler":
            kg_tr, kg_val = kg.split_kg(share=0.8)
            s = sampling.PositionalNegativeSampler(kg, kg_val=kg_val)
        else:
            s = getattr(sampling, sampler)(kg, **kw)
        return _step_cls()(model, _criterion(loss), s), (h, t, r), {}

    make.__name__ = f"_step_{name}_{sampler}"
    return make


def _trainer(mode):
    import torch

    from torchkge.utils import MarginLoss, Trainer
    from torchkge.utils.training import TrainDataLoader

    kg = _kg()
    model = _model("TransE", kg)
    criterion = MarginLoss(0.5)
    loader = TrainDataLoader(kg, batch_size=_B, sampling_type="bern")
    batch = next(iter(loader))
    if mode != "train":
        return _step_cls()(model, criterion), (batch["h"], batch["t"], batch["r"], batch["nh"], batch["nt"]), {}
    opt = torch.optim.Adam(model.parameters(), lr=1e-3, weight_decay=1e-5)
    trainer = Trainer(model, criterion, kg, n_epochs=1, batch_size=_B, optimizer=opt, sampling_type="bern")
    return trainer.process_batch, (batch,), {}


# --- evaluation / inference: one batch of the evaluators' loops -----------------------------------


def _eval_only(mode, what):
    if mode == "train":
        raise NotImplementedError(f"{what} is evaluation only (no loss; the evaluators run outside training)")


def _link_prediction_cls():
    import torch

    from torchkge.utils import filter_scores, get_rank

    class LinkPredictionBatch(torch.nn.Module):
        """One batch of ``LinkPredictionEvaluator.evaluate``: raw and filtered ranks of true tails / heads."""

        def __init__(self, model, kg):
            super().__init__()
            self.model = model
            self.kg = kg

        def forward(self, h_idx, t_idx, r_idx):
            h_emb, t_emb, r_emb, candidates = self.model.inference_prepare_candidates(h_idx, t_idx, r_idx, entities=True)
            scores = self.model.inference_scoring_function(h_emb, candidates, r_emb)
            filt_scores = filter_scores(scores, self.kg.dict_of_tails, h_idx, r_idx, t_idx)
            rank_t, filt_rank_t = get_rank(scores, t_idx).detach(), get_rank(filt_scores, t_idx).detach()
            scores = self.model.inference_scoring_function(candidates, t_emb, r_emb)
            filt_scores = filter_scores(scores, self.kg.dict_of_heads, t_idx, r_idx, h_idx)
            rank_h, filt_rank_h = get_rank(scores, h_idx).detach(), get_rank(filt_scores, h_idx).detach()
            return rank_t, filt_rank_t, rank_h, filt_rank_h

    return LinkPredictionBatch


def _train_then_cls():
    import torch

    class TrainThenEvaluate(torch.nn.Module):
        """The ignite tutorial's epoch: ``process_batch`` (the loss), ``model.normalize_parameters()``,
        then the validation evaluation on the updated model; returns the loss."""

        def __init__(self, step, evaluate):
            super().__init__()
            self.step = step
            self.evaluate = evaluate

        def forward(self, h, t, r, n_h, n_t):
            loss = self.step(h, t, r, n_h, n_t)
            self.step.model.normalize_parameters()
            self.evaluate(h, t, r)
            return loss

    return TrainThenEvaluate


def _evaluator_entry(name, cls, **kw):
    def make(mode):
        kg = _kg()
        model = _model(name, kg)
        h, t, r = _batch(kg)
        evaluate = cls()(model, kg, **kw)
        if mode != "train":
            return evaluate, (h, t, r), {}
        n_h, n_t = _negatives(kg, h, t, r)
        step = _step_cls()(model, _criterion(_LOSS[name]))
        return _train_then_cls()(step, evaluate), (h, t, r, n_h, n_t), {}

    make.__name__ = f"_{cls.__name__}_{name}"
    return make


def _lp_entry(name):
    return _evaluator_entry(name, _link_prediction_cls)


def _relation_prediction_cls():
    import torch

    from torchkge.utils import filter_scores, get_rank

    class RelationPredictionBatch(torch.nn.Module):
        """One batch of ``RelationPredictionEvaluator.evaluate``."""

        def __init__(self, model, kg, directed=True):
            super().__init__()
            self.model = model
            self.kg = kg
            self.directed = directed

        def forward(self, h_idx, t_idx, r_idx):
            h_emb, t_emb, r_emb, candidates = self.model.inference_prepare_candidates(h_idx, t_idx, r_idx, entities=False)
            scores = self.model.inference_scoring_function(h_emb, t_emb, candidates)
            filt_scores = filter_scores(scores, self.kg.dict_of_rels, h_idx, t_idx, r_idx)
            if not self.directed:
                scores_bis = self.model.inference_scoring_function(t_emb, h_emb, candidates)
                filt_scores_bis = filter_scores(scores_bis, self.kg.dict_of_rels, h_idx, t_idx, r_idx)
                scores = torch.cat((scores, scores_bis), dim=1)
                filt_scores = torch.cat((filt_scores, filt_scores_bis), dim=1)
            return get_rank(scores, r_idx).detach(), get_rank(filt_scores, r_idx).detach()

    return RelationPredictionBatch


def _rp_entry(name, directed=True):
    return _evaluator_entry(name, _relation_prediction_cls, directed=directed)


def _triplet_classification(mode):
    import torch

    from torchkge.evaluation import TripletClassificationEvaluator

    _eval_only(mode, "triplet classification")
    kg = _kg()
    kg_val, kg_test = kg.split_kg(share=0.5)
    model = _model("TransE", kg)
    evaluator = TripletClassificationEvaluator(model, kg_val, kg_test)
    evaluator.evaluate(b_size=_B)  # the relation thresholds from the validation facts

    class TripletAccuracy(torch.nn.Module):
        """What ``TripletClassificationEvaluator.accuracy`` computes once the thresholds are known."""

        def __init__(self):
            super().__init__()
            self.model = model

        def forward(self, h, t, r, n_h, n_t):
            scores = evaluator.get_scores(h, t, r, _B)
            neg_scores = evaluator.get_scores(n_h, n_t, r, _B)
            scores = scores > evaluator.thresholds[r]
            neg_scores = neg_scores < evaluator.thresholds[r]
            return (scores.sum() + neg_scores.sum()) / (2 * h.shape[0])

    n_h, n_t = evaluator.sampler.corrupt_kg(_B, False, which="test")
    return TripletAccuracy(), (kg_test.head_idx, kg_test.tail_idx, kg_test.relations, n_h, n_t), {}


def _entity_inference(mode):
    import torch

    from torchkge.utils import filter_scores

    _eval_only(mode, "entity inference")
    kg = _kg()
    model = _model("TransE", kg)

    class EntityInferenceBatch(torch.nn.Module):
        """The body of ``EntityInference.evaluate`` (missing tails, filtered, top k)."""

        def __init__(self, top_k=3):
            super().__init__()
            self.model = model
            self.top_k = top_k

        def forward(self, known_ents, known_rels):
            h_emb, _, rel_emb, candidates = self.model.inference_prepare_candidates(
                known_ents, torch.tensor([]).long(), known_rels, entities=True)
            scores = self.model.inference_scoring_function(h_emb, candidates, rel_emb)
            scores = filter_scores(scores, kg.dict_of_tails, known_ents, known_rels, None)
            scores, indices = scores.sort(descending=True)
            return indices[:, :self.top_k], scores[:, :self.top_k]

    h, _, r = _batch(kg)
    return EntityInferenceBatch(), (h, r), {}


def _relation_inference(mode):
    import torch

    _eval_only(mode, "relation inference")
    kg = _kg()
    model = _model("DistMult", kg)

    class RelationInferenceBatch(torch.nn.Module):
        """The body of ``RelationInference.evaluate`` (top k relations between two entities)."""

        def __init__(self, top_k=2):
            super().__init__()
            self.model = model
            self.top_k = top_k

        def forward(self, ents1, ents2):
            h_emb, t_emb, _, candidates = self.model.inference_prepare_candidates(
                ents1, ents2, torch.tensor([]).long(), entities=False)
            scores = self.model.inference_scoring_function(h_emb, t_emb, candidates)
            scores, indices = scores.sort(descending=True)
            return indices[:, :self.top_k], scores[:, :self.top_k]

    h, t, _ = _batch(kg)
    return RelationInferenceBatch(), (h, t), {}


MODELS = {
    # forward (eval) / forward + the tutorials' criterion (train)
    "TransE": _forward_entry("TransE", "margin"),
    "TransE_L1": _forward_entry("TransE_L1", "margin"),
    "TransH": _forward_entry("TransH", "margin"),
    "TransR": _forward_entry("TransR", "margin"),
    "TransD": _forward_entry("TransD", "margin"),
    "TorusE": _forward_entry("TorusE", "margin"),
    "TorusE_eL2": _forward_entry("TorusE_eL2", "margin"),
    "RESCAL": _forward_entry("RESCAL", "logistic"),
    "DistMult": _forward_entry("DistMult", "bce"),
    "HolE": _forward_entry("HolE", "logistic"),
    "ComplEx": _forward_entry("ComplEx", "bce"),
    "Analogy": _forward_entry("Analogy", "logistic"),
    "ConvKB": _forward_entry("ConvKB", "bce"),
    # the training step with the negatives drawn inside it
    "Step_TransE_Bernoulli": _sampler_entry("TransE", "margin", "BernoulliNegativeSampler"),
    "Step_DistMult_Uniform": _sampler_entry("DistMult", "logistic", "UniformNegativeSampler"),
    "Step_TransH_Bernoulli_3neg": _sampler_entry("TransH", "margin", "BernoulliNegativeSampler", n_neg=3),
    "Step_ComplEx_Positional": _sampler_entry("ComplEx", "bce", "PositionalNegativeSampler"),
    "Step_TransE_BernoulliRelation": _sampler_entry("TransE", "margin", "BernoulliRelationNegativeSampler"),
    "Trainer_process_batch": _trainer,
    # evaluation and inference (eval only)
    "LinkPrediction_TransE": _lp_entry("TransE"),
    "LinkPrediction_TransH": _lp_entry("TransH"),
    "LinkPrediction_TransR": _lp_entry("TransR"),
    "LinkPrediction_TransD": _lp_entry("TransD"),
    "LinkPrediction_TorusE": _lp_entry("TorusE"),
    "LinkPrediction_RESCAL": _lp_entry("RESCAL"),
    "LinkPrediction_DistMult": _lp_entry("DistMult"),
    "LinkPrediction_HolE": _lp_entry("HolE"),
    "LinkPrediction_ComplEx": _lp_entry("ComplEx"),
    "LinkPrediction_Analogy": _lp_entry("Analogy"),
    "LinkPrediction_ConvKB": _lp_entry("ConvKB"),
    "RelationPrediction_TransE": _rp_entry("TransE"),
    "RelationPrediction_DistMult_undirected": _rp_entry("DistMult", directed=False),
    "RelationPrediction_TransR": _rp_entry("TransR"),
    "TripletClassification_TransE": _triplet_classification,
    "EntityInference_TransE": _entity_inference,
    "RelationInference_DistMult": _relation_inference,
}
