from django.apps import AppConfig


class SittingsConfig(AppConfig):
    name = "apps.sittings"
    label = "sittings"
    verbose_name = "Sittings: play together at agreed times"

    def ready(self) -> None:
        from apps.games import estimates
        from apps.games.clock import leaving

        from . import receivers  # noqa: F401 - connects the receivers
        from .selectors import has_weekly_sittings, seat_here

        estimates.register_sittings_check(has_weekly_sittings)
        leaving.register_presence_check(seat_here)
