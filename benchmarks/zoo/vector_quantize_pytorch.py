"""vector-quantize-pytorch: each quantizer on a small batch of feature vectors, random weights.

    pip install --no-deps vector-quantize-pytorch==1.32.0 torch-einops-utils==0.2.0
    pip install einops==0.8.2 einx==0.4.3 loguru==0.7.3 frozendict==2.5.1
"""

PACKAGE = "vector_quantize_pytorch"
DISTRIBUTION = "vector-quantize-pytorch"


def _q(cls_name, shape=(2, 16, 32), **kwargs):
    def make(mode):
        import torch
        import vector_quantize_pytorch as vq

        return getattr(vq, cls_name)(**kwargs), (torch.randn(*shape),), {}

    return make


MODELS = {
    "VectorQuantize": _q("VectorQuantize", dim=32, codebook_size=64),
    "VectorQuantize_cosine": _q("VectorQuantize", dim=32, codebook_size=64, use_cosine_sim=True),
    "VectorQuantize_kmeans": _q("VectorQuantize", dim=32, codebook_size=16, kmeans_init=True, kmeans_iters=2),
    "VectorQuantize_heads": _q("VectorQuantize", dim=32, codebook_size=64, heads=4, separate_codebook_per_head=True,
                               codebook_dim=8),
    "VectorQuantize_dead_code": _q("VectorQuantize", dim=32, codebook_size=64, threshold_ema_dead_code=2),
    "VectorQuantize_orthogonal": _q("VectorQuantize", dim=32, codebook_size=64, orthogonal_reg_weight=0.1),
    "VectorQuantize_image": _q("VectorQuantize", shape=(2, 32, 4, 4), dim=32, codebook_size=64,
                               accept_image_fmap=True),
    "VectorQuantize_rotation": _q("VectorQuantize", dim=32, codebook_size=64, rotation_trick=True),
    "VectorQuantize_learnable": _q("VectorQuantize", dim=32, codebook_size=64, learnable_codebook=True,
                                   ema_update=False),
    "ResidualVQ": _q("ResidualVQ", dim=32, num_quantizers=3, codebook_size=64),
    "ResidualVQ_dropout": _q("ResidualVQ", dim=32, num_quantizers=3, codebook_size=64, quantize_dropout=True),
    "ResidualVQ_shared": _q("ResidualVQ", dim=32, num_quantizers=3, codebook_size=64, shared_codebook=True),
    "GroupedResidualVQ": _q("GroupedResidualVQ", dim=32, groups=2, num_quantizers=2, codebook_size=64),
    "FSQ": _q("FSQ", shape=(2, 16, 4), levels=[8, 5, 5, 5]),
    "FSQ_projected": _q("FSQ", levels=[8, 5, 5], dim=32),
    "ResidualFSQ": _q("ResidualFSQ", dim=32, levels=[8, 5, 5], num_quantizers=2),
    "GroupedResidualFSQ": _q("GroupedResidualFSQ", dim=32, groups=2, levels=[8, 5, 5], num_quantizers=2),
    "LFQ": _q("LFQ", dim=32, codebook_size=256),
    "LFQ_spherical": _q("LFQ", dim=32, codebook_size=256, spherical=True),
    "ResidualLFQ": _q("ResidualLFQ", dim=32, codebook_size=256, num_quantizers=2),
    "GroupedResidualLFQ": _q("GroupedResidualLFQ", dim=32, groups=2, codebook_size=256, num_quantizers=2),
    "LatentQuantize": _q("LatentQuantize", shape=(2, 16, 16), levels=[5, 5, 8], dim=16),
    "SimVQ": _q("SimVQ", dim=32, codebook_size=64),
    "ResidualSimVQ": _q("ResidualSimVQ", dim=32, num_quantizers=2, codebook_size=64),
    "RandomProjectionQuantizer": _q("RandomProjectionQuantizer", dim=32, codebook_size=64, codebook_dim=16),
    "BinaryMapper": lambda mode: (__import__("vector_quantize_pytorch").BinaryMapper(bits=4),
                                  (__import__("torch").randn(2, 16, 4),), {}),
    "FSP": _q("FSP", levels=[8, 5, 5], dim=32),
}
