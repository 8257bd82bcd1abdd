"""fair-esm: the protein language models (ESM-2, ESM-1 / ESM-1b, the MSA Transformer) at
two layers and a small width, random weights, on a batch of tokenised random sequences.
Train: the masked-language-model loss.

    pip install --no-deps fair-esm==2.0.0
"""

import functools

PACKAGE = "esm"
DISTRIBUTION = "fair-esm"


def _tokens(alphabet, batch=2, length=12, msa=0):
    import torch

    letters = alphabet.standard_toks[:20]
    ids = [alphabet.get_idx(t) for t in letters]
    seq = torch.tensor(ids)[torch.randint(0, len(ids), (batch, msa or 1, length))]
    head = torch.full((batch, msa or 1, 1), alphabet.cls_idx)
    tail = torch.full((batch, msa or 1, 1), alphabet.eos_idx)
    tokens = torch.cat([head, seq, tail], dim=-1)
    return tokens if msa else tokens[:, 0]


@functools.cache
def _mlm_loss_module():
    import torch

    class MaskedLMLoss(torch.nn.Module):
        def __init__(self, model, vocab):
            super().__init__()
            self.model, self.vocab = model, vocab

        def forward(self, tokens):
            logits = self.model(tokens)["logits"]
            return torch.nn.functional.cross_entropy(logits.reshape(-1, logits.shape[-1]), tokens.reshape(-1))

    return MaskedLMLoss


def _args(**kwargs):
    from argparse import Namespace

    base = dict(layers=2, embed_dim=32, ffn_embed_dim=64, attention_heads=4, max_positions=64,
                dropout=0.1, attention_dropout=0.1, activation_dropout=0.1, max_tokens_per_msa=2 ** 14, max_tokens=2 ** 14,
                final_bias=True, logit_bias=True, arch="roberta_large", emb_layer_norm_before=False,
                embed_positions_msa=True)
    base.update(kwargs)
    return Namespace(**base)


def _wrap(model, tokens, mode, vocab, **kwargs):
    if mode == "train":
        return _mlm_loss_module()(model, vocab), (tokens,), {}
    return model, (tokens,), kwargs


def _esm2(mode, layers=2, forward=None, **kwargs):
    import esm
    from esm.model.esm2 import ESM2

    alphabet = esm.data.Alphabet.from_architecture("ESM-1b")
    model = ESM2(num_layers=layers, embed_dim=32, attention_heads=4, alphabet=alphabet, **kwargs)
    return _wrap(model, _tokens(alphabet), mode, len(alphabet), **(forward or {"repr_layers": [1]}))


def _esm2_contacts(mode):
    import esm
    from esm.model.esm2 import ESM2

    alphabet = esm.data.Alphabet.from_architecture("ESM-1b")
    model = ESM2(num_layers=2, embed_dim=32, attention_heads=4, alphabet=alphabet)
    return _wrap(model, _tokens(alphabet), mode, len(alphabet), return_contacts=True)


def _esm1(alphabet_name, arch, **forward):
    def make(mode):
        import esm
        from esm.model.esm1 import ProteinBertModel

        alphabet = esm.data.Alphabet.from_architecture(alphabet_name)
        model = ProteinBertModel(_args(arch=arch), alphabet)
        return _wrap(model, _tokens(alphabet), mode, len(alphabet), **(forward or {"repr_layers": [1]}))

    return make


def _msa(**forward):
    def make(mode):
        import esm
        from esm.model.msa_transformer import MSATransformer

        alphabet = esm.data.Alphabet.from_architecture("MSA Transformer")
        model = MSATransformer(_args(layers=2, embed_dim=32, ffn_embed_dim=64, attention_heads=4,
                                     max_positions=64), alphabet)
        return _wrap(model, _tokens(alphabet, msa=3), mode, len(alphabet), **(forward or {"repr_layers": [1]}))

    return make


MODELS = {
    "ESM2": _esm2,
    "ESM2_no_token_dropout": lambda mode: _esm2(mode, token_dropout=False),
    "ESM2_contacts": _esm2_contacts,
    "ESM2_head_weights": lambda mode: _esm2(mode, forward={"need_head_weights": True}),
    "ESM2_three_layers": lambda mode: _esm2(mode, layers=3, forward={"repr_layers": [0, 1, 2, 3]}),
    "ESM1b": _esm1("ESM-1b", "roberta_large"),
    "ESM1b_contacts": _esm1("ESM-1b", "roberta_large", return_contacts=True),
    "ESM1": _esm1("ESM-1", "protein_bert_base"),
    "ESM1_head_weights": _esm1("ESM-1", "protein_bert_base", need_head_weights=True),
    "MSATransformer": _msa(),
    "MSATransformer_contacts": _msa(return_contacts=True),
}
