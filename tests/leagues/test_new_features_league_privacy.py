"""Attacks on the league parts of today's features: the decline mail reaches only an active account with
an address and names nobody else (not the organiser who declined, not another applicant), and a
player's page lists only the public leagues they are an active member of: not a request that waits, was
declined or a membership that ended."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.core import mail
from django.test import Client

from apps.leagues import joinmail, services
from apps.leagues.models import DeclinedRequest, League, Membership
from tests.factories import UserFactory
from tests.leagues.conftest import NO_PASSWORD, ask_to_join

pytestmark = pytest.mark.django_db


def test_a_decline_is_not_mailed_to_an_account_made_inactive_meanwhile(
    open_league: League, organiser: Any, django_capture_on_commit_callbacks: Any
) -> None:
    hal = UserFactory(username="hal", password=NO_PASSWORD)
    membership = ask_to_join(open_league, hal, django_capture_on_commit_callbacks)
    services.membership_approve(league=open_league, membership_id=membership.pk, by=organiser, approve=False)
    get_user_model().objects.filter(pk=hal.pk).update(is_active=False)
    mail.outbox.clear()

    sent = joinmail.decline_mail_send(declined_id=DeclinedRequest.objects.get(user=hal).pk)

    assert sent == 0 and mail.outbox == []
    assert DeclinedRequest.objects.get(user=hal).applicant_told_at is not None  # not tried again


def test_the_decline_mail_names_neither_the_organiser_nor_another_applicant(
    django_capture_on_commit_callbacks: Any,
) -> None:
    organiser = UserFactory(username="oona-runs-it", password=NO_PASSWORD)
    open_league = services.league_create(
        creator=organiser, name="Open Court", game="baobei", players_per_table=4
    )
    ann = UserFactory(username="ann-asks", password=NO_PASSWORD)
    ben = UserFactory(username="ben-asks", password=NO_PASSWORD)
    declined = ask_to_join(open_league, ann, django_capture_on_commit_callbacks)
    ask_to_join(open_league, ben, django_capture_on_commit_callbacks)
    mail.outbox.clear()

    with django_capture_on_commit_callbacks(execute=True):
        services.membership_approve(
            league=open_league, membership_id=declined.pk, by=organiser, approve=False
        )

    (told,) = mail.outbox
    assert told.to == [ann.email]
    for text in (told.subject, told.body, told.alternatives[0][0]):
        for secret in (organiser.get_username(), organiser.email, ben.get_username(), ben.email):
            assert secret not in text


def test_a_players_page_lists_no_waiting_declined_or_ended_membership(
    open_league: League, organiser: Any, django_capture_on_commit_callbacks: Any
) -> None:
    waits, declined, left = (
        services.league_create(creator=organiser, name=name, game="baobei", players_per_table=4)
        for name in ("Waiting Room", "Said No", "Gone Away")
    )
    cy = UserFactory(username="cy", password=NO_PASSWORD)
    ask_to_join(waits, cy, django_capture_on_commit_callbacks)
    refused = ask_to_join(declined, cy, django_capture_on_commit_callbacks)
    services.membership_approve(league=declined, membership_id=refused.pk, by=organiser, approve=False)
    Membership.objects.create(league=left, user=cy, status=Membership.Status.WITHDRAWN)

    page = Client().get("/players/cy/").content.decode()
    api = Client().get("/api/v1/players/cy/").json()

    assert api["leagues"] == []
    for league in (waits, declined, left):
        assert league.name not in page and f"/leagues/{league.slug}/" not in page
