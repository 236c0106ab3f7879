"""/mail/: the inbound webhook, preferences, unsubscribe and signed game links."""

from __future__ import annotations

from django.conf import settings
from django.urls import path
from django.utils.module_loading import import_string

from . import views

app_name = "notifications"

#: ESP name -> anymail's inbound webhook view (signature-verified with ANYMAIL["WEBHOOK_SECRET"] and
#: the ESP's own signing key where it has one).
INBOUND_VIEWS = {
    "amazon_ses": "anymail.webhooks.amazon_ses.AmazonSESInboundWebhookView",
    "brevo": "anymail.webhooks.brevo.BrevoInboundWebhookView",
    "mailersend": "anymail.webhooks.mailersend.MailerSendInboundWebhookView",
    "mailgun": "anymail.webhooks.mailgun.MailgunInboundWebhookView",
    "mailjet": "anymail.webhooks.mailjet.MailjetInboundWebhookView",
    "postal": "anymail.webhooks.postal.PostalInboundWebhookView",
    "postmark": "anymail.webhooks.postmark.PostmarkInboundWebhookView",
    "resend": "anymail.webhooks.resend.ResendInboundWebhookView",
    "sendgrid": "anymail.webhooks.sendgrid.SendGridInboundWebhookView",
    "sparkpost": "anymail.webhooks.sparkpost.SparkPostInboundWebhookView",
}
_inbound_view = import_string(INBOUND_VIEWS[getattr(settings, "ANYMAIL_INBOUND_ESP", "mailgun")]).as_view()
#: The same provider's tracking webhook (delivery events: bounces, complaints), anymail's naming; it
#: needs the same verification secret as the inbound one.
_tracking_view = import_string(
    INBOUND_VIEWS[getattr(settings, "ANYMAIL_INBOUND_ESP", "mailgun")].replace("Inbound", "Tracking")
).as_view()

urlpatterns = [
    path("inbound/", views.inbound_guarded(_inbound_view), name="inbound"),
    path("tracking/", views.inbound_guarded(_tracking_view), name="tracking"),
    path("address-fixed/", views.mail_address_fixed, name="address_fixed"),
    path("preferences/", views.preferences_page, name="preferences"),
    path("unsubscribe/<str:token>/", views.unsubscribe, name="unsubscribe"),
    path("go/<str:token>/", views.go, name="go"),
    path("calendar/", views.calendar_regenerate, name="calendar_regenerate"),
]
