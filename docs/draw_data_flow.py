"""Draw docs/data-flow.png, the picture of jurycal's data flow (the mermaid diagram of design.md).

Run from the repository root: ``python docs/draw_data_flow.py``.
"""

from __future__ import annotations

from pathlib import Path

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402
from matplotlib.patches import FancyBboxPatch  # noqa: E402

__all__ = ["BOXES", "ARROWS", "draw"]

# name: (x, y, text, colour); x, y are the box centre on a 20 x 9 canvas
BOXES = {
    "raw": (1.8, 7.6, "raw validator outputs\n(messy JSON per response)", "#f2d7d5"),
    "logs": (1.8, 5.9, "other tools' logs\n(Inspect, promptfoo, ...)", "#f2d7d5"),
    "judgments": (6.3, 6.75, "judgments table\ngenerator, item,\nvalidator, label", "#d6eaf8"),
    "human": (6.3, 3.9, "human labels\ngenerator, item, human", "#d6eaf8"),
    "cal": (6.3, 1.4, "one judge:\ncalibration 2 x 2 table\n+ test counts", "#d6eaf8"),
    "votes": (11.0, 7.9, "votes\nitems x validators", "#d5f5e3"),
    "counts": (11.0, 5.9, "counts\nn_valid, n_labelled\nper generator x validator", "#d5f5e3"),
    "anchors": (11.0, 3.9, "anchors\npooled confusion counts", "#d5f5e3"),
    "ensemble": (14.8, 7.9, "ensemble\nvote, pick_threshold", "#fcf3cf"),
    "latent": (14.8, 4.9, "latent-trait model\nLatentTraitModel", "#fcf3cf"),
    "single": (14.8, 1.4, "single judge\nnaive, Rogan-Gladen, PPI++", "#fcf3cf"),
    "results": (18.4, 4.9, "results\nestimates, intervals,\nwarnings", "#e8daef"),
    "report": (18.4, 1.4, "report card\n.md / .html", "#e8daef"),
}
ARROWS = [
    ("raw", "judgments", "repair"),
    ("logs", "judgments", "jurycal\nimport"),
    ("judgments", "votes", "vote_matrix"),
    ("judgments", "counts", "count"),
    ("judgments", "anchors", ""),
    ("human", "anchors", ""),
    ("votes", "ensemble", ""),
    ("counts", "latent", ""),
    ("anchors", "latent", ""),
    ("cal", "single", ""),
    ("ensemble", "results", ""),
    ("latent", "results", ""),
    ("single", "results", ""),
    ("results", "report", ""),
]
WIDTH, HEIGHT = 3.0, 1.3


def _edge(x: float, y: float, dx: float, dy: float) -> float:
    """How far along (dx, dy) a line from a box's centre (x, y) leaves the box."""
    half_w, half_h = WIDTH / 2 + 0.12, HEIGHT / 2 + 0.12
    return min(half_w / abs(dx) if dx else float("inf"), half_h / abs(dy) if dy else float("inf"))


def draw(path: Path) -> None:
    """Draw the data flow and save it as a PNG at ``path``."""
    fig, ax = plt.subplots(figsize=(20, 9))
    ax.set(xlim=(0, 20), ylim=(0.3, 8.9))
    ax.axis("off")
    for x, y, text, colour in BOXES.values():
        ax.add_patch(
            FancyBboxPatch(
                (x - WIDTH / 2, y - HEIGHT / 2),
                WIDTH,
                HEIGHT,
                boxstyle="round,pad=0.08",
                facecolor=colour,
                edgecolor="#555555",
            )
        )
        ax.text(x, y, text, ha="center", va="center", fontsize=11)
    for start, end, label in ARROWS:
        (x0, y0, *_), (x1, y1, *_) = BOXES[start], BOXES[end]
        dx, dy = x1 - x0, y1 - y0
        length = (dx**2 + dy**2) ** 0.5
        dx, dy = dx / length, dy / length
        t0, t1 = _edge(x0, y0, dx, dy), length - _edge(x1, y1, dx, dy)
        ax.annotate(
            "",
            xy=(x0 + t1 * dx, y0 + t1 * dy),
            xytext=(x0 + t0 * dx, y0 + t0 * dy),
            arrowprops={
                "arrowstyle": "-|>",
                "color": "#333333",
                "shrinkA": 0,
                "shrinkB": 0,
                "mutation_scale": 18,
            },
        )
        if label:
            ax.text(
                x0 + (t0 + t1) / 2 * dx,
                y0 + (t0 + t1) / 2 * dy + 0.15,
                label,
                ha="center",
                va="bottom",
                fontsize=11,
                style="italic",
                color="#1a5276",
            )
    ax.set_title("jurycal: from judges' verdicts to calibrated estimates", fontsize=14)
    fig.savefig(path, dpi=80, bbox_inches="tight")
    plt.close(fig)


if __name__ == "__main__":
    draw(Path(__file__).resolve().parent / "data-flow.png")
