"""vit-pytorch (lucidrains): one tiny model per ViT variant (ViT, CaiT, CCT, CrossViT, CvT,
LeViT, MaxViT, MobileViT, NesT, PiT, RegionViT, T2T, Twins-SVT, XCiT, ViViT, NaViT, ...),
random weights. In "train" a classifier runs through a wrapper whose forward returns the
cross-entropy loss; the self-supervised wrappers (MAE, SimMIM, MPP, MP3) and DistillWrapper
return their own loss.

    pip install --no-deps vit-pytorch==1.26.11
    pip install einops==0.8.2

``vit_pytorch/__init__.py`` imports ``dino.py``, which imports ``torchvision.transforms`` at
the top (so do es_vit.py, lejepa.py, levjepa.py). torchvision is held out and never
installed: ``_import`` puts an empty stand-in module in ``sys.modules`` first, so the
package imports; none of the models below touches it (Dino, EsViT, LeJEPA and LeVJEPA,
whose augmentations need it, are left out).

Left out to keep the capture short (the same code paths as a model kept): ViT with mean
pooling, ViT for small datasets, SimpleViT with register tokens, parallel ViT, MaxViT with
registers, efficient ViT, ViTND (ViTND_rotary is kept); NaViT with nested tensors
(``na_vit_nested_tensor*``) and the 3-D/video variants other than ViT3D and ViViT.

Fixed or dropped because they fail eagerly: LocalViT is dropped (its FeedForward applies
LayerNorm(dim) to a channels-first map in 1.26.11); ViTND_rotary has no "train" (FlexAttention
has no backward on CPU: the factory raises, so it is recorded as skipped); SepViT ignores its
``window_size`` (always 7), so it runs on one 224x224 image; CrossFormer needs dims >= 32
(heads = dim // 32) and two cross-embedding kernels in its first stage; MAE, SimMIM and MPP
read the older (1, patches + 1, dim) positional layout, so their encoder is a DeepViT.
"""

PACKAGE = "vit_pytorch"
DISTRIBUTION = "vit-pytorch"

_IMG, _CLASSES = 32, 4
classifier_loss_module = None  # adapter.classifier_loss_module, set by ZooSuite


def _import(name="vit_pytorch"):
    import importlib
    import sys
    import types

    if "torchvision" not in sys.modules:
        try:
            import torchvision  # noqa: F401  (never installed here; an installed one is used as is)
        except ImportError:
            tv = types.ModuleType("torchvision")
            tv.__path__ = []
            tv.transforms = types.ModuleType("torchvision.transforms")
            sys.modules["torchvision"] = tv
            sys.modules["torchvision.transforms"] = tv.transforms
    return importlib.import_module(name)


def warm_up():
    import torch  # noqa: F401

    _import()


def _classifier_loss(net, n=2):
    """The classifier wrapped so that its forward returns the cross-entropy loss."""
    return classifier_loss_module()(net, n, _CLASSES)


def _clf(module, cls, shape=(2, 3, _IMG, _IMG), fwd_kwargs=None, eval_only=False, **kwargs):
    """``vit_pytorch.<module>.<cls>(**kwargs)`` on a random batch of ``shape``."""

    def make(mode):
        import torch

        if eval_only and mode == "train":
            raise NotImplementedError(f"{cls}: FlexAttention has no backward on CPU (eval only)")

        net = getattr(_import(f"vit_pytorch.{module}"), cls)(**kwargs)
        x = torch.randn(*shape)
        if mode == "train":
            return _classifier_loss(net, shape[0]), (x,), dict(fwd_kwargs or {})
        return net, (x,), dict(fwd_kwargs or {})

    return make


_VIT = dict(image_size=_IMG, patch_size=8, num_classes=_CLASSES, dim=32, depth=2, heads=2, mlp_dim=64, dim_head=16)


def _vit_encoder():
    """An encoder for MAE, SimMIM and MPP: they read ``pos_embedding`` as (1, patches + 1, dim) and
    ``cls_token`` as (1, 1, dim), the layout of DeepViT (vit.ViT has moved on to (patches + 1, dim))."""
    deepvit = _import("vit_pytorch.deepvit")
    return deepvit.DeepViT(**_VIT)


def _mae(mode):
    import torch

    mae = _import("vit_pytorch.mae")
    return mae.MAE(encoder=_vit_encoder(), decoder_dim=32, masking_ratio=0.5, decoder_depth=1, decoder_heads=2,
                   decoder_dim_head=16), (torch.randn(2, 3, _IMG, _IMG),), {}


def _simmim(mode):
    import torch

    simmim = _import("vit_pytorch.simmim")
    return simmim.SimMIM(encoder=_vit_encoder(), masking_ratio=0.5), (torch.randn(2, 3, _IMG, _IMG),), {}


def _mpp(mode):
    import torch

    mpp = _import("vit_pytorch.mpp")
    return mpp.MPP(transformer=_vit_encoder(), patch_size=8, dim=32, mask_prob=0.15), (torch.randn(2, 3, _IMG, _IMG),), {}


def _mp3(mode):
    import torch

    mp3 = _import("vit_pytorch.mp3")
    vit = mp3.ViT(num_classes=_CLASSES, image_size=_IMG, patch_size=8, dim=32, depth=2, heads=2, mlp_dim=64,
                  dim_head=16)
    return mp3.MP3(vit=vit, masking_ratio=0.5), (torch.randn(2, 3, _IMG, _IMG),), {}


def _distill(mode):
    import torch

    vit = _import("vit_pytorch.vit")
    distill = _import("vit_pytorch.distill")
    teacher = vit.ViT(**_VIT)
    student = distill.DistillableViT(**_VIT)
    wrapper = distill.DistillWrapper(teacher=teacher, student=student, temperature=3, alpha=0.5)
    labels = torch.arange(2) % _CLASSES
    if mode == "train":
        return wrapper, (torch.randn(2, 3, _IMG, _IMG), labels), {}
    return student, (torch.randn(2, 3, _IMG, _IMG),), {}


def _learnable_memory(mode):
    import torch

    lm = _import("vit_pytorch.learnable_memory_vit")
    vit = lm.ViT(**_VIT)
    net = lm.Adapter(vit=vit, num_memories_per_layer=2, num_classes=3)
    x = torch.randn(2, 3, _IMG, _IMG)
    return (_classifier_loss(net) if mode == "train" else net), (x,), {}


def _navit(mode):
    import torch

    na = _import("vit_pytorch.na_vit")
    net = na.NaViT(image_size=_IMG, patch_size=8, num_classes=_CLASSES, dim=32, depth=2, heads=2, mlp_dim=64,
                   dim_head=16, token_dropout_prob=0.1)
    images = [[torch.randn(3, 32, 16), torch.randn(3, 16, 16)], [torch.randn(3, 24, 32)]]
    if mode == "train":
        return _classifier_loss(net, 3), (images,), {}
    return net, (images,), {}


MODELS = {
    "ViT": _clf("vit", "ViT", **_VIT),
    "SimpleViT": _clf("simple_vit", "SimpleViT", **_VIT),
    "ViT1D": _clf("vit_1d", "ViT", shape=(2, 3, 64), seq_len=64, patch_size=16, num_classes=_CLASSES, dim=32, depth=2,
                  heads=2, mlp_dim=64, dim_head=16),
    "ViT3D": _clf("vit_3d", "ViT", shape=(2, 3, 4, _IMG, _IMG), image_size=_IMG, image_patch_size=8, frames=4,
                  frame_patch_size=2, num_classes=_CLASSES, dim=32, depth=2, heads=2, mlp_dim=64, dim_head=16),
    "ViViT": _clf("vivit", "ViViT", shape=(2, 3, 4, _IMG, _IMG), image_size=_IMG, image_patch_size=8, frames=4,
                  frame_patch_size=2, num_classes=_CLASSES, dim=32, spatial_depth=1, temporal_depth=1, heads=2,
                  mlp_dim=64, dim_head=16, use_flash_attn=False),
    "ViT_ATS": _clf("ats_vit", "ViT", max_tokens_per_depth=(12, 8), **_VIT),
    "CaiT": _clf("cait", "CaiT", cls_depth=1, layer_dropout=0.1, **_VIT),
    "CCT": _clf("cct", "CCT", img_size=_IMG, embedding_dim=32, n_conv_layers=1, kernel_size=3, stride=2, padding=1,
                pooling_kernel_size=3, pooling_stride=2, pooling_padding=1, num_layers=2, num_heads=2, mlp_ratio=2.0,
                num_classes=_CLASSES, positional_embedding="learnable"),
    "CrossViT": _clf("cross_vit", "CrossViT", image_size=_IMG, num_classes=_CLASSES, sm_dim=32, lg_dim=48,
                     sm_patch_size=8, sm_enc_depth=1, sm_enc_heads=2, sm_enc_mlp_dim=64, sm_enc_dim_head=16,
                     lg_patch_size=16, lg_enc_depth=1, lg_enc_heads=2, lg_enc_mlp_dim=64, lg_enc_dim_head=16,
                     cross_attn_depth=1, cross_attn_heads=2, cross_attn_dim_head=16, depth=1),
    "CrossFormer": _clf("crossformer", "CrossFormer", shape=(2, 3, 64, 64), dim=(32, 64, 64, 64), depth=(1, 1, 1, 1),
                        global_window_size=(2, 2, 1, 1), local_window_size=2, num_classes=_CLASSES,
                        cross_embed_kernel_sizes=((4, 8), (2, 4), (2, 4), (2, 4))),
    "CvT": _clf("cvt", "CvT", num_classes=_CLASSES, s1_emb_dim=16, s2_emb_dim=32, s2_heads=2, s2_depth=1,
                s3_emb_dim=48, s3_heads=2, s3_depth=1),
    "DeepViT": _clf("deepvit", "DeepViT", **_VIT),
    "JumboViT": _clf("jumbo_vit", "JumboViT", num_jumbo_cls=2, jumbo_cls_k=2, **_VIT),
    "LeViT": _clf("levit", "LeViT", shape=(2, 3, 64, 64), image_size=64, num_classes=_CLASSES, dim=(16, 32, 48),
                  depth=1, heads=(2, 2, 2), mlp_mult=2, dim_key=8, dim_value=16, num_distill_classes=_CLASSES),
    "LookViT": _clf("look_vit", "LookViT", shape=(2, 3, 48, 48), image_size=48, dim=32, num_classes=_CLASSES,
                    depth=1, patch_size=8, heads=2, dim_head=16, highres_patch_size=6, cross_attn_heads=2,
                    cross_attn_dim_head=16, patch_conv_kernel_size=3),
    "LoopedViT": _clf("looped_vit", "LoopedViT", num_classes=_CLASSES, dim=32, image_size=_IMG, patch_size=8,
                      pre_loop_depth=1, num_looped_blocks=1, post_loop_depth=1, loop_depth=2, heads=2, dim_head=16,
                      mlp_dim=64),
    "MaxViT": _clf("max_vit", "MaxViT", num_classes=_CLASSES, dim=16, depth=(1, 1), dim_head=8, dim_conv_stem=16,
                   window_size=4),
    "MobileViT": _clf("mobile_vit", "MobileViT", shape=(2, 3, 64, 64), image_size=(64, 64),
                      dims=(16, 24, 32), channels=(8, 8, 16, 16, 24, 24, 32, 32, 40, 40, 64),
                      num_classes=_CLASSES, depths=(1, 1, 1)),
    "NesT": _clf("nest", "NesT", image_size=_IMG, patch_size=4, num_classes=_CLASSES, dim=32, heads=2,
                 num_hierarchies=2, block_repeats=(1, 1), dim_head=16),
    "nViT": _clf("normalized_vit", "nViT", **_VIT),
    "PiT": _clf("pit", "PiT", image_size=_IMG, patch_size=4, num_classes=_CLASSES, dim=32, depth=(1, 1), heads=2,
                mlp_dim=64, dim_head=16),
    "RegionViT": _clf("regionvit", "RegionViT", shape=(2, 3, 64, 64), dim=(16, 32, 48, 64), depth=(1, 1, 1, 1),
                      window_size=2, num_classes=_CLASSES, use_peg=True),
    "RvT": _clf("rvt", "RvT", **_VIT),
    "ScalableViT": _clf("scalable_vit", "ScalableViT", shape=(2, 3, 64, 64), num_classes=_CLASSES, dim=16,
                        depth=(1, 1, 1, 1), heads=(1, 2, 2, 2), reduction_factor=(4, 2, 1, 1),
                        window_size=(4, 2, None, None), iwsa_dim_key=8, iwsa_dim_value=8, ssa_dim_key=8, ssa_dim_value=8),
    "SepViT": _clf("sep_vit", "SepViT", shape=(1, 3, 224, 224), num_classes=_CLASSES, dim=16, dim_head=8,
                   heads=(1, 2, 2, 2), depth=(1, 1, 1, 1), window_size=2),
    "SimpleUViT": _clf("simple_uvit", "SimpleUViT", **_VIT, num_register_tokens=2),
    "SimpleViT_patch_dropout": _clf("simple_vit_with_patch_dropout", "SimpleViT", patch_dropout=0.5, **_VIT),
    "SimpleViT_hyper_connections": _clf("simple_vit_with_hyper_connections", "SimpleViT", num_residual_streams=2,
                                        num_register_tokens=2, **_VIT),
    "T2TViT": _clf("t2t", "T2TViT", image_size=_IMG, num_classes=_CLASSES, dim=32, depth=1, heads=2, mlp_dim=64,
                   dim_head=16, t2t_layers=((7, 4), (3, 2))),
    "TwinsSVT": _clf("twins_svt", "TwinsSVT", shape=(2, 3, 64, 64), num_classes=_CLASSES, s1_emb_dim=16,
                     s1_local_patch_size=2, s1_global_k=2, s2_emb_dim=16, s2_local_patch_size=2, s2_global_k=2,
                     s3_emb_dim=32, s3_local_patch_size=2, s3_global_k=1, s3_depth=1, s4_emb_dim=32,
                     s4_local_patch_size=1, s4_global_k=1, s4_depth=1),
    "ViT5": _clf("vit_5", "ViT", num_registers=2, **_VIT),
    "ViTND_rotary": _clf("vit_nd_rotary", "ViTND", eval_only=True, shape=(2, 3, _IMG, _IMG), ndim=2, input_shape=(_IMG, _IMG),
                         patch_size=8, num_classes=_CLASSES, dim=32, depth=2, heads=2, mlp_dim=64, dim_head=16),
    "ViT_patch_merger": _clf("vit_with_patch_merger", "ViT", patch_merge_layer=1, patch_merge_num_tokens=4, **_VIT),
    "ViT_decorr": _clf("vit_with_decorr", "ViT", **_VIT),
    "XCiT": _clf("xcit", "XCiT", cls_depth=1, layer_dropout=0.1, **_VIT),
        "LearnableMemoryViT": _learnable_memory,
    "NaViT": _navit,
    "MAE": _mae,
    "SimMIM": _simmim,
    "MPP": _mpp,
    "MP3": _mp3,
    "DistillableViT": _distill,
}
