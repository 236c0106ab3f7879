"""The e-mail confirmation link, opened again after it did its work.

allauth answers a link whose address is already confirmed as "expired or invalid" and sends the reader
to ask for a new one: wrong, and a dead end for someone who is not signed in. People do open the link
twice (once more from the mail, or a mail scanner opened it first), so such a link says the address is
confirmed and what to do next: sign in, or, when signed in, carry on.
"""

from __future__ import annotations

from typing import Any

from allauth.account import app_settings
from allauth.account.models import EmailAddress
from allauth.account.views import ConfirmEmailView
from django.conf import settings
from django.contrib import messages
from django.core import signing
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.utils.translation import gettext as _


def confirmed_address(key: str) -> EmailAddress | None:
    """The address a genuine confirmation ``key`` names, when it is confirmed already (however old the
    link: only its signature counts); None for any other key."""
    try:
        pk = signing.loads(key, salt=app_settings.SALT)
    except signing.BadSignature:
        return None
    return EmailAddress.objects.filter(pk=pk, verified=True).select_related("user").first()


class ConfirmEmailAgainView(ConfirmEmailView):
    """allauth's confirmation view, except for a link whose address is already confirmed."""

    def get(self, request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        address = confirmed_address(self.kwargs["key"])
        if address is None:
            return super().get(request, *args, **kwargs)
        if request.user.is_authenticated:
            messages.info(request, _("%(email)s is confirmed already.") % {"email": address.email})
            return redirect(settings.LOGIN_REDIRECT_URL)
        messages.info(
            request,
            _(
                "%(email)s is confirmed already. To play, sign in below with your username or this "
                "address and your password."
            )
            % {"email": address.email},
        )
        return redirect(settings.LOGIN_URL)


confirm_email = ConfirmEmailAgainView.as_view()
