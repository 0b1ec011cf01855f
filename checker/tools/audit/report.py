"""What an audit found: the summary it prints and the HTML report it writes.

The report is one self-contained page (no script, no external file: it works
offline) with charts drawn by matplotlib as inline SVG: the status counts, the
violations by rule id, the game lengths and the throughput over time; then
the rows that are not ``ok``, each linked to its ``/game`` permalink on
``site`` when one is given (games from the start position with at most 60
turns, as ``/game`` takes them), opened at the first illegal turn.  The
table's values are OUT's (the first illegal turn's 0-based index), and every
text in it is HTML-escaped: ids, file names and errors come from the records.

>>> s = Summary()
>>> s.add({"status": "ok", "reason": "tiebreak", "violations": [], "checked": 60})
>>> s.add({"status": "illegal", "reason": None, "violations": ["place.empty"], "checked": 3})
>>> s.lines()[0]
'audit: 2 records: 1 ok, 1 illegal, 0 result-mismatch, 0 bad-record'
"""

from __future__ import annotations

import html
import io
from collections import Counter
from dataclasses import dataclass, field
from urllib.parse import quote

from checker.tools.audit.records import STATUSES

__all__ = ["Summary", "write_report"]

TOP_VIOLATIONS = 10


@dataclass
class Summary:
    """Counts per status, per ending reason and per violated rule id; game
    lengths; the throughput over time."""

    total: int = 0
    statuses: Counter = field(default_factory=Counter)
    reasons: Counter = field(default_factory=Counter)
    violations: Counter = field(default_factory=Counter)
    lengths: Counter = field(default_factory=Counter)
    timeline: list[tuple[float, int]] = field(default_factory=list)  # (seconds, rows written by then)
    seconds: float = 0.0
    workers: int = 1
    judged: int = 0  # rows judged by this run (not kept from an earlier one)
    command_peak_mib: float = 0.0
    worker_peak_mib: float | None = None  # the largest worker's peak (None: judged in the command)

    def add(self, row: dict) -> None:
        self.total += 1
        self.statuses[row["status"]] += 1
        if row.get("reason"):
            self.reasons[row["reason"]] += 1
        self.violations.update(row.get("violations") or ())
        self.lengths[row.get("checked") or 0] += 1

    def tick(self, seconds: float, rows: int) -> None:
        self.judged += rows
        self.timeline.append((seconds, self.judged))

    @property
    def all_ok(self) -> bool:
        return self.statuses["ok"] == self.total

    def rate(self) -> float:
        return self.judged / self.seconds if self.seconds > 0 else 0.0

    def lines(self) -> list[str]:
        counts = ", ".join(f"{self.statuses[s]:,} {s}" for s in STATUSES)
        out = [f"audit: {self.total:,} record{'s' if self.total != 1 else ''}: {counts}"]
        if self.reasons:
            out.append("endings: " + ", ".join(f"{r} {n:,}" for r, n in self.reasons.most_common()))
        if self.violations:
            top = self.violations.most_common(TOP_VIOLATIONS)
            out.append("most violated: " + ", ".join(f"{r} {n:,}" for r, n in top))
        if self.seconds > 0:
            out.append(
                f"speed: {self.judged:,} games judged in {self.seconds:.1f} s: {self.rate():,.0f} games/s "
                f"({self.workers} worker{'s' if self.workers != 1 else ''})"
            )
        if self.command_peak_mib:
            workers = "" if self.worker_peak_mib is None else f", {self.worker_peak_mib:,.0f} MiB in the largest worker"
            out.append(f"memory: peak {self.command_peak_mib:,.0f} MiB in the command{workers}")
        return out


def _svg(figure) -> str:
    buffer = io.StringIO()
    figure.savefig(buffer, format="svg", bbox_inches="tight", metadata={"Date": None})
    text = buffer.getvalue()
    return text[text.index("<svg") :]


def _charts(summary: Summary) -> list[tuple[str, str]]:
    import matplotlib

    matplotlib.use("Agg")
    from matplotlib.figure import Figure

    charts = []
    fig = Figure(figsize=(6, 2.6))
    ax = fig.subplots()
    ax.barh(list(STATUSES)[::-1], [summary.statuses[s] for s in STATUSES][::-1], color="#4a6fa5")
    ax.set_xlabel("records")
    charts.append(("Records by status", _svg(fig)))
    top = summary.violations.most_common(TOP_VIOLATIONS)
    fig = Figure(figsize=(6, 0.4 + 0.3 * max(1, len(top))))
    ax = fig.subplots()
    ax.barh([r for r, _ in top][::-1] or ["(none)"], [n for _, n in top][::-1] or [0], color="#b5523b")
    ax.set_xlabel("first illegal turns")
    charts.append(("Violations by rule id", _svg(fig)))
    fig = Figure(figsize=(6, 2.6))
    ax = fig.subplots()
    lengths = sorted(summary.lengths)
    ax.bar(lengths, [summary.lengths[n] for n in lengths], color="#4a6fa5")
    ax.set_xlabel("turns judged")
    ax.set_ylabel("records")
    charts.append(("Game lengths", _svg(fig)))
    fig = Figure(figsize=(6, 2.6))
    ax = fig.subplots()
    points = [(0.0, 0)] + summary.timeline
    rates = [(t1, (n1 - n0) / (t1 - t0)) for (t0, n0), (t1, n1) in zip(points, points[1:]) if t1 > t0]
    ax.plot([t for t, _ in rates], [r for _, r in rates], color="#4a6fa5")
    ax.set_xlabel("seconds")
    ax.set_ylabel("games/s")
    charts.append(("Throughput over time", _svg(fig)))
    return charts


def game_link(site: str, row: dict, sheet: str | None) -> str | None:
    if not site or sheet is None:
        return None
    at = f"&at={row['first_illegal'] + 1}" if row["first_illegal"] is not None else ""
    return f"{site.rstrip('/')}/game?turns={quote(sheet, safe='')}{at}"


def _shown(value) -> str:
    """A value of OUT in the report's table, HTML-escaped: a null (no id, no result, no claim) as "—"."""
    return "—" if value is None else html.escape(str(value))


def write_report(path: str, summary: Summary, rows: list[dict], inputs: list[str], site: str | None) -> None:
    """The HTML report of an audit (``rows``: the listed rows, those not ok)."""
    e = html.escape
    parts = [
        "<!doctype html><html lang='en'><head><meta charset='utf-8'>",
        "<meta name='viewport' content='width=device-width, initial-scale=1'>",
        "<title>Hexodic archive audit</title><style>",
        "body{font:16px/1.5 system-ui,sans-serif;max-width:60rem;margin:1rem auto;padding:0 1rem;color:#1d1d1f}",
        "table{border-collapse:collapse}td,th{padding:.2rem .6rem;border-bottom:1px solid #ddd;text-align:left}",
        "svg{max-width:100%;height:auto}</style></head><body>",
        "<h1>Hexodic archive audit</h1>",
        "<p>Inputs: " + ", ".join(f"<code>{e(i)}</code>" for i in inputs) + "</p>",
        "<ul>" + "".join(f"<li>{e(line)}</li>" for line in summary.lines()) + "</ul>",
    ]
    for title, svg in _charts(summary):
        parts.append(f"<h2>{e(title)}</h2><figure role='img' aria-label='{e(title)}'>{svg}</figure>")
    parts.append(f"<h2>Records that are not ok ({len(rows):,} listed)</h2>")
    parts.append(
        "<table><thead><tr><th>file</th><th>line</th><th>id</th><th>status</th>"
        "<th>first illegal</th><th>violations</th><th>result / claimed</th><th>error</th></tr></thead><tbody>"
    )
    for row in rows:
        link = game_link(site or "", row, row.get("sheet"))
        ident = _shown(row["id"])
        if link:
            ident = f"<a href='{e(link)}'>{ident}</a>"
        first = "" if row["first_illegal"] is None else str(row["first_illegal"])  # OUT's index: 0-based
        parts.append(
            f"<tr><td>{e(row['file'])}</td><td>{row['line']}</td><td>{ident}</td><td>{e(row['status'])}</td>"
            f"<td>{first}</td><td>{e(', '.join(row['violations']))}</td>"
            f"<td>{_shown(row['result'])} / {_shown(row['claimed'])}</td><td>{e(row['error'] or '')}</td></tr>"
        )
    parts.append("</tbody></table></body></html>")
    with open(path, "w", encoding="utf-8") as fh:
        fh.write("\n".join(parts))
