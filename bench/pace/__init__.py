"""The pace benchmark (``manage.py bench_pace``): how long correspondence games take under a fixed model
of people, with the real clock and standing orders, in simulated time."""
