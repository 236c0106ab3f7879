"""The Bao Bei rules engine (rules/baobei.md). Pure Python, standard library only."""
