"""``camelup duel``: the command-line side of :mod:`advisor.simulate.duel` (checks
before work, the text and JSON output)."""

from __future__ import annotations

import argparse
import math
import re

from advisor.errors import AdvisorError
from advisor._tools.intervals import too_few
from advisor._tools.jsonio import dumps

__all__ = ["run_duel", "parse_sprt", "format_duel", "duel_json"]

#: Why this module imports inside its functions (tests/test_imports_top.py checks it).
LAZY_IMPORTS = "the command line loads a command's engine only when the command runs: camelup --help stays fast"

_NUMBER = r"[+-]?(?:[0-9]{1,3}(?:\.[0-9]{0,6})?|\.[0-9]{1,6})"
_SPRT = re.compile(rf"({_NUMBER}),({_NUMBER})", re.ASCII)


def parse_sprt(text: str | None, alpha: float, beta: float, min_pairs: int = 100):
    """The :class:`~advisor.simulate.duel.SPRT` of ``--sprt D0,D1`` (points of win
    rate) with ``--alpha``, ``--beta`` and ``--sprt-min``; ``None`` without
    ``--sprt``."""
    from advisor.simulate.duel import SPRT

    if text is None:
        return None
    match = _SPRT.fullmatch(text.replace(" ", ""))
    if not match:
        raise AdvisorError(f"--sprt takes D0,D1 in points of win rate, e.g. 0,2, not {text[:30]!r}")
    d0, d1 = float(match[1]), float(match[2])
    if not d0 < d1:
        raise AdvisorError(f"--sprt {text}: D1 must exceed D0 (H1 says A is better than H0 says)")
    if not (-100 < d0 and d1 < 100):
        raise AdvisorError(f"--sprt {text}: a win-rate difference lies between -100 and 100 points")
    return SPRT(h0=d0 / 100, h1=d1 / 100, alpha=alpha, beta=beta, min_pairs=min_pairs)


def run_duel(args: argparse.Namespace, edition) -> int:
    from advisor.simulate.duel import duel

    if args.sprt is None and (args.alpha != 0.05 or args.beta != 0.05 or args.sprt_min != 100):
        raise AdvisorError("--alpha, --beta and --sprt-min apply with --sprt")
    if args.resume and not args.output:
        raise AdvisorError("--resume continues a run written with -o FILE: give -o")
    sprt = parse_sprt(args.sprt, args.alpha, args.beta, args.sprt_min)
    field = None if args.field is None else [b.strip() for b in args.field.split(",") if b.strip()]
    frame = duel(args.a, args.b, args.games, players=args.players, field=field, edition=edition, seed=args.seed,
                 sprt=sprt, processes=args.processes, engine=args.engine, scheduler=args.scheduler,
                 output=args.output, resume=args.resume, overwrite=args.overwrite)
    rules = getattr(edition, "rules_json", lambda: None)()
    if args.json:
        print(dumps(duel_json(frame, args.edition, rules)))
    else:
        print(format_duel(frame, args.edition, rules))
    return 0


def duel_json(frame, edition: str, rules: dict | None = None) -> dict:
    """The ``--json`` object of a duel (NaN becomes null)."""
    attrs = frame.attrs
    out = {"a": attrs["a"], "b": attrs["b"], "players": attrs["players"], "field": attrs["field"],
           "edition": edition}
    if rules is not None:
        out["rules"] = rules
    out.update(seed=attrs["seed"], dice="leg", pairs=attrs["pairs"], games=attrs["games"])
    for name in ("win_rate", "money"):
        out[name] = {k: float(v) for k, v in frame.loc[name].items()}
    out["sprt"] = attrs["sprt"]
    return out


def _signed(x: float, spec: str) -> str:
    return "-" if x != x else f"{x:+{spec}}"


def format_duel(frame, edition: str, rules: dict | None = None) -> str:
    """The text report of a duel."""
    attrs = frame.attrs
    a, b, pairs = attrs["a"], attrs["b"], attrs["pairs"]
    variant = "" if rules is None else f", {rules['name']} rules"
    game = "Camel Up Cards" if edition == "cards" else f"{edition} edition"
    w = max(14, len(a) + 4, len(b) + 4)  # columns wide enough for the bots' names
    lines = [f"Duel, {game}{variant}, {attrs['players']} players, seed {attrs['seed']}: A {a} against "
             f"B {b}, {pairs:,} pair{'s' * (pairs != 1)} ({attrs['games']:,} games).",
             f"Each pair: two games from one seed with the same "
             f"{'deals and race-deck keys per leg' if edition == 'cards' else 'dice'}, "
             f"A then B in seat pair mod {attrs['players']}; "
             f"field: {', '.join(attrs['field'])}.",
             f"{'':<10}{'A ' + a:>{w}}{'B ' + b:>{w}}{'A - B':>10}   95% interval"]
    win, money = frame.loc["win_rate"], frame.loc["money"]
    interval = "-" if win["diff_lo"] != win["diff_lo"] else \
        f"{100 * win['diff_lo']:+.1f} to {100 * win['diff_hi']:+.1f} points"
    lines.append(f"{'win rate':<10}{100 * win['a']:{w - 1}.1f}%{100 * win['b']:{w - 1}.1f}%{_signed(100 * win['diff'], '.1f'):>10}"
                 f"   {interval}")
    interval = "-" if money["diff_lo"] != money["diff_lo"] else \
        f"{money['diff_lo']:+.2f} to {money['diff_hi']:+.2f} coins"
    lines.append(f"{'money':<10}{money['a']:{w}.2f}{money['b']:{w}.2f}{_signed(money['diff'], '.2f'):>10}   {interval}")

    warning = too_few(pairs, "pairs" if pairs != 1 else "pair")
    if warning:
        lines.append(f"Warning: {warning}.")
    if pairs > 1:
        gains = []
        for name, row in (("win", win), ("money", money)):
            ratio = (row["sd_unpaired"] / row["sd"]) ** 2 if row["sd"] > 0 else math.inf
            gains.append(f"{name} {row['sd']:.3g}, independent games {row['sd_unpaired']:.3g} "
                         + (f"(they need {ratio:.1f}x as many games for the same interval)" if math.isfinite(ratio)
                            else "(no spread at all: the two sides played alike)"))
        lines.append("Standard deviation of A - B per pair: " + "; ".join(gains) + ".")
    sprt = attrs["sprt"]
    if sprt is not None:
        head = (f"SPRT (H0: A's win rate {100 * sprt['h0']:+g} points above B's, H1: {100 * sprt['h1']:+g} points; "
                f"alpha {sprt['alpha']:g}, beta {sprt['beta']:g}; bounds {sprt['lower']:.2f}, {sprt['upper']:.2f})")
        llr = "not yet looked at" if sprt["llr"] is None else f"LLR {sprt['llr']:.2f}"
        if sprt["decision"] is None:
            lines.append(f"{head}: undecided after {pairs:,} pair{'s' * (pairs != 1)} ({llr}).")
        else:
            lines.append(f"{head}: {sprt['decision']} accepted after {sprt['pairs']:,} pairs ({llr}).")
    return "\n".join(lines)
