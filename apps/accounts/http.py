"""Request types for view annotations: what the middleware and ``login_required`` guarantee.

django-stubs types ``request.user`` as ``User | AnonymousUser``; a view behind ``login_required``
declares ``request: AuthenticatedHttpRequest`` so its user is a ``User`` (an API method behind
``IsAuthenticated``: ``AuthenticatedRequest``). Every request carries django-htmx's ``request.htmx``
(its middleware is installed for the whole site). These classes only annotate: nothing creates them.
"""

from __future__ import annotations

from django.contrib.auth.models import User
from django.http import HttpRequest
from django_htmx.middleware import HtmxDetails
from rest_framework.request import Request


class HtmxHttpRequest(HttpRequest):
    """Any request: ``request.htmx`` tells whether htmx sent it."""

    htmx: HtmxDetails


class AuthenticatedHttpRequest(HtmxHttpRequest):
    """A request of a signed-in user (a view behind ``login_required``)."""

    user: User


class AuthenticatedRequest(Request):
    """A REST framework request of a signed-in user (an API view behind ``IsAuthenticated``)."""

    user: User
