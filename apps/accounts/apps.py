from django.apps import AppConfig


class AccountsConfig(AppConfig):
    name = "apps.accounts"
    label = "accounts"

    def ready(self) -> None:
        from django.db.models.signals import post_migrate

        from . import signals  # noqa: F401
        from .site import sync_site

        # After every migrate the sites framework's row says our name and SITE_URL, never example.com.
        post_migrate.connect(sync_site, sender=self, dispatch_uid="accounts-sync-site")
