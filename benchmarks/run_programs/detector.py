"""A small one-stage detector written for issue 20's probe test (no torchvision, no
timm): a strided conv backbone, a two-level feature pyramid, a shared head of class
logits and box deltas per anchor, and a training loss that matches anchors to a varying
number of ground-truth boxes per image, as detection models do in their forward."""

from __future__ import annotations

import torch
import torch.nn.functional as F
from torch import nn


def conv_bn(cin: int, cout: int, stride: int) -> nn.Sequential:
    return nn.Sequential(nn.Conv2d(cin, cout, 3, stride, 1, bias=False), nn.BatchNorm2d(cout), nn.ReLU(inplace=True))


class Backbone(nn.Module):
    def __init__(self, width: int = 32):
        super().__init__()
        self.stem = conv_bn(3, width, 2)
        self.c3 = nn.Sequential(conv_bn(width, width * 2, 2), conv_bn(width * 2, width * 2, 1))
        self.c4 = nn.Sequential(conv_bn(width * 2, width * 4, 2), conv_bn(width * 4, width * 4, 1))
        self.c5 = nn.Sequential(conv_bn(width * 4, width * 8, 2), conv_bn(width * 8, width * 8, 1))

    def forward(self, x: torch.Tensor) -> list[torch.Tensor]:
        x = self.stem(x)
        c3 = self.c3(x)
        c4 = self.c4(c3)
        return [c4, self.c5(c4)]


class Pyramid(nn.Module):
    def __init__(self, width: int = 32, out: int = 64):
        super().__init__()
        self.lat4 = nn.Conv2d(width * 4, out, 1)
        self.lat5 = nn.Conv2d(width * 8, out, 1)

    def forward(self, feats: list[torch.Tensor]) -> list[torch.Tensor]:
        c4, c5 = feats
        p5 = self.lat5(c5)
        p4 = self.lat4(c4) + F.interpolate(p5, size=c4.shape[-2:], mode="nearest")
        return [p4, p5]


class Head(nn.Module):
    def __init__(self, channels: int = 64, classes: int = 8, anchors: int = 3):
        super().__init__()
        self.classes, self.anchors = classes, anchors
        self.tower = nn.Sequential(conv_bn(channels, channels, 1), conv_bn(channels, channels, 1))
        self.cls = nn.Conv2d(channels, anchors * classes, 3, padding=1)
        self.box = nn.Conv2d(channels, anchors * 4, 3, padding=1)

    def forward(self, feats: list[torch.Tensor]) -> tuple[torch.Tensor, torch.Tensor]:
        logits, deltas = [], []
        for f in feats:
            t = self.tower(f)
            n = f.shape[0]
            logits.append(self.cls(t).permute(0, 2, 3, 1).reshape(n, -1, self.classes))
            deltas.append(self.box(t).permute(0, 2, 3, 1).reshape(n, -1, 4))
        return torch.cat(logits, 1), torch.cat(deltas, 1)


def make_anchors(sizes: list[tuple[int, int]], strides: list[int], scales=(1.0, 2.0, 4.0), device=None) -> torch.Tensor:
    out = []
    for (h, w), s in zip(sizes, strides):
        ys, xs = torch.meshgrid(torch.arange(h, device=device), torch.arange(w, device=device), indexing="ij")
        centers = torch.stack([(xs + 0.5) * s, (ys + 0.5) * s], -1).reshape(-1, 1, 2)
        half = torch.tensor(scales, device=device).view(1, -1, 1) * s * 2
        boxes = torch.cat([centers - half, centers + half], -1)  # (h*w, anchors, 4)
        out.append(boxes.reshape(-1, 4))
    return torch.cat(out, 0)


def box_iou(a: torch.Tensor, b: torch.Tensor) -> torch.Tensor:
    area_a = (a[:, 2] - a[:, 0]) * (a[:, 3] - a[:, 1])
    area_b = (b[:, 2] - b[:, 0]) * (b[:, 3] - b[:, 1])
    lt = torch.max(a[:, None, :2], b[None, :, :2])
    rb = torch.min(a[:, None, 2:], b[None, :, 2:])
    inter = (rb - lt).clamp(min=0).prod(-1)
    return inter / (area_a[:, None] + area_b[None, :] - inter)


class Detector(nn.Module):
    """forward(images, targets) -> loss dict in training, (scores, boxes) otherwise."""

    def __init__(self, classes: int = 8, width: int = 32):
        super().__init__()
        self.backbone = Backbone(width)
        self.neck = Pyramid(width, 64)
        self.head = Head(64, classes)
        self.strides = [16, 32]

    def forward(self, images: torch.Tensor, targets: list[dict[str, torch.Tensor]] | None = None):
        feats = self.neck(self.backbone(images))
        logits, deltas = self.head(feats)
        anchors = make_anchors([tuple(f.shape[-2:]) for f in feats], self.strides, device=images.device)
        if targets is None:
            scores = logits.sigmoid()
            return scores, anchors[None] + deltas * 16
        cls_losses, box_losses = [], []
        for i, t in enumerate(targets):
            iou = box_iou(anchors, t["boxes"])  # (A, G): G varies per image
            best, idx = iou.max(1)
            pos = best > 0.4
            cls_target = torch.zeros_like(logits[i])
            cls_target[pos, t["labels"][idx[pos]]] = 1.0
            cls_losses.append(F.binary_cross_entropy_with_logits(logits[i], cls_target, reduction="sum"))
            if pos.sum() > 0:  # images with no matched anchor add no box loss
                target_deltas = (t["boxes"][idx[pos]] - anchors[pos]) / 16
                box_losses.append(F.smooth_l1_loss(deltas[i][pos], target_deltas, reduction="sum"))
        num_pos = max(1, len(box_losses))
        return {"classification": sum(cls_losses) / num_pos,
                "box_regression": sum(box_losses) / num_pos if box_losses else deltas.sum() * 0}
