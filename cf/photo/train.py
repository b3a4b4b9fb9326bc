"""Train the photo reader's two small networks on synthetic photos and export them to ONNX.

    pip install -e '.[train]'          # torch==2.13.0 (CPU) and onnx: never needed to run cf
    python -m cf.photo.train --seed 0  # about 50 minutes of CPU; writes cf/photo/models/

Never imported by ``cf`` itself. Every training photo comes from
:func:`cf.photo.scenes.render_family` (family ``mixed``): no real photo is ever used. Two nets:

- **tiles** (:data:`cf.photo.nets.TILE_NET`): a small U-Net that maps a photo, its long side
  :data:`cf.photo.nets.SEG_SIZE` pixels, to three classes per pixel: background, tile face
  inside its rim, divider (:func:`cf.photo.labels.label_map`). The rim left out makes
  touching tiles come apart.
- **halves** (:data:`cf.photo.nets.HALF_NET`): a small classifier of upright half-tiles,
  :data:`cf.photo.nets.HALF_SIDE` pixels square: 0..15 pips, or not a half.

Each run writes the ONNX files and ``checks.npz``: fixed inputs with the outputs of the
exported model, which ``tests/test_photo_nets.py`` compares against ``cv2.dnn``.
"""

from __future__ import annotations

import argparse
import multiprocessing
import os
import time
from pathlib import Path

import cv2
import numpy as np

from cf.i18n import Message
from cf.photo import nets
from cf.photo.labels import half_crops, label_map, rim_map
from cf.photo.scenes import FAMILIES, render_family

MODELS = Path(__file__).parent / "models"

#: Sizes of the segmentation training photos (width, height).
SEG_SIZES = ((256, 192), (192, 256), (256, 256), (288, 224), (224, 288))

#: The tiles net's training: photos rendered, steps of 8 photos, and how much more a pixel
#: of a tile's rim (between touching tiles' faces) weighs than other background.
TILE_PHOTOS, TILE_STEPS, RIM_WEIGHT = 1800, 4000, 3.0

#: The halves net's training: photos rendered (two sets of half crops each, augmented) and
#: steps of 64 crops.
HALF_PHOTOS, HALF_STEPS = 3000, 7000


def _seg_sample(seed: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """One training photo for the tiles net: its input, class map and "between faces" map
    (1 on the rim of every tile, where touching tiles must come apart: weighted more)."""
    rng = np.random.default_rng(seed)
    size = SEG_SIZES[int(rng.integers(len(SEG_SIZES)))]
    # Render larger, then shrink: pips and edges as a camera's downscale leaves them.
    factor = float(rng.choice([1.0, 1.5, 2.0]))
    # Sometimes a part of the photo, enlarged: big tiles (close-ups, single tiles in small
    # images) as well as small ones.
    zoom = float(rng.choice([1.0, 1.0, 1.0, 1.6, 2.4]))
    big = (round(size[0] * factor), round(size[1] * factor))
    photo = render_family(seed, "mixed", size=big)
    zw, zh = round(size[0] * zoom), round(size[1] * zoom)
    image = cv2.resize(photo.image, (zw, zh), interpolation=cv2.INTER_AREA)
    labels = label_map(photo, zw, zh)
    rim = rim_map(photo, zw, zh)
    x0 = int(rng.integers(0, zw - size[0] + 1))
    y0 = int(rng.integers(0, zh - size[1] + 1))
    window = (slice(y0, y0 + size[1]), slice(x0, x0 + size[0]))
    return nets.prepare_photo(image[window]), labels[window], rim[window]


def _half_sample(seed: int) -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.default_rng(seed)
    sizes = ((480, 360), (640, 480), (360, 480), (960, 720))
    photo = render_family(seed, "mixed", size=sizes[int(rng.integers(len(sizes)))])
    crops = half_crops(rng, photo, nets.HALF_SIDE) + half_crops(rng, photo, nets.HALF_SIDE)
    if not crops:
        return np.zeros((0, 3, nets.HALF_SIDE, nets.HALF_SIDE), np.float32), np.zeros(0, int)
    x = nets.prepare_halves([_augment_half(rng, c) for c, _ in crops])
    y = np.array([n if n >= 0 else nets.NOT_A_HALF for _, n in crops])
    return x, y


def _augment_half(rng: np.random.Generator, crop: np.ndarray) -> np.ndarray:
    """A half crop as another camera, light and set would show it: another set's layout
    of the pips, a box a little off (turned, scaled), light falling across it, contrast and
    gamma, blur, a small tile enlarged, other colours in the channels, noise. The count
    stays what it was, so the label does too."""
    side = crop.shape[0]
    c: np.ndarray = crop.astype(np.float32)
    # Sets differ in how they lay out a number's pips (a 2 or 3 on either diagonal, a 6 in
    # rows or columns): the half mirrored or its sides swapped holds as many pips.
    if rng.random() < 0.5:
        c = c[:, ::-1]
    if rng.random() < 0.5:
        c = c.transpose(1, 0, 2)
    c = np.ascontiguousarray(c)
    if rng.random() < 0.5:
        centre = ((side - 1) / 2, (side - 1) / 2)
        m = cv2.getRotationMatrix2D(centre, rng.uniform(-8, 8), rng.uniform(0.92, 1.08))
        c = cv2.warpAffine(c, m, (side, side), borderMode=cv2.BORDER_REFLECT)
    if rng.random() < 0.5:
        g = np.linspace(-1, 1, side, dtype=np.float32)
        ramp = rng.uniform(-0.35, 0.35) * g[None, :] + rng.uniform(-0.35, 0.35) * g[:, None]
        c *= (1 + ramp)[:, :, None]
    c = 255 * (np.clip(c, 0, 255) / 255) ** rng.uniform(0.6, 1.6)
    mean = c.mean()
    c = (c - mean) * rng.uniform(0.6, 1.3) + mean
    if rng.random() < 0.4:
        c = cv2.GaussianBlur(c, (0, 0), rng.uniform(0.4, 1.1))
    if rng.random() < 0.3:
        # A small tile in a big frame: fewer pixels than the crop, enlarged.
        low = max(8, round(side * rng.uniform(0.35, 0.8)))
        c = cv2.resize(cv2.resize(c, (low, low), interpolation=cv2.INTER_AREA), (side, side))
    c = c[:, :, rng.permutation(3)]
    c += rng.normal(0, rng.uniform(0, 8), c.shape).astype(np.float32)
    return np.clip(c, 0, 255).astype(np.uint8)


def _data(fn, seeds: range, workers: int) -> list:
    with multiprocessing.Pool(workers) as pool:
        return pool.map(fn, seeds, chunksize=16)


def _seg_model():
    import torch
    from torch import nn

    def conv(a: int, b: int, stride: int = 1) -> list:
        return [nn.Conv2d(a, b, 3, stride=stride, padding=1), nn.BatchNorm2d(b), nn.ReLU()]

    class UNet(nn.Module):
        """Five levels, 1/2 to 1/32 of the input; the classes come out at 1/2."""

        def __init__(self) -> None:
            super().__init__()
            self.e1 = nn.Sequential(*conv(3, 8, 2), *conv(8, 8))
            self.e2 = nn.Sequential(*conv(8, 16), *conv(16, 16))
            self.e3 = nn.Sequential(*conv(16, 24), *conv(24, 24))
            self.e4 = nn.Sequential(*conv(24, 32), *conv(32, 32))
            self.e5 = nn.Sequential(*conv(32, 32), *conv(32, 32))
            self.d4 = nn.Sequential(*conv(64, 32))
            self.d3 = nn.Sequential(*conv(56, 24))
            self.d2 = nn.Sequential(*conv(40, 16))
            self.d1 = nn.Sequential(*conv(24, 8))
            self.out = nn.Conv2d(8, 3, 1)
            self.pool = nn.MaxPool2d(2)
            self.up = nn.Upsample(scale_factor=2, mode="nearest")

        def forward(self, x: torch.Tensor) -> torch.Tensor:
            a = self.e1(x)
            b = self.e2(self.pool(a))
            c = self.e3(self.pool(b))
            d = self.e4(self.pool(c))
            e = self.e5(self.pool(d))
            d = self.d4(torch.cat([self.up(e), d], 1))
            c = self.d3(torch.cat([self.up(d), c], 1))
            b = self.d2(torch.cat([self.up(c), b], 1))
            a = self.d1(torch.cat([self.up(b), a], 1))
            return torch.softmax(self.out(a), 1)

    return UNet()


def _half_model():
    from torch import nn

    def conv(a: int, b: int) -> list:
        return [nn.Conv2d(a, b, 3, padding=1), nn.BatchNorm2d(b), nn.ReLU()]

    def stage(a: int, b: int) -> list:
        # Two convolutions a level: pips cut by a tight outline, blur and glare need more
        # than one look at each scale.
        return [*conv(a, b), *conv(b, b), nn.MaxPool2d(2)]

    side = nets.HALF_SIDE // 8
    return nn.Sequential(
        *stage(3, 16),
        *stage(16, 32),
        *stage(32, 48),
        nn.Flatten(),
        nn.Linear(48 * side * side, 96),
        nn.ReLU(),
        nn.Dropout(0.2),
        nn.Linear(96, nets.NOT_A_HALF + 1),
        nn.Softmax(1),
    )


def _load_onnx(model, path: Path):
    """``model`` with the weights of an exported ONNX file (``--init``): the export folded
    each batch norm into its convolution, so the convolutions take the folded weights and
    the batch norms become identities, kept so by :func:`_fit` (fine-tuning goes on from
    the committed nets without their training data)."""
    import onnx
    import torch
    from onnx import numpy_helper
    from torch import nn

    graph = onnx.load(str(path)).graph
    inits = {i.name: numpy_helper.to_array(i) for i in graph.initializer}
    pairs = [
        [inits[x] for x in node.input if x in inits]
        for node in graph.node
        if node.op_type in ("Conv", "Gemm")
    ]
    layers = [m for m in model.modules() if isinstance(m, (nn.Conv2d, nn.Linear))]
    if len(pairs) != len(layers):
        raise SystemExit(
            str(
                Message(
                    "{path}: {n} layers, the model has {m}", path=path, n=len(pairs), m=len(layers)
                )
            )
        )
    with torch.no_grad():
        for layer, (weight, bias) in zip(layers, pairs, strict=True):
            layer.weight.copy_(torch.from_numpy(weight.copy()))
            assert layer.bias is not None
            layer.bias.copy_(torch.from_numpy(bias.copy()))
        for m in model.modules():
            if isinstance(m, nn.BatchNorm2d):
                m.reset_parameters()  # weight 1, bias 0, mean 0, variance 1
                m.eps = 0.0
                m.requires_grad_(False)
    return model


def _fit(model, batches, steps: int, lr: float, loss_fn, log: str) -> None:
    import torch

    opt = torch.optim.AdamW(model.parameters(), lr=lr, weight_decay=1e-4)
    sched = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=lr, total_steps=steps)
    model.train()
    for m in model.modules():
        if isinstance(m, torch.nn.BatchNorm2d) and not m.weight.requires_grad:
            m.eval()  # a folded batch norm (--init): an identity, kept so
    start = time.time()
    for step in range(steps):
        x, y = batches(step)
        opt.zero_grad()
        loss = loss_fn(model(x), y)
        loss.backward()
        opt.step()
        sched.step()
        if step % 100 == 0 or step == steps - 1:
            print(
                Message(
                    "{log} step {step}/{steps} loss {item:.4f} {value:.0f}s",
                    log=log,
                    step=step,
                    steps=steps,
                    item=loss.item(),
                    value=time.time() - start,
                )
            )
    model.eval()


def _export(model, example, path: Path) -> np.ndarray:
    """Write ``model`` as ONNX (opset 11; any batch, height and width) and return its output
    on ``example``."""
    import torch

    with torch.no_grad():
        torch.onnx.export(
            model,
            (torch.from_numpy(example),),
            str(path),
            opset_version=11,
            input_names=["input"],
            output_names=["output"],
            dynamic_axes={"input": {0: "n", 2: "h", 3: "w"}, "output": {0: "n"}},
            dynamo=False,
        )
        return model(torch.from_numpy(example)).numpy()


def train(
    seed: int,
    out: Path,
    scale: float = 1.0,
    workers: int = 2,
    only: str = "",
    init: Path | None = None,
    sizes: tuple[int, int] | None = None,
) -> None:
    """Train both nets (or ``only`` one) from ``seed``; write them and their check data to
    ``out``."""
    import torch

    torch.manual_seed(seed)
    # One thread: on a shared, busy machine more threads wait on each other.
    torch.set_num_threads(1)
    out.mkdir(parents=True, exist_ok=True)
    if only in ("", "halves"):
        half, x_half = _train_halves(seed, scale, workers, init, sizes)
        _save_checks(out, "halves", x_half, _export(half, x_half, out / nets.HALF_NET))
        _report(half, seed)
    if only in ("", "tiles"):
        seg = _train_tiles(seed, scale, workers, init, sizes)
        x_seg = nets.prepare_photo(render_family(seed, "mixed", size=(160, 128)).image)
        _save_checks(out, "tiles", x_seg, _export(seg, x_seg, out / nets.TILE_NET))


def _save_checks(out: Path, name: str, x: np.ndarray, y: np.ndarray) -> None:
    """Add one net's fixed inputs and exported outputs to ``checks.npz``."""
    path = out / "checks.npz"
    checks = dict(np.load(path)) if path.is_file() else {}
    checks[f"{name}_input"], checks[f"{name}_output"] = x, y
    np.savez_compressed(path, **checks)


def _train_halves(
    seed: int, scale: float, workers: int, init: Path | None, sizes: tuple[int, int] | None
):
    import torch

    torch.manual_seed(seed)
    rng = np.random.default_rng(seed)
    base = 1_000_000 * (seed + 1)
    t0 = time.time()
    photos, steps = sizes or (HALF_PHOTOS, HALF_STEPS)
    parts = _data(_half_sample, range(base, base + round(photos * scale)), workers)
    hx = torch.from_numpy(np.concatenate([p[0] for p in parts]))
    hy = torch.from_numpy(np.concatenate([p[1] for p in parts])).long()
    print(
        Message(
            "halves: {n_hy} crops from {n_parts} photos in {value:.0f}s",
            n_hy=len(hy),
            n_parts=len(parts),
            value=time.time() - t0,
        )
    )
    counts = torch.bincount(hy, minlength=nets.NOT_A_HALF + 1).float()
    print(Message("per class:"), counts.int().tolist())
    half = _half_model() if init is None else _load_onnx(_half_model(), init / nets.HALF_NET)

    def half_batch(_step: int):
        idx = torch.from_numpy(rng.integers(0, len(hy), 64))
        x = hx[idx]
        # Half a turn reads the same: train on both.
        flip = torch.from_numpy(rng.random(len(idx)) < 0.5)
        x[flip] = torch.flip(x[flip], dims=(2, 3))
        return x, hy[idx]

    def half_loss(p, y):
        return torch.nn.functional.nll_loss(torch.log(p + 1e-7), y)

    lr = 3e-3 if init is None else 1e-3
    _fit(half, half_batch, round(steps * scale), lr, half_loss, "halves")
    return half, hx[:8].numpy().copy()


def _train_tiles(
    seed: int, scale: float, workers: int, init: Path | None, sizes: tuple[int, int] | None
):
    import torch

    torch.manual_seed(seed)
    rng = np.random.default_rng(seed + 1)
    base = 1_000_000 * (seed + 1) + 500_000
    t0 = time.time()
    photos, steps = sizes or (TILE_PHOTOS, TILE_STEPS)
    parts = _data(_seg_sample, range(base, base + round(photos * scale)), workers)
    print(
        Message(
            "tiles: {n_parts} photos in {value:.0f}s", n_parts=len(parts), value=time.time() - t0
        )
    )
    seg = _seg_model() if init is None else _load_onnx(_seg_model(), init / nets.TILE_NET)
    # Faces and dividers are few pixels; the rim between touching tiles is what splits them.
    weights = torch.tensor([1.0, 2.0, 4.0])
    by_size: dict[tuple, list] = {}
    for part in parts:
        by_size.setdefault(part[0].shape[2:], []).append(part)
    groups = list(by_size.values())

    def seg_batch(step: int):
        # Photos of one size per batch.
        pool = groups[step % len(groups)]
        picks = [pool[i] for i in rng.integers(0, len(pool), 8)]
        x = torch.from_numpy(np.concatenate([p[0] for p in picks]))
        y = torch.from_numpy(np.stack([p[1] for p in picks])).long()
        w = torch.from_numpy(np.stack([p[2] for p in picks])).float()
        # Mirrored and turned photos are photos too.
        if rng.random() < 0.5:
            x, y, w = torch.flip(x, dims=(3,)), torch.flip(y, dims=(2,)), torch.flip(w, dims=(2,))
        if rng.random() < 0.5:
            x, y, w = torch.flip(x, dims=(2,)), torch.flip(y, dims=(1,)), torch.flip(w, dims=(1,))
        # Other tile and table colours: the colour channels in another order, or grey.
        x = x[:, torch.from_numpy(rng.permutation(3))]
        if rng.random() < 0.15:
            x = x.mean(dim=1, keepdim=True).expand(-1, 3, -1, -1).contiguous()
        # Down to the output's size: the strongest class of each 2 x 2 (a thin divider stays).
        y = torch.nn.functional.max_pool2d(y[:, None].float(), 2)[:, 0].long()
        w = 1.0 + RIM_WEIGHT * torch.nn.functional.max_pool2d(w[:, None], 2)[:, 0]
        return x, (y, w)

    def seg_loss(p, target):
        y, w = target
        loss = torch.nn.functional.nll_loss(
            torch.log(p + 1e-7), y, weight=weights, reduction="none"
        )
        return (loss * w).sum() / (weights[y] * w).sum()

    lr = 3e-3 if init is None else 1e-3
    _fit(seg, seg_batch, round(steps * scale), lr, seg_loss, "tiles")
    return seg


def _report(half, seed: int) -> None:
    """Accuracy of the halves net on fresh synthetic crops, per family."""
    import torch

    rng = np.random.default_rng(seed + 99)
    for family in FAMILIES:
        xs, ys = [], []
        for i in range(15):
            photo = render_family(10_000 + i, family, size=(640, 480))
            crops = half_crops(rng, photo, nets.HALF_SIDE, jitter=0.04)
            xs += [c for c, _ in crops]
            ys += [n if n >= 0 else nets.NOT_A_HALF for _, n in crops]
        with torch.no_grad():
            p = half(torch.from_numpy(nets.prepare_halves(xs))).numpy()
        right = float(np.mean(p.argmax(1) == np.array(ys)))
        print(
            Message(
                "halves on {family:<12} {n_ys:5} crops: {right:.1%} right",
                family=family,
                n_ys=len(ys),
                right=right,
            )
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--out", type=Path, default=MODELS)
    parser.add_argument("--scale", type=float, default=1.0, help=Message("data and steps, x"))
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--only", choices=("halves", "tiles"), default="")
    parser.add_argument(
        "--init",
        type=Path,
        help=Message("fine-tune the ONNX nets in this folder, not from scratch"),
    )
    parser.add_argument(
        "--size",
        type=int,
        nargs=2,
        metavar=("PHOTOS", "STEPS"),
        help=Message("photos and steps"),
    )
    args = parser.parse_args()
    os.environ.setdefault("OMP_NUM_THREADS", "1")
    cv2.setNumThreads(1)
    start = time.time()
    sizes = tuple(args.size) if args.size else None
    train(args.seed, args.out, args.scale, args.workers, args.only, args.init, sizes)
    print(
        Message(
            "trained in {value:.1f} minutes; wrote {out}",
            value=(time.time() - start) / 60,
            out=args.out,
        )
    )


if __name__ == "__main__":
    main()
