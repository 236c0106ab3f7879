"""``python -m baogame.rules.bench baobei|baohuang --games N``: the engine benchmark (``bench.engines``)."""

from __future__ import annotations

import sys

from bench.engines import main

if __name__ == "__main__":
    sys.exit(main())
