"""segment-anything (Meta's SAM): ``Sam`` built as ``build_sam.py`` wires it (``ImageEncoderViT``
with windowed + global attention and relative positions, ``PromptEncoder``, ``MaskDecoder``
over a ``TwoWayTransformer``) with every size shrunk (a 64x64 image, 16-pixel patches so a
4x4 embedding grid, width 32, depth 2, 2 heads, window 2), random weights. The models: the
full ``Sam.forward`` per prompt kind (points, boxes, points + boxes, mask input, none; one
and several masks; two images of different prompts and a padded, resized image), the image
encoder alone (windowed + global with relative positions as SAM has it, global only,
windows that need padding, no absolute position with resized relative positions), the
prompt encoder alone per prompt kind, the mask decoder and the TwoWayTransformer alone,
``SamPredictor``'s tensor path (``set_torch_image`` + ``predict_torch``, masks or logits)
and ``utils.onnx.SamOnnxModel`` (one mask; stability score with the extra metrics).
Train: a wrapper whose forward returns a scalar (the mean of the float outputs).

    pip install --no-deps segment-anything==1.0

``segment_anything/__init__.py`` imports ``predictor.py`` (through ``utils/transforms.py``:
``from torchvision.transforms.functional import resize, to_pil_image``) and
``automatic_mask_generator.py`` (``from torchvision.ops.boxes import batched_nms, box_area``)
at the top. torchvision is held out and never installed: ``_import`` puts stand-in modules
in ``sys.modules`` first, whose functions raise, so the package imports; no model below
calls them.

Left out: ``SamAutomaticMaskGenerator`` (its ``generate`` runs ``torchvision.ops.batched_nms``
on every crop, and wants numpy images, optionally cv2 and pycocotools);
``SamPredictor.set_image`` / ``predict`` (``ResizeLongestSide.apply_image`` is torchvision's
PIL ``resize``; ``predict`` only converts numpy to tensors around ``predict_torch``, which
is kept); ``build_sam_vit_h/l/b`` (the full sizes: the same modules as the tiny ``Sam``).
``Sam.forward``, ``set_torch_image``, ``predict_torch`` and ``SamOnnxModel.forward`` are
``@torch.no_grad()``: their "train" runs capture the training-mode graph but have nothing to
backpropagate.
"""

import functools

PACKAGE = "segment_anything"
DISTRIBUTION = "segment-anything"

mean_loss_module = stub_modules = None  # adapter.py's, set by ZooSuite
_IMG, _PATCH, _DIM, _HEADS = 64, 16, 32, 2
_GRID = _IMG // _PATCH  # the 4x4 image embedding
_MASK_IN = 4 * _GRID  # the low-res mask side the prompt encoder takes (16)


def _stub_torchvision():
    """Stand-ins for the torchvision names segment_anything imports at the top (never installed)."""
    stub_modules({"torchvision": ((), ()), "torchvision.transforms": ((), ()),
                  "torchvision.transforms.functional": (("resize", "to_pil_image"), ()),
                  "torchvision.ops": ((), ()), "torchvision.ops.boxes": (("batched_nms", "box_area"), ())},
                 "segment_anything")


def _import(name="segment_anything"):
    import importlib
    import sys

    if "torchvision" not in sys.modules:
        try:
            import torchvision  # noqa: F401  (never installed here; an installed one is used as is)
        except ImportError:
            pass
    _stub_torchvision()
    return importlib.import_module(name)


def warm_up():
    import torch  # noqa: F401

    _import()


# --- the parts, at SAM's layout with every size shrunk ------------------------------------

def _encoder(window=2, global_attn=(1,), rel_pos=True, abs_pos=True, depth=2):
    import torch

    _import()
    from segment_anything.modeling import ImageEncoderViT

    return ImageEncoderViT(img_size=_IMG, patch_size=_PATCH, embed_dim=_DIM, depth=depth, num_heads=_HEADS,
                           mlp_ratio=2, out_chans=_DIM, qkv_bias=True,
                           norm_layer=functools.partial(torch.nn.LayerNorm, eps=1e-6), use_abs_pos=abs_pos,
                           use_rel_pos=rel_pos, rel_pos_zero_init=False, window_size=window,
                           global_attn_indexes=tuple(global_attn))


def _prompt_encoder():
    _import()
    from segment_anything.modeling import PromptEncoder

    return PromptEncoder(embed_dim=_DIM, image_embedding_size=(_GRID, _GRID), input_image_size=(_IMG, _IMG),
                         mask_in_chans=8)


def _two_way(depth=2):
    _import()
    from segment_anything.modeling import TwoWayTransformer

    return TwoWayTransformer(depth=depth, embedding_dim=_DIM, mlp_dim=64, num_heads=_HEADS)


def _mask_decoder():
    _import()
    from segment_anything.modeling import MaskDecoder

    return MaskDecoder(num_multimask_outputs=3, transformer=_two_way(), transformer_dim=_DIM, iou_head_depth=3,
                       iou_head_hidden_dim=32)


def _sam(**encoder):
    _import()
    from segment_anything.modeling import Sam

    return Sam(image_encoder=_encoder(**encoder), prompt_encoder=_prompt_encoder(), mask_decoder=_mask_decoder(),
               pixel_mean=[123.675, 116.28, 103.53], pixel_std=[58.395, 57.12, 57.375])


# --- inputs -------------------------------------------------------------------------------

def _points(b=1, n=2):
    import torch

    return torch.rand(b, n, 2) * _IMG, torch.randint(0, 2, (b, n))


def _boxes(b=1):
    import torch

    xy = torch.rand(b, 2) * _IMG / 2
    return torch.cat([xy, xy + _IMG / 4], dim=-1)


def _low_res_mask(b=1):
    import torch

    return torch.randn(b, 1, _MASK_IN, _MASK_IN)


def _image(h=_IMG, w=_IMG):
    import torch

    return torch.rand(3, h, w) * 255


# --- the loss wrapper (adapter.mean_loss_module, set by ZooSuite) -----------------------

def _wrap(net, args, kwargs, mode):
    if mode == "train":
        return mean_loss_module()(net), args, kwargs
    return net, args, kwargs


# --- models -------------------------------------------------------------------------------

def _sam_forward(records, multimask=True, **encoder):
    """``Sam.forward`` on a batch of image records (``records()`` -> list of dicts)."""

    def make(mode):
        return _wrap(_sam(**encoder), (records(), multimask), {}, mode)

    return make


def _rec(points=False, boxes=False, masks=False, b=1, h=_IMG, w=_IMG, original=(_IMG, _IMG)):
    rec = {"image": _image(h, w), "original_size": original}
    if points:
        rec["point_coords"], rec["point_labels"] = _points(b)
    if boxes:
        rec["boxes"] = _boxes(b)
    if masks:
        rec["mask_inputs"] = _low_res_mask(b)
    return rec


def _image_encoder(shape=(2, 3, _IMG, _IMG), **encoder):
    def make(mode):
        import torch

        return _wrap(_encoder(**encoder), (torch.randn(*shape),), {}, mode)

    return make


def _prompt(points=False, boxes=False, masks=False, b=2):
    def make(mode):
        return _wrap(_prompt_encoder(), (), {"points": _points(b) if points else None,
                                             "boxes": _boxes(b) if boxes else None,
                                             "masks": _low_res_mask(b) if masks else None}, mode)

    return make


def _decoder(multimask):
    def make(mode):
        import torch

        pe = _prompt_encoder()
        sparse, dense = pe(points=_points(2), boxes=None, masks=None)
        kwargs = {"image_embeddings": torch.randn(1, _DIM, _GRID, _GRID), "image_pe": pe.get_dense_pe(),
                  "sparse_prompt_embeddings": sparse.detach(), "dense_prompt_embeddings": dense.detach(),
                  "multimask_output": multimask}
        return _wrap(_mask_decoder(), (), kwargs, mode)

    return make


def _two_way_transformer(mode):
    import torch

    args = (torch.randn(2, _DIM, _GRID, _GRID), torch.randn(2, _DIM, _GRID, _GRID), torch.randn(2, 5, _DIM))
    return _wrap(_two_way(), args, {}, mode)


@functools.cache
def _predictor_module():
    import torch

    class PredictorRun(torch.nn.Module):
        """``SamPredictor``: ``set_torch_image`` then ``predict_torch`` (the numpy-free path)."""

        def __init__(self, sam, original_size, multimask_output, return_logits):
            super().__init__()
            from segment_anything import SamPredictor

            self.sam = sam
            self.predictor = SamPredictor(sam)
            self.original_size = original_size
            self.multimask_output, self.return_logits = multimask_output, return_logits

        def forward(self, image, point_coords=None, point_labels=None, boxes=None, mask_input=None):
            self.predictor.set_torch_image(image, self.original_size)
            return self.predictor.predict_torch(point_coords, point_labels, boxes, mask_input,
                                                multimask_output=self.multimask_output,
                                                return_logits=self.return_logits)

    return PredictorRun


def _predictor(points=False, boxes=False, masks=False, multimask=True, return_logits=False):
    def make(mode):
        import torch

        _import()
        run = _predictor_module()(_sam(), (96, 72), multimask, return_logits)
        image = torch.rand(1, 3, _IMG, 48) * 255  # ResizeLongestSide of a 96x72 image
        kwargs = {}
        if points:
            kwargs["point_coords"], kwargs["point_labels"] = _points(1)
        if boxes:
            kwargs["boxes"] = _boxes(1)
        if masks:
            kwargs["mask_input"] = _low_res_mask(1)
        return _wrap(run, (image,), kwargs, mode)

    return make


def _onnx(return_single_mask, use_stability_score=False, return_extra_metrics=False):
    def make(mode):
        import torch

        onnx = _import("segment_anything.utils.onnx")
        net = onnx.SamOnnxModel(_sam(), return_single_mask=return_single_mask, use_stability_score=use_stability_score,
                                return_extra_metrics=return_extra_metrics)
        coords, _ = _points(1, 3)
        labels = torch.tensor([[1.0, 0.0, -1.0]])
        args = (torch.randn(1, _DIM, _GRID, _GRID), coords, labels, _low_res_mask(1), torch.tensor([1.0]),
                torch.tensor([96.0, 72.0]))
        return _wrap(net, args, {}, mode)

    return make


MODELS = {
    # Sam.forward, one image record per prompt kind (and none)
    "Sam_points": _sam_forward(lambda: [_rec(points=True)]),
    "Sam_points_single_mask": _sam_forward(lambda: [_rec(points=True)], multimask=False),
    "Sam_boxes": _sam_forward(lambda: [_rec(boxes=True, b=2)]),
    "Sam_points_boxes": _sam_forward(lambda: [_rec(points=True, boxes=True)], multimask=False),
    "Sam_mask_input": _sam_forward(lambda: [_rec(points=True, masks=True)]),
    "Sam_no_prompt": _sam_forward(lambda: [_rec()]),
    "Sam_two_images": _sam_forward(lambda: [_rec(points=True), _rec(boxes=True, masks=True)]),
    "Sam_padded_resized": _sam_forward(lambda: [_rec(points=True, h=_IMG, w=48, original=(96, 72))]),
    "Sam_global_attention": _sam_forward(lambda: [_rec(points=True)], window=0, global_attn=(), rel_pos=False),
    # ImageEncoderViT alone
    "ImageEncoder_window_global_relpos": _image_encoder(),
    "ImageEncoder_global": _image_encoder(window=0, global_attn=(), rel_pos=False),
    "ImageEncoder_window_padded": _image_encoder(window=3, global_attn=(), rel_pos=True),
    "ImageEncoder_relpos_resized": _image_encoder(shape=(1, 3, 80, 80), abs_pos=False),
    # PromptEncoder alone
    "PromptEncoder_points": _prompt(points=True),
    "PromptEncoder_boxes": _prompt(boxes=True),
    "PromptEncoder_masks": _prompt(masks=True),
    "PromptEncoder_points_boxes": _prompt(points=True, boxes=True),
    # MaskDecoder and TwoWayTransformer alone
    "MaskDecoder_multimask": _decoder(True),
    "MaskDecoder_single_mask": _decoder(False),
    "TwoWayTransformer": _two_way_transformer,
    # SamPredictor's tensor path
    "SamPredictor_points": _predictor(points=True),
    "SamPredictor_boxes_logits": _predictor(boxes=True, masks=True, multimask=False, return_logits=True),
    # utils.onnx.SamOnnxModel
    "SamOnnxModel_single_mask": _onnx(True),
    "SamOnnxModel_stability_extra": _onnx(False, use_stability_score=True, return_extra_metrics=True),
}
