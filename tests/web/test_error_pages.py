"""The site's own error pages: 404 and 403 inside the site's frame (menu, language), 500 standing alone
(it is drawn with no request context: a fault may be in the context itself)."""

from __future__ import annotations

import pytest
from django.test import RequestFactory
from django.views.defaults import server_error

from tests.factories import signed_in

pytestmark = pytest.mark.django_db


def test_an_unknown_address_gets_the_sites_not_found_page() -> None:
    answer = signed_in(None).get("/no-such-page/")

    assert answer.status_code == 404
    text = answer.content.decode()
    assert "<h1>Page not found</h1>" in text and 'class="site"' in text


def test_the_not_found_page_reads_in_chinese() -> None:
    answer = signed_in(None).get("/no-such-page/", HTTP_ACCEPT_LANGUAGE="zh-Hans")

    assert "<h1>页面未找到</h1>" in answer.content.decode()


def test_a_server_error_page_stands_alone_and_promises_no_half_applied_move() -> None:
    answer = server_error(RequestFactory().get("/"))

    assert answer.status_code == 500
    text = answer.content.decode()
    assert "<h1>Server error</h1>" in text and "applied whole or not at all" in text
