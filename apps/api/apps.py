from django.apps import AppConfig


class ApiConfig(AppConfig):
    name = "apps.api"
    label = "api"
    verbose_name = "API"

    def ready(self) -> None:
        from . import authentication  # noqa: F401 - registers the OpenAPI token scheme
