"""The cost ladder of a move request (``manage.py bench_ladder``): the floor, then one layer at a time
up to the site (``rungs``), served by gunicorn and loaded by a wrk-like driver that plays real moves
(``driver``, ``games``); ``command`` runs the rungs and prints their CPU per request side by side."""
