"""The Bao Huang rules engine (rules standard ``baohuang.md``, BH-1 … BH-25).

Pure Python, standard library only. ``engine.ENGINE`` implements the engine contract of DESIGN.md.
"""
