"""Stanza 1.15.0 (Stanford NLP): its neural pipeline's models built from tiny random configs, no download
(no ``stanza.download``, no ``Pipeline``: each processor's model is built the way its training script
builds it: ``tagger.py`` / ``parser.py`` / ``ner_tagger.py`` / ``tokenizer.py`` / ``mwt_expander.py`` /
``lemmatizer.py`` / ``classifier.py`` / ``constituency_parser.py`` / ``charlm.py`` parse their own
command-line defaults (``parse_args``) with tiny dimensions, the data goes through the library's own
``Document`` / ``CoNLL.conll2doc`` / ``DataLoader`` / ``Dataset`` and vocab builders, and the model
through the library's ``Trainer``), as its tests do (``stanza/tests/pos/test_tagger.py``,
``depparse/test_parser.py``, ``ner/test_ner_training.py``, ``mwt/test_mwt_training.py``,
``lemma/test_lemma_trainer.py``, ``classifiers/test_classifier.py``,
``constituency/test_lstm_model.py`` / ``test_trainer.py``, ``common/test_char_model.py``,
``test_relative_attn.py``, ``test_maxout_linear.py``, ``test_dropout.py``). Data: three UD English
sentences (one with the MWT "It's") in CoNLL-U, three CoNLL-style NER sentences in stanza's json
form, a 3-tree PTB treebank (the constituency tests' shape), four sentiment sentences; the word
vectors are a tiny in-memory ``Pretrain`` (24 words, dim 6) made here (``pt._vocab`` /
``pt._emb``), written once to a temporary file for the constituency parser, which reads its
pretrain by name; no transformer (``bert_model=None``), no pretrained charlm.

Covered (``MODELS``, 30):

- POS ``Tagger`` (the default upos / xpos / feats heads with the char model and pretrain;
  ``--share_hid``; ``--tag_column_link hidden --no_pretrain``);
- dependency parser: ``GraphParser`` (default: linearization / distance terms; with arc embeddings,
  no char model) and the new ``TransitionParser`` (``--model_type transition``);
- ``NERTagger`` (char model, CRF; no char with locked dropout and connected output layers);
- ``Tokenizer`` (default conv filters, hierarchical; ``--conv_res`` with two RNN layers, not
  hierarchical), from a txt / label pair written to a temporary directory as ``tokenizer.train``
  reads them;
- MWT expander: ``Seq2SeqModel`` (copy, greedy), ``Seq2SeqModel`` without copy decoded with a
  beam of 3, ``CharacterClassifier`` (``--force_exact_pieces``, the ``BinaryDataLoader``);
- lemmatizer ``Seq2SeqModel`` (edit classifier, UPOS input, ``MixLoss``; no edit, beam 3);
- sentiment ``CNNClassifier`` (BiLSTM + conv filters; no BiLSTM, maxpool 2, extra concat word
  vectors), built as ``Trainer.build_new_model``'s CNN branch builds it;
- constituency ``LSTMModel`` via ``parser_training.build_trainer`` (in-order transitions with the
  LSTM constituent stack and max composition; top-down with one partitioned-attention layer);
- ``LangIDBiLSTM``; ``CharacterLanguageModel`` (forward and backward);
- building blocks (``stanza.models.common``): ``HighwayLSTM`` on a packed sequence,
  ``DeepBiaffineScorer``, ``CRFLoss`` (+ ``viterbi_decode``), ``CharacterModel``, ``MaxoutLinear``,
  ``RelativeAttention`` (with a sink), the losses (``LargeMarginInSoftmaxLoss``, ``FocalLoss``,
  ``SequenceLoss``, ``MixLoss``), the dropouts (``WordDropout``, ``LockedDropout``,
  ``SequenceUnitDropout``).

Eval: what each ``Trainer.predict`` (or the pipeline's processor) asks of the model: the tagger's
``_, preds = model(...)``, the parsers' ``model.predict(...)`` (Chu-Liu-Edmonds decoding / the
transition loop), the NER model's ``(loss, logits, trans)``, the tokenizer's per-character scores on
raw text (``SortedDataset.collate``), the seq2seq ``model.predict`` (greedy / beam), the MWT
classifier's log-probs, the classifier's logits on token lists, the constituency
``parse_tagged_words`` (what the pipeline calls), ``LangIDBiLSTM.prediction_scores``, the charlm's
``per_char_representation``; the blocks' forward. Train: the loss each ``Trainer.update`` (or
training loop) computes, without its ``backward`` / ``step``: the tagger's / NER's ``loss`` output,
``GraphParser.loss`` / ``TransitionParser.loss``, the tokenizer's cross-entropy on a training batch
(``DataLoader.next`` with unit dropout), ``SequenceLoss`` / packed cross-entropy / ``MixLoss`` for
the seq2seq models, ``classifier.train_model``'s cross-entropy, ``train_model_one_batch``'s
transition loop with ``CrossEntropyLoss(sum)`` (first epoch: gold transitions, no oracle), the
langid ``loss_train``, the charlm's next-character cross-entropy; the blocks through
``mean_loss_module`` (``CRFLoss`` and the losses: their own loss).

    pip install --no-deps stanza==1.15.0 emoji==2.16.0 udtools==0.2.9 udapi==0.5.2 termcolor==3.3.0
    # already there: numpy, networkx, orjson, platformdirs, protobuf, requests, tqdm, regex,
    # colorama, huggingface-hub (stanza's other requirements; ``import stanza`` imports emoji (its
    # langid processor) and udtools, which imports udapi, which imports termcolor)

Nothing stubbed. Measured first as it came, before any rule looked at it (stop 59: first contact).

Capture (torch 2.13.0+cpu): 30 models, 60 runs, 58 ran under Dynamo (none failed);
``Constituency_LSTMModel_top_down_attn`` timed out (eval over the 120 s limit, so its train was not
run). The transition-based parsers' and the decoders' Python loops dominate: Chu-Liu-Edmonds (numpy,
data-dependent shapes), the constituency and transition-parser state machines, the beam search,
``viterbi_decode``. First numbers with the frozen start-of-stop-59 linter (``/tmp/lint-start59``):
graph-break statement recall 0.59 (59/100), precision 0.98 (49/50: one not reproduced, the
``while`` loop of ``depparse/transition/model.py:517``), 408 findings (153 in files run), 103
unjudged (87 not reached, 10 shadowed, 5 one-call, 1 condition not met).

Left out: ``Pipeline`` and every pretrained model (downloads), the transformer paths (``bert_model``,
PEFT; they load Hugging Face models), coreference (``wl_coref``: a transformer encoder), the
lemma classifier (``lemma_classifier``: built on a pretrain file plus a trained lemmatizer's
labels), ``ConstituencyClassifier`` (needs a saved constituency parser), the ensembles, the
morpheme segmenter (``morphseg``, an extra). Library bugs met while choosing configs: the seq2seq
``--attn_type mlp`` / ``linear`` attentions fail in ``LSTMAttention`` (``forward()`` got
``return_logattn``), so the seq2seq entries use the default soft attention; the lemmatizer's POS
embedding is concatenated along the sequence, so ``--pos_dim`` must equal ``--emb_dim``.
"""

PACKAGE = "stanza"

mean_loss_module = None  # adapter.py's, set by ZooSuite

# two sentences of UD English (the shape of stanza's tests' TRAIN_DATA / DEV_DATA), with an MWT
_CONLLU = """# text = DPA: Iraqi authorities announced that they had busted up 3 terrorist cells.
1	DPA	DPA	PROPN	NNP	Number=Sing	0	root	_	SpaceAfter=No
2	:	:	PUNCT	:	_	1	punct	_	_
3	Iraqi	Iraqi	ADJ	JJ	Degree=Pos	4	amod	_	_
4	authorities	authority	NOUN	NNS	Number=Plur	5	nsubj	_	_
5	announced	announce	VERB	VBD	Mood=Ind|Tense=Past|VerbForm=Fin	1	parataxis	_	_
6	that	that	SCONJ	IN	_	9	mark	_	_
7	they	they	PRON	PRP	Case=Nom|Number=Plur	9	nsubj	_	_
8	had	have	AUX	VBD	Mood=Ind|Tense=Past|VerbForm=Fin	9	aux	_	_
9	busted	bust	VERB	VBN	Tense=Past|VerbForm=Part	5	ccomp	_	_
10	up	up	ADP	RP	_	9	compound:prt	_	_
11	3	3	NUM	CD	NumType=Card	13	nummod	_	_
12	terrorist	terrorist	ADJ	JJ	Degree=Pos	13	amod	_	_
13	cells	cell	NOUN	NNS	Number=Plur	9	obj	_	SpaceAfter=No
14	.	.	PUNCT	.	_	1	punct	_	_

# text = From the AP comes this story:
1	From	from	ADP	IN	_	3	case	_	_
2	the	the	DET	DT	Definite=Def|PronType=Art	3	det	_	_
3	AP	AP	PROPN	NNP	Number=Sing	4	obl	_	_
4	comes	come	VERB	VBZ	Mood=Ind|Number=Sing|Person=3|Tense=Pres|VerbForm=Fin	0	root	_	_
5	this	this	DET	DT	Number=Sing|PronType=Dem	6	det	_	_
6	story	story	NOUN	NN	Number=Sing	4	nsubj	_	SpaceAfter=No
7	:	:	PUNCT	:	_	4	punct	_	_

# text = It's all hers!
1-2	It's	_	_	_	_	_	_	_	_
1	It	it	PRON	PRP	Number=Sing|Person=3|PronType=Prs	4	nsubj	_	_
2	's	be	AUX	VBZ	Mood=Ind|Number=Sing|Person=3|Tense=Pres|VerbForm=Fin	4	cop	_	_
3	all	all	DET	DT	Case=Nom	4	det:predet	_	_
4	hers	hers	PRON	PRP	Gender=Fem|Number=Sing|Person=3|Poss=Yes|PronType=Prs	0	root	_	SpaceAfter=No
5	!	!	PUNCT	.	_	4	punct	_	_

"""

_NER = [  # the NER json format ner_tagger.py reads (a list of sentences of {"text", "ner"})
    [{"text": "EU", "ner": "B-ORG"}, {"text": "rejects", "ner": "O"}, {"text": "German", "ner": "B-MISC"},
     {"text": "call", "ner": "O"}, {"text": "to", "ner": "O"}, {"text": "boycott", "ner": "O"},
     {"text": "British", "ner": "B-MISC"}, {"text": "lamb", "ner": "O"}, {"text": ".", "ner": "O"}],
    [{"text": "Peter", "ner": "B-PER"}, {"text": "Blackburn", "ner": "I-PER"}, {"text": "lives", "ner": "O"},
     {"text": "in", "ner": "O"}, {"text": "New", "ner": "B-LOC"}, {"text": "York", "ner": "I-LOC"},
     {"text": "City", "ner": "I-LOC"}],
    [{"text": "The", "ner": "O"}, {"text": "European", "ner": "B-ORG"}, {"text": "Commission", "ner": "I-ORG"},
     {"text": "said", "ner": "O"}, {"text": "on", "ner": "O"}, {"text": "Thursday", "ner": "O"}],
]

_WORDS = ["the", "authorities", "story", "this", "they", "from", "comes", ":", ".", "all", "it", "up", "new",
          "york", "city", "peter", "lives", "in", "said", "european", "commission", "call", "to", "german"]


def warm_up():
    import torch  # noqa: F401

    import stanza  # noqa: F401
    import stanza.models.depparse.trainer  # noqa: F401
    import stanza.models.ner.trainer  # noqa: F401
    import stanza.models.pos.trainer  # noqa: F401


def _quiet():
    import logging

    logging.getLogger("stanza").setLevel(logging.ERROR)


def _pretrain(dim=6):
    """A tiny in-memory ``Pretrain`` (what a ``--wordvec_pretrain_file`` holds: a vocab and its vectors)."""
    import torch

    from stanza.models.common.pretrain import Pretrain, PretrainedWordVocab

    pt = Pretrain()
    pt._vocab = PretrainedWordVocab(_WORDS, lang="en")
    pt._emb = torch.randn(len(pt._vocab), dim)
    return pt


def _doc():
    from stanza.utils.conll import CoNLL

    return CoNLL.conll2doc(input_str=_CONLLU)


def _method_cls():
    import torch

    class Call(torch.nn.Module):
        """``net.<method>(*args)``, picking one output (the trainers' ``loss, _ = self.model(...)``)."""

        def __init__(self, net, method="forward", pick=None):
            super().__init__()
            self.net = net
            self.method = method
            self.pick = pick

        def forward(self, *args, **kwargs):
            out = getattr(self.net, self.method)(*args, **kwargs)
            return out if self.pick is None else out[self.pick]

    return Call


def _call(net, method="forward", pick=None):
    return _method_cls()(net, method, pick)


# --- POS tagger ------------------------------------------------------------------------------------

_POS_TINY = ["--shorthand", "en_test", "--lang", "en", "--cpu", "--word_cutoff", "0", "--batch_size", "4",
             "--hidden_dim", "12", "--char_hidden_dim", "12", "--deep_biaff_hidden_dim", "12",
             "--composite_deep_biaff_hidden_dim", "8", "--word_emb_dim", "8", "--char_emb_dim", "8",
             "--tag_emb_dim", "8", "--transformed_dim", "8"]


def _pos_entry(*extra):
    def make(mode):
        from stanza.models import tagger
        from stanza.models.pos.data import Dataset
        from stanza.models.pos.tag_columns import tag_columns_from_args
        from stanza.models.pos.trainer import Trainer, unpack_batch

        _quiet()
        args = tagger.parse_args(_POS_TINY + list(extra))
        pt = _pretrain() if args["pretrain"] else None
        doc = _doc()
        columns = tag_columns_from_args(args)
        vocab = Dataset.init_vocab([doc], args, columns)
        data = Dataset(doc, args, pt, vocab=vocab, evaluation=mode != "train", tag_columns=columns,
                       sort_during_eval=True)
        batch = next(iter(data.to_loader(batch_size=4)))
        trainer = Trainer(args=args, vocab=vocab, pretrain=pt, device="cpu")
        inputs, _, word_orig_idx, sentlens, wordlens, text = unpack_batch(batch, "cpu")
        call_args = (*inputs, word_orig_idx, sentlens, wordlens, text)
        # train: ``loss, _ = self.model(...)`` (Trainer.update); eval: ``_, preds = self.model(...)`` (predict)
        return _call(trainer.model, pick=0 if mode == "train" else 1), call_args, {}

    return make


# --- dependency parser -----------------------------------------------------------------------------

_PARSER_TINY = ["--shorthand", "en_test", "--lang", "en", "--cpu", "--word_cutoff", "0", "--batch_size", "200",
                "--hidden_dim", "12", "--char_hidden_dim", "12", "--deep_biaff_hidden_dim", "12",
                "--deep_biaff_output_dim", "8", "--word_emb_dim", "8", "--char_emb_dim", "8", "--tag_emb_dim", "8",
                "--transformed_dim", "8", "--num_layers", "2",
                "--transition_merge_words_output_dim", "8"]


def _parser_entry(*extra):
    def make(mode):
        from stanza.models import parser
        from stanza.models.depparse.data import DataLoader
        from stanza.models.depparse.trainer import GraphTrainer, TransitionTrainer, unpack_batch

        _quiet()
        args = parser.parse_args(_PARSER_TINY + list(extra))
        pt = _pretrain() if args["pretrain"] else None
        doc = _doc()
        train_batch = DataLoader(doc, args["batch_size"], args, pt, evaluation=False)
        vocab = train_batch.vocab
        loader = train_batch if mode == "train" else DataLoader(doc, args["batch_size"], args, pt, vocab=vocab,
                                                                 evaluation=True, sort_during_eval=True)
        batch = next(iter(loader))
        cls = TransitionTrainer if args["model_type"] == "transition" else GraphTrainer
        trainer = cls(args=args, vocab=vocab, pretrain=pt, device="cpu")
        inputs, _, word_orig_idx, sentlens, wordlens, text = unpack_batch(batch, "cpu")
        call_args = (*inputs, word_orig_idx, sentlens, wordlens, text)
        # train: ``loss, batch_stats = self.model.loss(...)``; eval: ``self.model.predict(...)`` (CLE decoding)
        if mode == "train":
            return _call(trainer.model, "loss", pick=0), call_args, {}
        return _call(trainer.model, "predict"), call_args, {}

    return make


# --- NER tagger ------------------------------------------------------------------------------------

_NER_TINY = ["--shorthand", "en_test", "--cpu", "--batch_size", "4", "--hidden_dim", "12",
             "--char_hidden_dim", "8", "--word_emb_dim", "6", "--char_emb_dim", "6"]


def _ner_entry(*extra):
    def make(mode):
        from stanza.models import ner_tagger
        from stanza.models.common.doc import Document
        from stanza.models.ner.data import DataLoader
        from stanza.models.ner.trainer import Trainer, unpack_batch

        _quiet()
        args = ner_tagger.parse_args(_NER_TINY + list(extra))
        pt = _pretrain() if args["pretrain"] else None
        if pt is not None:
            args["word_emb_dim"] = pt.emb.shape[1]
        doc = Document(_NER)
        train_batch = DataLoader(doc, args["batch_size"], args, pt, evaluation=False)
        vocab = train_batch.vocab
        loader = train_batch if mode == "train" else DataLoader(doc, args["batch_size"], args, pt, vocab=vocab,
                                                                 evaluation=True)
        batch = loader[0]
        trainer = Trainer(args=args, vocab=vocab, pretrain=pt, device="cpu")
        inputs, _, word_orig_idx, char_orig_idx, sentlens, wordlens, charlens, charoffsets = unpack_batch(batch, "cpu")
        word, wordchars, wordchars_mask, chars, tags = inputs
        call_args = (word, wordchars, wordchars_mask, tags, word_orig_idx, sentlens, wordlens, chars, charoffsets,
                     charlens, char_orig_idx)
        # train: ``loss, _, _ = self.model(...)``; eval: ``_, logits, trans = self.model(...)`` (then Viterbi)
        if mode == "train":
            return _call(trainer.model, pick=0), call_args, {}
        return trainer.model, call_args, {}

    return make



# --- tokenizer ---------------------------------------------------------------------------------------

_TOK_TEXT = "DPA: Iraqi authorities announced that they had busted up 3 terrorist cells.  From the AP comes this story: It's all hers!\n\nPeter Blackburn lives in New York City."
_TOK_TINY = ["--shorthand", "en_test", "--lang", "en", "--cpu", "--emb_dim", "8", "--hidden_dim", "12", "--batch_size", "4"]


def _tok_labels(text):
    """The tokenizer's label file: per character 1 = end of token, 2 = end of sentence, 3 = end of an MWT."""
    labels = []
    for para in text.split("\n\n"):
        lab = ["0"] * len(para)
        i = 0
        while i < len(para):
            if para[i] == " ":
                i += 1
                continue
            j = i
            while j < len(para) and para[j] != " ":
                j += 1
            word = para[i:j]
            if word[-1] in ".:!" and len(word) > 1:  # split trailing punctuation
                lab[j - 2] = "3" if "'" in word else "1"
                lab[j - 1] = "2" if word[-1] in ".!" else "1"
            else:
                lab[j - 1] = "3" if "'" in word else "1"
            i = j
        labels.append("".join(lab))
    return "\n\n".join(labels)


def _tokenizer_entry(*extra):
    def make(mode):
        import os
        import tempfile

        import torch

        from stanza.models import tokenizer
        from stanza.models.tokenization.data import DataLoader, SortedDataset, TokenizationDataset
        from stanza.models.tokenization.trainer import Trainer

        _quiet()
        args = tokenizer.parse_args(_TOK_TINY + list(extra))
        args["feat_funcs"] = tokenizer.DEFAULT_FEAT_FUNCS
        args["feat_dim"] = len(args["feat_funcs"])
        args["num_dict_feat"] = 0
        with tempfile.TemporaryDirectory() as tmp:  # the txt / label pair ``tokenizer.train`` reads
            files = {"txt": os.path.join(tmp, "train.txt"), "label": os.path.join(tmp, "train.labels")}
            with open(files["txt"], "w", encoding="utf-8") as f:
                f.write(_TOK_TEXT)
            with open(files["label"], "w", encoding="utf-8") as f:
                f.write(_tok_labels(_TOK_TEXT))
            train_batches = DataLoader(args, input_files=files, mwt_expansions={})
        vocab = train_batches.vocab
        args["vocab_size"] = len(vocab)
        if args["use_mwt"] is None:
            args["use_mwt"] = train_batches.has_mwt()
        trainer = Trainer(args=args, vocab=vocab, device="cpu")
        if mode == "train":
            units, labels, features, text = train_batches.next(unit_dropout=args["unit_dropout"],
                                                               feat_unit_dropout=args["feat_unit_dropout"])
        else:  # what ``output_predictions`` feeds ``trainer.predict`` for raw text
            data = SortedDataset(TokenizationDataset(args, input_text=_TOK_TEXT, vocab=vocab, evaluation=True))
            units, labels, features, text = data.collate([data[i] for i in range(len(data))])
        lengths = [len(x) for x in text]

        class TokenizerStep(torch.nn.Module):
            """``Trainer.update``: the tokenizer's per-character scores, then its cross-entropy."""

            def __init__(self):
                super().__init__()
                self.model = trainer.model
                self.criterion = trainer.criterion

            def forward(self, units, features, labels):
                pred = self.model(units, features, lengths, text)
                classes = pred.size(2)
                return self.criterion(pred.view(-1, classes), labels.view(-1))

        if mode == "train":
            return TokenizerStep(), (units, features, labels), {}
        return trainer.model, (units, features, lengths, text), {}

    return make


# --- MWT expander ------------------------------------------------------------------------------------

_MWT_TINY = ["--shorthand", "en_test", "--lang", "en", "--cpu", "--hidden_dim", "12", "--emb_dim", "8",
             "--batch_size", "4", "--max_dec_len", "12"]


def _mwt_entry(*extra, beam=1):
    def make(mode):
        import torch

        from stanza.models import mwt_expander
        from stanza.models.mwt.data import BinaryDataLoader, DataLoader
        from stanza.models.mwt.trainer import Trainer, unpack_batch

        _quiet()
        args = mwt_expander.parse_args(_MWT_TINY + list(extra))
        args = args if isinstance(args, dict) else vars(args)
        if args["num_layers"] is None:
            args["num_layers"] = 2 if args["force_exact_pieces"] else 1
        doc = _doc()
        loader_cls = BinaryDataLoader if args["force_exact_pieces"] else DataLoader
        train_batch = loader_cls(doc, args["batch_size"], args, evaluation=False)
        vocab = train_batch.vocab
        args["vocab_size"] = vocab.size
        args["beam_size"] = beam
        trainer = Trainer(args=args, vocab=vocab, device="cpu")
        loader = train_batch if mode == "train" else loader_cls(doc, args["batch_size"], args, vocab=vocab,
                                                                 evaluation=True)
        inputs, _, _ = unpack_batch(next(iter(loader.to_loader())), "cpu")
        src, src_mask, tgt_in, tgt_out = inputs
        exact = args["force_exact_pieces"]

        class MWTStep(torch.nn.Module):
            """``Trainer.update``'s loss: seq2seq (``SequenceLoss``) or the exact-pieces classifier (packed CE)."""

            def __init__(self):
                super().__init__()
                self.model = trainer.model
                self.crit = trainer.crit

            def forward(self, src, src_mask, tgt_in, tgt_out):
                if exact:
                    log_probs = self.model(src, src_mask)
                    src_lens = list(src_mask.data.eq(0).long().sum(1))
                    packed_output = torch.nn.utils.rnn.pack_padded_sequence(log_probs, src_lens, batch_first=True)
                    packed_tgt = torch.nn.utils.rnn.pack_padded_sequence(tgt_in, src_lens, batch_first=True)
                    return self.crit(packed_output.data, packed_tgt.data)
                log_probs, _ = self.model(src, src_mask, tgt_in)
                return self.crit(log_probs.view(-1, vocab.size), tgt_out.view(-1))

        if mode == "train":
            return MWTStep(), (src, src_mask, tgt_in, tgt_out), {}
        if exact:  # ``Trainer.predict``: the classifier's per-character log-probs
            return trainer.model, (src, src_mask), {}
        return _call(trainer.model, "predict"), (src, src_mask), {"beam_size": beam}

    return make


# --- lemmatizer ----------------------------------------------------------------------------------------

_LEMMA_TINY = ["--shorthand", "en_test", "--cpu", "--hidden_dim", "12", "--emb_dim", "8",
               "--pos_dim", "8", "--batch_size", "50", "--max_dec_len", "12"]


def _lemma_entry(*extra, beam=1):
    def make(mode):
        import torch

        from stanza.models import lemmatizer
        from stanza.models.lemma.data import DataLoader
        from stanza.models.lemma.trainer import Trainer, unpack_batch

        _quiet()
        args = lemmatizer.parse_args(_LEMMA_TINY + list(extra))
        doc = _doc()
        train_batch = DataLoader(doc, args["batch_size"], args, evaluation=False)
        vocab = train_batch.vocab
        args["vocab_size"] = vocab["char"].size
        args["pos_vocab_size"] = vocab["pos"].size
        trainer = Trainer(args=args, vocab=vocab, device="cpu")
        loader = train_batch if mode == "train" else DataLoader(doc, args["batch_size"], args, vocab=vocab,
                                                                 evaluation=True)
        inputs, _, text = unpack_batch(loader[0], "cpu")
        src, src_mask, tgt_in, tgt_out, pos, edits = inputs
        edit = args.get("edit", False)

        class LemmaStep(torch.nn.Module):
            """``Trainer.update``'s loss: ``MixLoss`` (characters + edit classes) or ``SequenceLoss``."""

            def __init__(self):
                super().__init__()
                self.model = trainer.model
                self.crit = trainer.crit

            def forward(self, src, src_mask, tgt_in, tgt_out, pos, edits):
                log_probs, edit_logits = self.model(src, src_mask, tgt_in, pos, raw=text)
                if edit:
                    return self.crit(log_probs.view(-1, vocab["char"].size), tgt_out.view(-1), edit_logits, edits)
                return self.crit(log_probs.view(-1, vocab["char"].size), tgt_out.view(-1))

        if mode == "train":
            return LemmaStep(), (src, src_mask, tgt_in, tgt_out, pos, edits), {}
        # ``Trainer.predict``: greedy or beam decoding
        return _call(trainer.model, "predict"), (src, src_mask), {"pos": pos, "beam_size": beam, "raw": text}

    return make


# --- sentiment classifier (CNN classifier) -------------------------------------------------------------

_SENTIMENT = [("2", "the story comes from the authorities"), ("0", "they said this story is all lies"),
              ("1", "peter lives in new york city"), ("2", "the european commission said it was a great call")]
_CLS_TINY = ["--shorthand", "en_test", "--cpu", "--filter_sizes", "(3,)", "--filter_channels", "4", "--fc_shapes", "8",
             "--bilstm_hidden_dim", "6", "--batch_size", "4"]


def _classifier_entry(*extra):
    def make(mode):
        import torch

        from stanza.models import classifier
        from stanza.models.classifiers import cnn_classifier, data

        _quiet()
        args = classifier.parse_args(_CLS_TINY + list(extra))
        train_set = [data.SentimentDatum(label, text.split()) for label, text in _SENTIMENT]
        labels = data.dataset_labels(train_set)
        # Trainer.build_new_model's CNN branch, with the pretrain made here rather than read from a file
        model = cnn_classifier.CNNClassifier(pretrain=_pretrain(), extra_vocab=data.dataset_vocab(train_set),
                                             labels=labels, charmodel_forward=None, charmodel_backward=None,
                                             elmo_model=None, bert_model=None, bert_tokenizer=None,
                                             force_bert_saved=False, peft_name=None, args=args)
        label_map = {x: y for (y, x) in enumerate(labels)}
        batch_labels = torch.tensor([label_map[x.sentiment] for x in train_set])

        class ClassifierStep(torch.nn.Module):
            """``classifier.train_model``'s batch: ``outputs = model(batch)``, ``loss_function(outputs, labels)``."""

            def __init__(self):
                super().__init__()
                self.model = model
                self.loss_function = torch.nn.CrossEntropyLoss()

            def forward(self, batch, batch_labels):
                return self.loss_function(self.model(batch), batch_labels)

        if mode == "train":
            return ClassifierStep(), (train_set, batch_labels), {}
        return model, ([x.text for x in train_set],), {}  # ``dataset_predictions``: raw token lists

    return make


# --- constituency parser ---------------------------------------------------------------------------------

_TREEBANK = """
( (S (VP (VBG Enjoying) (NP (PRP$  my) (JJ favorite) (NN Friday) (NN tradition))) (. .)))
( (NP (VP (VBG Sitting) (PP (IN in) (NP (DT a) (JJ crowded) (NN restaurant)))) (. .)))
( (S (NP (PRP They)) (VP (VBD said) (NP (DT this) (NN story))) (. .)))
"""
_CON_TINY = ["--shorthand", "en_test", "--lang", "en", "--cpu", "--no_multistage", "--hidden_size", "16",
             "--transition_hidden_size", "8", "--tag_embedding_dim", "4", "--delta_embedding_dim", "4",
             "--transition_embedding_dim", "4", "--constituent_stack", "lstm", "--pattn_num_layers", "0",
             "--lattn_d_proj", "0", "--num_tree_lstm_layers", "1", "--constituency_composition", "max"]


_PRETRAIN_FILE = []


def _pretrain_file():
    """The tiny pretrain written once to a temporary file (the constituency parser reads it by name)."""
    import os
    import tempfile

    if not _PRETRAIN_FILE:
        path = os.path.join(tempfile.mkdtemp(prefix="stanza_zoo_"), "tiny_pretrain.pt")
        _pretrain().save(path)
        _PRETRAIN_FILE.append(path)
    return _PRETRAIN_FILE[0]


def _constituency_entry(*extra):
    def make(mode):
        import torch

        from stanza.models import constituency_parser
        from stanza.models.common.foundation_cache import FoundationCache
        from stanza.models.constituency import parser_training, tree_reader

        _quiet()
        trees = tree_reader.read_trees(_TREEBANK)
        args = constituency_parser.parse_args(["--wordvec_pretrain_file", _pretrain_file()] + _CON_TINY + list(extra))
        trainer, train_sequences, _, _ = parser_training.build_trainer(args, trees, trees[-1:], [], FoundationCache(),
                                                                      None)
        model = trainer.model
        if mode != "train":  # what the pipeline's constituency processor calls
            tagged = [[(pt.children[0].label, pt.label) for pt in tree.yield_preterminals()] for tree in trees]
            return _call(model, "parse_tagged_words"), (tagged, 4), {}

        train_data = parser_training.compose_train_data(trees, train_sequences)
        transition_tensors = {x: torch.tensor(y, requires_grad=False).unsqueeze(0)
                              for (y, x) in enumerate(trainer.transitions)}

        class ConstituencyStep(torch.nn.Module):
            """``train_model_one_batch`` (first epoch: no oracle, so the gold transition is applied): the states
            from the gold trees, ``model.predict`` until every tree is built, CrossEntropyLoss(sum)."""

            def __init__(self):
                super().__init__()
                self.model = model
                self.loss_function = torch.nn.CrossEntropyLoss(reduction="sum")

            def forward(self, batch):
                current = self.model.initial_state_from_preterminals([x.preterminals for x in batch],
                                                                     [x.tree for x in batch],
                                                                     [x.gold_sequence for x in batch])
                all_errors, all_answers = [], []
                while len(current) > 0:
                    outputs, pred_transitions, _ = self.model.predict(current, is_legal=False)
                    gold = [x.gold_sequence[x.num_transitions] for x in current]
                    all_errors.append(outputs)
                    all_answers.extend(transition_tensors[g] for g in gold)
                    new_batch, update = [], []
                    for g, state in zip(gold, current):
                        if state.num_transitions + 1 < len(state.gold_sequence):
                            new_batch.append(state)
                            update.append(g)
                    current = self.model.bulk_apply(new_batch, update, fail=True)
                return self.loss_function(torch.cat(all_errors), torch.cat(all_answers))

        return ConstituencyStep(), (train_data,), {}

    return make


# --- language identification ------------------------------------------------------------------------------


def _langid(mode):
    import torch

    from stanza.models.langid.model import LangIDBiLSTM

    chars = ["<PAD>", "<UNK>"] + sorted(set("".join(t for _, t in _SENTIMENT)))
    char_to_idx = {c: i for i, c in enumerate(chars)}
    tag_to_idx = {"en": 0, "fr": 1, "de": 2}
    model = LangIDBiLSTM(char_to_idx, tag_to_idx, num_layers=1, embedding_dim=8, hidden_dim=8, batch_size=4)
    texts = [t for _, t in _SENTIMENT]
    width = max(len(t) for t in texts)
    x = torch.tensor([[char_to_idx.get(c, 1) for c in t] + [0] * (width - len(t)) for t in texts])
    y = torch.tensor([0, 1, 2, 0])

    class LangIDStep(torch.nn.Module):
        """The langid trainer's step: the model's scores, ``model.loss_train`` against the language ids."""

        def __init__(self):
            super().__init__()
            self.model = model

        def forward(self, x, y):
            return self.model.loss_train(self.model(x), y)

    if mode == "train":
        return LangIDStep(), (x, y), {}
    return _call(model, "prediction_scores"), (x,), {}


# --- character language model -------------------------------------------------------------------------------


def _charlm_entry(is_forward_lm=True):
    def make(mode):
        import torch

        from stanza.models import charlm
        from stanza.models.common.char_model import CharacterLanguageModel
        from stanza.models.common.vocab import CharVocab

        _quiet()
        args = charlm.parse_args(["--shorthand", "en_test", "--cpu", "--char_emb_dim", "8", "--char_hidden_dim", "12",
                                  "--bptt_size", "16", "--batch_size", "2"])
        text = " ".join(t for _, t in _SENTIMENT)
        vocab = {"char": CharVocab([text])}
        model = CharacterLanguageModel(args, vocab, is_forward_lm=is_forward_lm)
        ids = torch.tensor(vocab["char"].map(list(text if is_forward_lm else text[::-1])))
        n = (len(ids) - 1) // 2
        data = ids[: 2 * n].view(2, n)[:, :16]
        target = ids[1: 2 * n + 1].view(2, n)[:, :16]
        lens = [data.size(1)] * data.size(0)

        class CharLMStep(torch.nn.Module):
            """``charlm.train_epoch``'s step: ``model.forward(data, lens, hidden)``, CE on the next characters."""

            def __init__(self):
                super().__init__()
                self.model = model
                self.criterion = torch.nn.CrossEntropyLoss()

            def forward(self, data, target):
                output, hidden, decoded = self.model.forward(data, lens)
                return self.criterion(decoded.view(-1, len(vocab["char"])), target.reshape(-1))

        if mode == "train":
            return CharLMStep(), (data, target), {}
        words = text.split()[:8]  # what a charlm-backed tagger asks of it
        return _call(model, "per_char_representation"), (words,), {}

    return make


# --- building blocks of the models (stanza.models.common) --------------------------------------------------


def _highway_lstm(mode):
    import torch
    from torch.nn.utils.rnn import pack_padded_sequence

    from stanza.models.common.hlstm import HighwayLSTM

    net = HighwayLSTM(8, 6, num_layers=2, batch_first=True, dropout=0.1, bidirectional=True, rec_dropout=0.1,
                      highway_func=torch.tanh)

    class Packed(torch.nn.Module):
        def __init__(self):
            super().__init__()
            self.net = net

        def forward(self, x, lens):  # as the tagger / parser call it: a packed sequence and its lengths
            out = self.net(pack_padded_sequence(x, lens, batch_first=True), lens)[0]
            return out.data

    return _maybe_mean(mode, Packed()), (torch.randn(3, 7, 8), [7, 5, 2]), {}


def _maybe_mean(mode, net):
    return mean_loss_module()(net) if mode == "train" else net


def _deep_biaffine(mode):
    import torch

    from stanza.models.common.biaffine import DeepBiaffineScorer

    net = DeepBiaffineScorer(8, 8, 6, 3, pairwise=True, dropout=0.1)
    return _maybe_mean(mode, net), (torch.randn(2, 5, 8), torch.randn(2, 5, 8)), {}


def _crf_loss(mode):
    import torch

    from stanza.models.common.crf import CRFLoss, viterbi_decode

    crf = CRFLoss(5)
    inputs, masks = torch.randn(2, 6, 5), torch.zeros(2, 6, dtype=torch.bool)
    masks[1, 4:] = True
    tags = torch.randint(0, 5, (2, 6))
    if mode == "train":  # ``loss, trans = self.crit(...)`` in ``NERTagger.forward``
        return _call(crf, pick=0), (inputs, masks, tags), {}

    class CRFDecode(torch.nn.Module):
        """What ``NERTagger``'s trainer does with the scores: the CRF loss, then Viterbi on each sentence."""

        def __init__(self):
            super().__init__()
            self.crf = crf

        def forward(self, inputs, masks, tags):
            loss, trans = self.crf(inputs, masks, tags)
            trans = trans.data.cpu().numpy()
            paths = [viterbi_decode(x.data.cpu().numpy(), trans)[0] for x in inputs]
            return loss, paths

    return CRFDecode(), (inputs, masks, tags), {}


def _character_model(mode):
    import torch

    from stanza.models.common.char_model import CharacterModel
    from stanza.models.common.vocab import CharVocab

    args = {"char_emb_dim": 6, "char_hidden_dim": 8, "char_num_layers": 1, "dropout": 0.1, "char_rec_dropout": 0.0}
    vocab = {"char": CharVocab([[["authorities"], ["story"], ["they"]]])}
    net = CharacterModel(args, vocab, pad=True, bidirectional=True)
    words = ["authorities", "story", "they", "the"]
    chars = torch.tensor([vocab["char"].map(list(w)) + [0] * (11 - len(w)) for w in words])
    mask = chars.eq(0)
    return _maybe_mean(mode, net), (chars, mask, [0, 1, 2, 3], [2, 2], [len(w) for w in words]), {}


def _maxout_linear(mode):
    import torch

    from stanza.models.common.maxout_linear import MaxoutLinear

    return _maybe_mean(mode, MaxoutLinear(8, 4, maxout_k=3)), (torch.randn(5, 8),), {}


def _relative_attention(mode):
    import torch

    from stanza.models.common.relative_attn import RelativeAttention

    net = RelativeAttention(8, 2, window=3, dropout=0.1, num_sinks=1)
    return _maybe_mean(mode, net), (torch.randn(2, 6, 8),), {}


def _losses(mode):
    import torch

    from stanza.models.common.large_margin_loss import LargeMarginInSoftmaxLoss
    from stanza.models.common.loss import FocalLoss, MixLoss, SequenceLoss

    class Losses(torch.nn.Module):
        """The losses stanza's trainers choose between (constituency, classifier, seq2seq, lemmatizer)."""

        def __init__(self):
            super().__init__()
            self.proj = torch.nn.Linear(6, 5)
            self.large_margin = LargeMarginInSoftmaxLoss(reg_lambda=0.3, reduction="sum")
            self.focal = FocalLoss(gamma=2.0)
            self.seq = SequenceLoss(5)
            self.mix = MixLoss(5, 1.0)

        def forward(self, x, y, edit_logits, edits):
            logits = self.proj(x)
            log_probs = torch.log_softmax(logits, dim=-1)
            return (self.large_margin(logits, y) + self.focal(logits, y) + self.seq(log_probs, y)
                    + self.mix(log_probs, y, edit_logits, edits))

    y = torch.tensor([1, 2, 3, 4, 0, 2])
    y[4] = 1
    return Losses(), (torch.randn(6, 6), y, torch.randn(3, 4), torch.tensor([0, 1, 3])), {}


def _dropouts(mode):
    import torch

    from stanza.models.common.dropout import LockedDropout, SequenceUnitDropout, WordDropout

    class Dropouts(torch.nn.Module):
        """The dropouts the taggers apply to word embeddings, LSTM inputs and character ids."""

        def __init__(self):
            super().__init__()
            self.emb = torch.nn.Embedding(10, 6)
            self.word = WordDropout(0.3)
            self.locked = LockedDropout(0.3)
            self.unit = SequenceUnitDropout(0.3, 1)

        def forward(self, ids):
            ids = self.unit(ids)
            x = self.emb(ids)
            return self.locked(self.word(x))

    return _maybe_mean(mode, Dropouts()), (torch.randint(2, 10, (3, 7)),), {}

MODELS = {
    "POS_Tagger": _pos_entry(),
    "POS_Tagger_share_hid": _pos_entry("--share_hid"),
    "POS_Tagger_hidden_link_no_pretrain": _pos_entry("--tag_column_link", "hidden", "--no_pretrain"),
    "Depparse_GraphParser": _parser_entry(),
    "Depparse_GraphParser_arc_embedding": _parser_entry("--use_arc_embedding", "--no_linearization", "--no_distance",
                                                        "--no_char"),
    "Depparse_TransitionParser": _parser_entry("--model_type", "transition"),
    "NER_Tagger": _ner_entry(),
    "NER_Tagger_no_char_locked_dropout": _ner_entry("--no_char", "--locked_dropout", "0.1", "--connect_output_layers"),
    "Tokenizer": _tokenizer_entry(),
    "Tokenizer_conv_res_2layer": _tokenizer_entry("--conv_res", "1,3", "--rnn_layers", "2", "--no-hierarchical"),
    "MWT_Seq2Seq": _mwt_entry("--no_force_exact_pieces"),
    "MWT_Seq2Seq_beam": _mwt_entry("--no_force_exact_pieces", "--no_copy", beam=3),
    "MWT_CharacterClassifier": _mwt_entry("--force_exact_pieces"),
    "Lemmatizer_Seq2Seq": _lemma_entry(),
    "Lemmatizer_Seq2Seq_beam_no_edit": _lemma_entry("--no_edit", beam=3),
    "Sentiment_CNNClassifier": _classifier_entry(),
    "Sentiment_CNNClassifier_no_bilstm_maxpool": _classifier_entry("--no_bilstm", "--maxpool_width", "2",
                                                                   "--extra_wordvec_dim", "4", "--extra_wordvec_method", "concat"),
    "Constituency_LSTMModel_in_order": _constituency_entry(),
    "Constituency_LSTMModel_top_down_attn": _constituency_entry("--transition_scheme", "TOP_DOWN", "--pattn_num_layers",
                                                                "1", "--pattn_d_model", "16", "--pattn_num_heads", "2"),
    "LangID_BiLSTM": _langid,
    "CharLM_forward": _charlm_entry(True),
    "CharLM_backward": _charlm_entry(False),
    "HighwayLSTM": _highway_lstm,
    "DeepBiaffineScorer": _deep_biaffine,
    "CRFLoss": _crf_loss,
    "CharacterModel": _character_model,
    "MaxoutLinear": _maxout_linear,
    "RelativeAttention": _relative_attention,
    "Losses": _losses,
    "Dropouts": _dropouts,
}
