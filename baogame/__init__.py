"""baogame: an asynchronous play-by-web and play-by-email service for Bao Bei and Bao Huang.

The package stays importable without Django so that ``baogame.rules`` is pure Python; the Celery
app is loaded by ``apps.games.apps.GamesConfig.ready``.
"""
