"""pytorch-crf (kmkurn) 0.7.2, import name ``torchcrf``: its one module, the linear-chain
``CRF``, as its README / docs use it and as taggers put it on top of an encoder, tiny (batch 2,
6 steps, 5 tags; a 20-word vocabulary, 16-wide embeddings and LSTM), random weights, no download:

- ``CRF.forward``, the log likelihood of the gold tags: time major (the default) without a mask
  and with the README's ``uint8`` mask (``(seq, batch)``, the second sequence 4 long),
  ``batch_first`` without a mask and with a ``bool`` mask, and each ``reduction``: ``"sum"``
  (the default), ``"mean"``, ``"token_mean"`` (masked) and ``"none"`` (masked, per sequence);
- ``CRF.decode`` (Viterbi; a list of tag lists): time major without and with a mask, batch first
  with a mask;
- taggers that compute emissions then the CRF, ``forward(tokens, tags=None, mask=None)``
  returning the negative log likelihood when given tags and the decoded tags otherwise: an
  embedding + linear emitter (time major, the mask given), a BiLSTM-CRF (batch first, the mask
  from the padding id inside the forward), and a BiLSTM-CRF over ``pack_padded_sequence``.

Eval: the CRF's log likelihood (the ``"none"`` reduction per sequence) or its decoded tag lists;
the taggers decode. Train: the negative log likelihood (``NLL``; ``"none"`` averaged), and
for the decode models a tagger's training step that also decodes the batch (``DecodeStep``:
returns the mean NLL; the Viterbi paths, which a training loop reports as accuracy, are dropped),
since ``decode`` returns Python lists with nothing to backpropagate; the taggers' NLL.

    pip install --no-deps pytorch-crf==0.7.2

It imports torch alone. Nothing stubbed.

Left out: nothing of the library (``reset_parameters`` runs in the constructor).
Notes: a mask must have its first time step on (``_validate`` checks ``mask[0].all()`` /
``mask[:, 0].all()`` in Python before every call); a ``uint8`` mask (the README's) reaches
``torch.where``, which warns that a ``uint8`` condition is deprecated; ``decode`` walks the
back-pointers per sequence with ``.item()``.
"""

import functools

PACKAGE = "torchcrf"
DISTRIBUTION = "pytorch-crf"

_B, _SEQ, _TAGS = 2, 6, 5  # batch, time steps, tags
_VOCAB, _EMB, _HID = 20, 16, 16  # tagger vocabulary (0 = padding), embedding, LSTM widths
_LENGTHS = (6, 4)  # the two sequences' lengths


def warm_up():
    import torch  # noqa: F401
    import torchcrf  # noqa: F401


# --- the user-side modules (built once, when the first model is) --------------------------

@functools.cache
def _nets():
    import types

    import torch
    from torch import nn
    from torch.nn.utils.rnn import pack_padded_sequence, pad_packed_sequence
    from torchcrf import CRF

    class NLL(nn.Module):
        """The CRF's training loss: the negative log likelihood (``"none"``: averaged)."""

        def __init__(self, crf, reduction="sum"):
            super().__init__()
            self.crf, self.reduction = crf, reduction

        def forward(self, emissions, tags, mask=None):
            llh = self.crf(emissions, tags, mask=mask, reduction=self.reduction)
            if self.reduction == "none":
                llh = llh.mean()
            return -llh

    class Decode(nn.Module):
        """``crf.decode(emissions, mask)``: the best tag sequence of each sample (lists)."""

        def __init__(self, crf):
            super().__init__()
            self.crf = crf

        def forward(self, emissions, mask=None):
            return self.crf.decode(emissions, mask=mask)

    class DecodeStep(nn.Module):
        """A training step that decodes too: the mean NLL, and the Viterbi paths of the batch."""

        def __init__(self, crf):
            super().__init__()
            self.crf = crf

        def forward(self, emissions, tags, mask=None):
            loss = -self.crf(emissions, tags, mask=mask, reduction="mean")
            self.crf.decode(emissions, mask=mask)
            return loss

    class LinearCRF(nn.Module):
        """Embedding + linear emissions, a time-major CRF; the mask comes with the batch."""

        def __init__(self):
            super().__init__()
            self.embedding = nn.Embedding(_VOCAB, _EMB)
            self.hidden2tag = nn.Linear(_EMB, _TAGS)
            self.crf = CRF(_TAGS)

        def forward(self, tokens, tags=None, mask=None):
            emissions = self.hidden2tag(torch.tanh(self.embedding(tokens)))
            if tags is not None:
                return -self.crf(emissions, tags, mask=mask, reduction="mean")
            return self.crf.decode(emissions, mask=mask)

    class BiLSTMCRF(nn.Module):
        """The classic BiLSTM-CRF tagger (batch first): the mask from the padding id;
        ``packed``: the LSTM over ``pack_padded_sequence`` of the lengths."""

        def __init__(self, packed=False):
            super().__init__()
            self.packed = packed
            self.embedding = nn.Embedding(_VOCAB, _EMB, padding_idx=0)
            self.lstm = nn.LSTM(_EMB, _HID // 2, num_layers=1, bidirectional=True, batch_first=True)
            self.dropout = nn.Dropout(0.1)
            self.hidden2tag = nn.Linear(_HID, _TAGS)
            self.crf = CRF(_TAGS, batch_first=True)

        def emissions(self, tokens, mask):
            x = self.embedding(tokens)
            if self.packed:
                lengths = mask.sum(dim=1).cpu()
                packed = pack_padded_sequence(x, lengths, batch_first=True, enforce_sorted=False)
                out, _ = self.lstm(packed)
                out, _ = pad_packed_sequence(out, batch_first=True, total_length=tokens.size(1))
            else:
                out, _ = self.lstm(x)
            return self.hidden2tag(self.dropout(out))

        def forward(self, tokens, tags=None):
            mask = tokens != 0
            emissions = self.emissions(tokens, mask)
            if tags is not None:
                return -self.crf(emissions, tags, mask=mask, reduction="mean")
            return self.crf.decode(emissions, mask=mask)

    return types.SimpleNamespace(**{k: v for k, v in locals().items() if isinstance(v, type)})


# --- the inputs ---------------------------------------------------------------------------------

def _batch(batch_first, mask):
    """Emissions ``(seq, batch, tags)`` (``(batch, seq, tags)`` batch first), gold tags and a
    mask of ``_LENGTHS`` (``mask``: None, "uint8" as the README's, or "bool")."""
    import torch

    emissions = torch.randn(_SEQ, _B, _TAGS)
    tags = torch.randint(0, _TAGS, (_SEQ, _B))
    on = torch.arange(_SEQ)[:, None] < torch.tensor(_LENGTHS)[None, :]
    m = None if mask is None else on.to(torch.uint8 if mask == "uint8" else torch.bool)
    if batch_first:
        emissions, tags = emissions.transpose(0, 1).contiguous(), tags.t().contiguous()
        m = None if m is None else m.t().contiguous()
    return emissions, tags, m


def _tokens():
    """``(batch, seq)`` word ids, the second sequence padded with 0 after 4 words."""
    import torch

    tokens = torch.randint(1, _VOCAB, (_B, _SEQ))
    for i, n in enumerate(_LENGTHS):
        tokens[i, n:] = 0
    return tokens


# --- models ------------------------------------------------------------------------------------

def _llh(batch_first=False, mask=None, reduction=None):
    """``crf(emissions, tags[, mask=][, reduction=])``; train: its ``NLL``."""

    def make(mode):
        from torchcrf import CRF

        crf = CRF(_TAGS, batch_first=batch_first)
        emissions, tags, m = _batch(batch_first, mask)
        kwargs = {} if m is None else {"mask": m}
        if mode == "train":
            return _nets().NLL(crf, reduction or "sum"), (emissions, tags), kwargs
        if reduction is not None:
            kwargs["reduction"] = reduction
        return crf, (emissions, tags), kwargs

    return make


def _decode(batch_first=False, mask=None):
    """``crf.decode(emissions[, mask=])``; train: ``DecodeStep``."""

    def make(mode):
        from torchcrf import CRF

        crf = CRF(_TAGS, batch_first=batch_first)
        emissions, tags, m = _batch(batch_first, mask)
        kwargs = {} if m is None else {"mask": m}
        if mode == "train":
            return _nets().DecodeStep(crf), (emissions, tags), kwargs
        return _nets().Decode(crf), (emissions,), kwargs

    return make


def _linear_crf(mode):
    import torch

    net = _nets().LinearCRF()
    tokens = _tokens().t().contiguous()  # time major
    mask = (tokens != 0).to(torch.uint8)
    if mode == "train":
        return net, (tokens, torch.randint(0, _TAGS, (_SEQ, _B))), {"mask": mask}
    return net, (tokens,), {"mask": mask}


def _bilstm_crf(packed=False):
    def make(mode):
        import torch

        net = _nets().BiLSTMCRF(packed=packed)
        tokens = _tokens()
        if mode == "train":
            return net, (tokens, torch.randint(0, _TAGS, (_B, _SEQ))), {}
        return net, (tokens,), {}

    return make


MODELS = {
    # the log likelihood (forward): layouts, masks, reductions
    "CRF_llh": _llh(),
    "CRF_llh_mask": _llh(mask="uint8"),
    "CRF_llh_batch_first": _llh(batch_first=True),
    "CRF_llh_batch_first_mask": _llh(batch_first=True, mask="bool"),
    "CRF_llh_mean": _llh(reduction="mean"),
    "CRF_llh_token_mean_mask": _llh(mask="uint8", reduction="token_mean"),
    "CRF_llh_none_mask": _llh(batch_first=True, mask="bool", reduction="none"),
    # Viterbi decoding
    "CRF_decode": _decode(),
    "CRF_decode_mask": _decode(mask="uint8"),
    "CRF_decode_batch_first_mask": _decode(batch_first=True, mask="bool"),
    # taggers: emissions, then the CRF
    "Linear_CRF_tagger": _linear_crf,
    "BiLSTM_CRF_tagger": _bilstm_crf(),
    "BiLSTM_CRF_tagger_packed": _bilstm_crf(packed=True),
}
