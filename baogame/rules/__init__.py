"""Pure-Python game engines. Nothing below this package imports Django."""
