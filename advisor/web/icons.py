"""The page's home-screen icons: a stack of three camels on sand, as the
board draws a stack.  ``python -m advisor.web.icons`` writes the PNG files
(matplotlib) beside the hand-written ``static/icon.svg``; the files are
shipped in the package, so nothing is drawn while serving."""

from __future__ import annotations

import sys
from pathlib import Path

__all__ = ["SIZES", "write_icons"]

#: the PNG sizes a phone asks for (Android: 192 and 512; iOS: 180)
SIZES = (180, 192, 512)

# (fill, letter, text colour) bottom to top, as icon.svg draws them
_CAMELS = (("#1565c0", "B", "#ffffff"), ("#f9d71c", "Y", "#1b1b1b"), ("#2e7d32", "G", "#ffffff"))


def write_icons(folder: Path) -> list[Path]:
    """Write icon-<size>.png for every size in SIZES into ``folder``."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from matplotlib.patches import FancyBboxPatch

    written = []
    for size in SIZES:
        fig = plt.figure(figsize=(1, 1), dpi=size)
        ax = fig.add_axes((0, 0, 1, 1))
        ax.set_xlim(0, 100)
        ax.set_ylim(100, 0)
        ax.axis("off")
        fig.patch.set_alpha(0)
        # full-bleed sand: a maskable icon may be cut to a circle, so the
        # camels stay inside the middle 80%
        ax.add_patch(FancyBboxPatch((0, 0), 100, 100, boxstyle="round,pad=0,rounding_size=18", fc="#f3e3bf", ec="none"))
        ax.add_patch(FancyBboxPatch((14, 78), 72, 6, boxstyle="round,pad=0,rounding_size=3", fc="#c2571a", ec="none"))
        for k, (fill, letter, ink) in enumerate(_CAMELS):
            y = 58 - 20 * k
            ax.add_patch(FancyBboxPatch((20, y), 60, 17, boxstyle="round,pad=0,rounding_size=4", fc=fill,
                                        ec="#00000066", lw=0.7))
            ax.text(27, y + 8.8, letter, color=ink, fontsize=9.5, fontweight="bold", va="center",
                    ha="left", family="DejaVu Sans")
        path = folder / f"icon-{size}.png"
        tmp = path.with_suffix(".png.tmp")
        fig.savefig(tmp, dpi=size, format="png")
        plt.close(fig)
        tmp.replace(path)
        written.append(path)
    return written


if __name__ == "__main__":  # pragma: no cover - run by hand when the design changes
    for p in write_icons(Path(__file__).with_name("static")):
        print(p, file=sys.stdout)
