#!/usr/bin/env python3
"""Detection-style training steps for issue 20's probe test (written for it: no
torchvision, no timm): a small one-stage detector (detector.py) trained on random images
with a random number of boxes per image, then one inference batch.

    compilelint probe --module detector:Detector -- python benchmarks/run_programs/detection_step.py --steps 6

Prints each step's losses and writes the weights' checksum to --out.
"""

from __future__ import annotations

import argparse

import torch

from checksum import report
from detector import Detector


def random_targets(n: int, size: int, classes: int, generator: torch.Generator, device: str):
    out = []
    for _ in range(n):
        g = int(torch.randint(1, 6, (1,), generator=generator))
        xy = torch.rand(g, 2, generator=generator) * (size * 0.7)
        wh = 16 + torch.rand(g, 2, generator=generator) * (size * 0.3)
        out.append({"boxes": torch.cat([xy, xy + wh], 1).to(device),
                    "labels": torch.randint(0, classes, (g,), generator=generator).to(device)})
    return out


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--steps", type=int, default=6)
    parser.add_argument("--batch", type=int, default=4)
    parser.add_argument("--size", type=int, default=256)
    parser.add_argument("--device", default="cuda" if torch.cuda.is_available() else "cpu")
    parser.add_argument("--out", default=None)
    args = parser.parse_args()
    torch.manual_seed(0)
    gen = torch.Generator().manual_seed(0)
    model = Detector(classes=8).to(args.device)
    opt = torch.optim.SGD(model.parameters(), lr=0.01, momentum=0.9)
    model.train()
    for step in range(args.steps):
        images = torch.rand(args.batch, 3, args.size, args.size, generator=gen).to(args.device)
        targets = random_targets(args.batch, args.size, 8, gen, args.device)
        losses = model(images, targets)
        loss = sum(losses.values())
        opt.zero_grad(set_to_none=True)
        loss.backward()
        opt.step()
        print(f"step {step} " + " ".join(f"{k} {v.item():.6f}" for k, v in losses.items()), flush=True)
    model.eval()
    with torch.no_grad():
        scores, boxes = model(torch.rand(2, 3, args.size, args.size, generator=gen).to(args.device))
    report(model, "inference scores mean", scores.mean().item(), args.out)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
