from django.apps import AppConfig


class ApiConfig(AppConfig):
    name = "apps.api"
    label = "api"
    verbose_name = "API"

    def ready(self) -> None:
        from . import authentication, closing  # noqa: F401 - the OpenAPI token scheme; a receiver
