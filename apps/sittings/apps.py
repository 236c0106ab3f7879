from django.apps import AppConfig


class SittingsConfig(AppConfig):
    name = "apps.sittings"
    label = "sittings"
    verbose_name = "Sittings: play together at agreed times"
