"""The rating-history chart: an inline SVG rendered on the server (no JavaScript)."""

from __future__ import annotations

from dataclasses import dataclass

from django.utils.html import format_html, format_html_join
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext, gettext_lazy

COLOURS = ["#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#8c564b", "#e377c2", "#17becf", "#7f7f7f"]
#: Each line's dash pattern, beside its colour: players with the same results have the same ratings,
#: so their lines coincide (common early in a season); a dashed line drawn over a solid one lets the
#: colour below show through its gaps, and the pattern tells lines apart without colour vision. The
#: legend's sample of each line is drawn with the same pattern.
DASHES = ["", "7 4", "2 3", "10 3 2 3"]
#: Axis titles: what the chart measures (the rating is openskill's μ − 3σ) and along what.
Y_TITLE = gettext_lazy("Rating (μ − 3σ)")
X_TITLE = gettext_lazy("Games played")
#: A generous width per character of an 11 px legend name, so that a long name is never cut.
CHAR_WIDTH = 7.5


def rating_chart(*, series: dict[str, list[float]], width: int = 640, height: int = 260) -> SafeString:
    """Lines of each player's rating after each of their games, with labelled axes and a legend.

    Names are escaped once (by ``format_html``) and shown in full: the legend is as wide as the
    longest name needs, and the picture grows with it.
    """
    if not series:
        return mark_safe("")
    left, right_pad, top, bottom = 52, 12, 14, 40
    legend = 24 + int(CHAR_WIDTH * max(len(name) for name in series))
    total_w = width + legend
    values = [v for line in series.values() for v in line]
    low, high = min(values), max(values)
    span = (high - low) or 1.0
    longest = max(len(line) for line in series.values())
    plot_w = width - left - right_pad
    plot_h = height - top - bottom
    step = plot_w / max(1, longest - 1)
    legend_h = top + 16 * len(series)
    total_h = max(height, legend_h + 8)

    def y(v: float) -> float:
        return top + plot_h * (1 - (v - low) / span)

    parts = [
        format_html(
            '<svg xmlns="http://www.w3.org/2000/svg" class="rating-chart" role="img" aria-label="{}" '
            'width="{}" height="{}" viewBox="0 0 {} {}"><title>{}</title>',
            gettext("Rating history: rating (μ − 3σ) against games played"),
            total_w,
            total_h,
            total_w,
            total_h,
            gettext("Rating history"),
        ),
        # The axes, their ticks and their titles.
        format_html(
            '<path d="M{} {}V{}H{}" fill="none" stroke="#555" stroke-width="1"/>',
            left,
            top,
            top + plot_h,
            left + plot_w,
        ),
        format_html(
            '<text x="{}" y="{}" font-size="10" text-anchor="end">{}</text>', left - 4, top + 4, f"{high:.1f}"
        ),
        format_html(
            '<text x="{}" y="{}" font-size="10" text-anchor="end">{}</text>',
            left - 4,
            top + plot_h,
            f"{low:.1f}",
        ),
        format_html('<text x="{}" y="{}" font-size="10">0</text>', left, top + plot_h + 13),
        format_html(
            '<text x="{}" y="{}" font-size="10" text-anchor="end">{}</text>',
            left + plot_w,
            top + plot_h + 13,
            longest - 1,
        ),
        format_html(
            '<text class="axis-title x" x="{}" y="{}" font-size="11" text-anchor="middle">{}</text>',
            left + plot_w / 2,
            top + plot_h + 30,
            X_TITLE,
        ),
        format_html(
            '<text class="axis-title y" x="{}" y="{}" font-size="11" text-anchor="middle" '
            'transform="rotate(-90 {} {})">{}</text>',
            14,
            top + plot_h / 2,
            14,
            top + plot_h / 2,
            Y_TITLE,
        ),
    ]
    styles = [line_style(index) for index in range(len(series))]
    drawn = [
        (name, line, style, [(left + i * step, y(v)) for i, v in enumerate(line)])
        for (name, line), style in zip(series.items(), styles, strict=True)
    ]
    # Solid lines first, then the dashed ones over them (DASHES' order), so that where lines coincide
    # each shows through the gaps of the ones drawn over it.
    for name, _line, style, points in sorted(drawn, key=lambda d: DASHES.index(d[2].dash)):
        parts.append(
            format_html(
                '<polyline fill="none" stroke="{}" stroke-width="2"{} points="{}">'
                "<title>{}</title></polyline>",
                style.colour,
                style.dash_attributes(),
                " ".join(f"{px:.1f},{py:.1f}" for px, py in points),
                name,
            )
        )
    for name, line, style, points in drawn:
        # A dot at each game, its rating in the tooltip.
        parts.append(
            format_html_join(
                "",
                '<circle cx="{}" cy="{}" r="2.5" fill="{}"><title>{}</title></circle>',
                (
                    (f"{px:.1f}", f"{py:.1f}", style.colour, f"{name}: {v:.1f} {_after(i)}")
                    for i, ((px, py), v) in enumerate(zip(points, line, strict=True))
                ),
            )
        )
    for index, (name, style) in enumerate(zip(series, styles, strict=True)):
        ly = top + 10 + index * 16
        parts += [
            format_html(
                '<line class="legend-line" x1="{}" y1="{}" x2="{}" y2="{}" stroke="{}" stroke-width="2"{}/>',
                width + 4,
                ly - 4,
                width + 18,
                ly - 4,
                style.colour,
                style.dash_attributes(),
            ),
            format_html(
                '<text class="legend-name" x="{}" y="{}" font-size="11">{}</text>', width + 22, ly, name
            ),
        ]
    parts.append(mark_safe("</svg>"))
    return format_html_join("", "{}", ((p,) for p in parts))


@dataclass(frozen=True)
class LineStyle:
    colour: str
    dash: str  #: an SVG ``stroke-dasharray``; "" for a solid line
    offset: float  #: its ``stroke-dashoffset``

    def dash_attributes(self) -> SafeString:
        if not self.dash:
            return mark_safe("")
        if not self.offset:
            return format_html(' stroke-dasharray="{}"', self.dash)
        return format_html(' stroke-dasharray="{}" stroke-dashoffset="{}"', self.dash, f"{self.offset:g}")


def line_style(index: int) -> LineStyle:
    """The colour and dash pattern of the chart's ``index``-th line. No two of the first
    ``len(COLOURS) * len(DASHES)`` lines look alike, and lines next to each other in the legend differ
    in both (``len(COLOURS)`` and ``len(DASHES)`` have no common factor). Lines with the same pattern
    start it at different offsets (half a period apart for the next one), so that two of them that
    coincide show both colours."""
    dash = DASHES[index % len(DASHES)]
    period = sum(float(n) for n in dash.split())
    return LineStyle(
        COLOURS[index % len(COLOURS)], dash, (index // len(DASHES)) * period / 2 % period if dash else 0.0
    )


def _after(games: int) -> str:
    return "at the start" if games == 0 else f"after {games} game{'' if games == 1 else 's'}"
