"""torch.nn modules and functionals that read their inputs' values in Python before they
compute (compilelint.knowledge's rows for them): Dynamo breaks the graph on the value. Each
measured on torch 2.13.0 and 2.14.1 with its corpus cases."""

from compilelint.knowledge_entry import Entry

# `F.gaussian_nll_loss` checks `if torch.any(var < 0): raise` (darts' Gaussian likelihood)
GAUSSIAN_NLL = (
    Entry(("torch.nn.functional.gaussian_nll_loss",), "untraceable", "CL119", "GB0033",
          "Data dependent operator (it checks `if torch.any(var < 0): raise` on the variances' values)",
          "`nn.GaussianNLLLoss` the same; clamp the variance and write the loss out "
          "(`0.5 * (torch.log(var) + (input - target) ** 2 / var)`), which is traced",
          ("kn_gaussian_nll_01",), "2.13.0, 2.14.1", traced=("clean_kn_gaussian_nll_01",)),
    Entry(("torch.nn.GaussianNLLLoss", "torch.nn.modules.loss.GaussianNLLLoss"), "untraceable", "CL119", "GB0033",
          "Data dependent operator (it calls `F.gaussian_nll_loss`, which tests the variances' values)",
          "clamp the variance and write the loss out, which is traced",
          ("kn_gaussian_nll_01",), "2.13.0, 2.14.1", form="instance", traced=("clean_kn_gaussian_nll_01",)),
)

# `_detect_is_causal_mask`: given a mask and no `is_causal`, `bool((mask == causal).all())`
# (darts' TransformerModel); the row holds only for the calls that pass the mask (`masked`)
TRANSFORMER_MASKS = (
    Entry(("torch.nn.TransformerEncoder", "torch.nn.modules.transformer.TransformerEncoder"), "untraceable", "CL119",
          "GB0124", "Unsupported Tensor.item() call (`_detect_is_causal_mask`: `bool((mask == causal).all())`)",
          "pass `is_causal=True` (or `False`) with the mask, and torch skips the comparison",
          ("kn_transformer_mask_01",), "2.13.0, 2.14.1", form="instance", masked=((1, "mask", "is_causal"),),
          why="given a mask and no `is_causal`, it reads whether the mask is causal from its values",
          traced=("clean_kn_transformer_mask_01",)),
    Entry(("torch.nn.TransformerDecoder", "torch.nn.modules.transformer.TransformerDecoder"), "untraceable", "CL119",
          "GB0124", "Unsupported Tensor.item() call (`_detect_is_causal_mask`: `bool((mask == causal).all())`)",
          "pass `tgt_is_causal=True` (or `False`) with `tgt_mask`, and torch skips the comparison",
          ("kn_transformer_mask_01",), "2.13.0, 2.14.1", form="instance", masked=((2, "tgt_mask", "tgt_is_causal"),),
          why="given a `tgt_mask` and no `tgt_is_causal`, it reads whether the mask is causal from its values",
          traced=("clean_kn_transformer_mask_01",)),
    Entry(("torch.nn.Transformer", "torch.nn.modules.transformer.Transformer"), "untraceable", "CL119", "GB0124",
          "Unsupported Tensor.item() call (`_detect_is_causal_mask`: `bool((mask == causal).all())`)",
          "pass `src_is_causal` / `tgt_is_causal` with the masks, and torch skips the comparison",
          ("kn_transformer_mask_01",), "2.13.0, 2.14.1", form="instance",
          masked=((2, "src_mask", "src_is_causal"), (3, "tgt_mask", "tgt_is_causal")),
          why="given a mask and no `is_causal` for it, it reads whether the mask is causal from its values",
          traced=("clean_kn_transformer_mask_01",)),
)
