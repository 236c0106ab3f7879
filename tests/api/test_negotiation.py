"""The API's content negotiation answers plain JSON requests without parsing their
``Accept`` header, and every request still gets exactly the renderer and media type DRF gave it."""

from __future__ import annotations

import pytest
from rest_framework.negotiation import DefaultContentNegotiation
from rest_framework.renderers import BrowsableAPIRenderer, JSONRenderer
from rest_framework.request import Request
from rest_framework.test import APIRequestFactory

from apps.api.negotiation import ApiContentNegotiation

ACCEPTS = [
    None,
    "application/json",
    "*/*",
    "",
    "text/html",
    "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8",
    "application/json; indent=4",
    "application/json;q=0.5, text/html",
    "application/*",
    "application/xml",
]
QUERIES = ["", "?format=json", "?format=api", "?format="]


def _request(accept: str | None, query: str) -> Request:
    headers = {} if accept is None else {"HTTP_ACCEPT": accept}
    return Request(APIRequestFactory().get(f"/api/v1/me/{query}", **headers))


def _answer(negotiation: DefaultContentNegotiation, request: Request, renderers: list, suffix: str | None):
    try:
        renderer, media_type = negotiation.select_renderer(request, renderers, suffix)
    except Exception as exc:  # noqa: BLE001 - the refusal itself is part of the answer
        return type(exc).__name__
    return type(renderer).__name__, media_type


@pytest.mark.parametrize("accept", ACCEPTS)
@pytest.mark.parametrize("query", QUERIES)
@pytest.mark.parametrize("suffix", [None, "json", "api"])
@pytest.mark.parametrize("order", ["json-first", "browsable-first"])
def test_every_request_gets_the_renderer_and_media_type_drf_gives_it(accept, query, suffix, order) -> None:
    renderers = [JSONRenderer(), BrowsableAPIRenderer()]
    if order == "browsable-first":
        renderers.reverse()

    ours = _answer(ApiContentNegotiation(), _request(accept, query), renderers, suffix)
    drfs = _answer(DefaultContentNegotiation(), _request(accept, query), renderers, suffix)

    assert ours == drfs


def test_a_plain_json_request_is_answered_without_parsing_its_accept_header(monkeypatch) -> None:
    def parse(*args, **kwargs):
        raise AssertionError("parsed the Accept header")

    monkeypatch.setattr(DefaultContentNegotiation, "_get_parsed_accept_list", parse)
    renderer, media_type = ApiContentNegotiation().select_renderer(
        _request("application/json", ""), [JSONRenderer(), BrowsableAPIRenderer()]
    )

    assert (type(renderer), media_type) == (JSONRenderer, "application/json")


def test_the_api_uses_it() -> None:
    from rest_framework.settings import api_settings

    assert api_settings.DEFAULT_CONTENT_NEGOTIATION_CLASS is ApiContentNegotiation
