from django.apps import AppConfig


class NotificationsConfig(AppConfig):
    name = "apps.notifications"
    label = "notifications"
    verbose_name = "Notifications and play by email"

    def ready(self) -> None:
        from django.utils.translation import gettext, ngettext

        from baogame.rules import i18n

        from . import checks, signals, sittings  # noqa: F401 - registers the checks, connects the receivers

        # The rules' mail and history sentences in the active language (the recipient's, in a mail).
        i18n.install(gettext=gettext, ngettext=ngettext)
