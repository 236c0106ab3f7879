"""URL map (DESIGN.md, "URLs")."""

from django.conf import settings
from django.contrib import admin
from django.urls import include, path, re_path

from apps.accounts.confirmation import confirm_email
from apps.games.health import healthz
from apps.games.rules_views import favicon, rules_index, rules_page
from apps.notifications.views import calendar_feed
from apps.push.views import service_worker
from apps.webhooks.api import WebhookDetailApi, WebhookListApi
from baogame import converters  # noqa: F401 - registers <id:…> before the apps' URL maps are read

urlpatterns = [
    # The API first: most requests are a program's, and no pattern below matches a path under api/.
    path("api/v1/me/webhooks/", WebhookListApi.as_view(), name="api-webhooks"),
    path("api/v1/me/webhooks/<id:endpoint_id>/", WebhookDetailApi.as_view(), name="api-webhook"),
    path("api/", include("apps.api.urls")),
    path("", include("apps.sittings.urls")),
    path("", include("apps.games.urls")),
    path("rules/", rules_index, name="rules-index"),
    path("rules/<slug:game>/", rules_page, name="rules"),
    # Before allauth's own pattern for the same path: a link opened again says what it did.
    re_path(r"^accounts/confirm-email/(?P<key>[-:\w]+)/$", confirm_email),
    path("accounts/", include("allauth.urls")),
    path("accounts/", include("apps.accounts.urls")),
    path("leagues/", include("apps.leagues.urls")),
    path("push/", include("apps.push.urls")),
    path("sw.js", service_worker, name="service-worker"),
    path("webhooks/", include("apps.webhooks.urls")),
    path("mail/", include("apps.notifications.urls")),
    path("admin/", admin.site.urls),
    path("healthz", healthz, name="healthz"),
    path("calendar/<str:token>.ics", calendar_feed, name="calendar_feed"),
    path("favicon.ico", favicon),
]

if settings.DEV_MAILBOX:
    from apps.notifications import devmail

    urlpatterns += [path("dev/mail/", include(devmail.urlpatterns))]
