"""The development mailbox at /dev/mail/ (embedded default only). Filled in by the notifications app."""

urlpatterns: list = []
