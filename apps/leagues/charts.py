"""The rating-history chart: an inline SVG rendered on the server (no JavaScript)."""

from __future__ import annotations

from django.utils.html import escape, format_html
from django.utils.safestring import SafeString, mark_safe

COLOURS = ["#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#8c564b", "#e377c2", "#17becf", "#7f7f7f"]


def rating_chart(*, series: dict[str, list[float]], width: int = 640, height: int = 240) -> SafeString:
    """Lines of each player's rating after each of their games; names are escaped."""
    if not series:
        return mark_safe("")
    pad, legend = 30, 140
    values = [v for line in series.values() for v in line]
    low, high = min(values), max(values)
    span = (high - low) or 1.0
    longest = max(len(line) for line in series.values())
    plot_w = width - legend - 2 * pad
    step = plot_w / max(1, longest - 1)

    def y(v: float) -> float:
        return pad + (height - 2 * pad) * (1 - (v - low) / span)

    parts = [
        format_html(
            '<svg xmlns="http://www.w3.org/2000/svg" class="rating-chart" role="img" width="{}" height="{}" '
            'viewBox="0 0 {} {}"><title>Rating history</title>',
            width,
            height,
            width,
            height,
        ),
        format_html('<text x="2" y="{}" font-size="10">{}</text>', pad, f"{high:.1f}"),
        format_html('<text x="2" y="{}" font-size="10">{}</text>', height - pad, f"{low:.1f}"),
    ]
    for index, (name, line) in enumerate(series.items()):
        colour = COLOURS[index % len(COLOURS)]
        points = " ".join(f"{pad + i * step:.1f},{y(v):.1f}" for i, v in enumerate(line))
        parts.append(
            format_html(
                '<polyline fill="none" stroke="{}" stroke-width="2" points="{}"><title>{}</title></polyline>',
                colour,
                points,
                name,
            )
        )
        ly = pad + index * 14
        parts.append(
            format_html(
                '<rect x="{}" y="{}" width="10" height="10" fill="{}"/>', width - legend, ly - 9, colour
            )
        )
        parts.append(
            format_html(
                '<text x="{}" y="{}" font-size="11">{}</text>', width - legend + 14, ly, escape(name)[:20]
            )
        )
    parts.append(mark_safe("</svg>"))
    return mark_safe("".join(parts))
