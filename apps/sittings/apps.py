from django.apps import AppConfig


class SittingsConfig(AppConfig):
    name = "apps.sittings"
    label = "sittings"
    verbose_name = "Sittings: play together at agreed times"

    def ready(self) -> None:
        from apps.games import estimates

        from .selectors import has_weekly_sittings

        estimates.register_sittings_check(has_weekly_sittings)
