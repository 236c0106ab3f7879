"""The rating-history chart: an inline SVG rendered on the server (no JavaScript)."""

from __future__ import annotations

from django.utils.html import format_html, format_html_join
from django.utils.safestring import SafeString, mark_safe

COLOURS = ["#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#8c564b", "#e377c2", "#17becf", "#7f7f7f"]
#: Axis titles: what the chart measures (the rating is openskill's μ − 3σ) and along what.
Y_TITLE = "Rating (μ − 3σ)"
X_TITLE = "Games played"
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
            'width="{}" height="{}" viewBox="0 0 {} {}"><title>Rating history</title>',
            f"Rating history: {Y_TITLE} against {X_TITLE.lower()}",
            total_w,
            total_h,
            total_w,
            total_h,
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
    for index, (name, line) in enumerate(series.items()):
        colour = COLOURS[index % len(COLOURS)]
        points = " ".join(f"{left + i * step:.1f},{y(v):.1f}" for i, v in enumerate(line))
        ly = top + 10 + index * 16
        parts += [
            format_html(
                '<polyline fill="none" stroke="{}" stroke-width="2" points="{}"><title>{}</title></polyline>',
                colour,
                points,
                name,
            ),
            format_html('<rect x="{}" y="{}" width="10" height="10" fill="{}"/>', width + 8, ly - 9, colour),
            format_html(
                '<text class="legend-name" x="{}" y="{}" font-size="11">{}</text>', width + 22, ly, name
            ),
        ]
    parts.append(mark_safe("</svg>"))
    return format_html_join("", "{}", ((p,) for p in parts))
