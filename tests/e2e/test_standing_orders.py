"""Standing orders in a real browser: arm "pass when I cannot beat" on the game page,
then watch the trick pass the seat without a prompt; and the whole path of a short game against bots,
from the estimate on the new-game form to a pass nobody clicked."""

from __future__ import annotations

from typing import Any

import pytest

from apps.games import pipeline
from apps.games.models import Game, Move
from tests.e2e.test_rules_in_browser import log_in
from tests.factories import GameFactory, UserFactory

from .axe import sign_in
from .test_play_in_browser import swapping, wait_for_board

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

#: Seat 0 (RJ*) is the emperor and leads; after its A A only seat 3 (2 2) can beat (BH-11.1).
HANDS = [["RJ*", "A", "A", "6"], ["BJ*", "8", "K"], ["9", "9", "7"], ["2", "2", "J"], ["J", "Q", "Q"]]


def test_arm_pass_when_i_cannot_beat_and_the_trick_passes_me_bh_12_5(
    live_server: Any, page: Any, screenshot: Any
) -> None:
    people = [UserFactory() for _ in range(5)]
    game = GameFactory(engine="baohuang", players=5, seated=people, options={"deals": [{"hands": HANDS}]})
    pipeline.submit_action(game_id=game.pk, user=people[0], action={"type": "keep_emperor"})
    for seat in range(5):
        pipeline.submit_action(game_id=game.pk, user=people[seat], action={"type": "no_declaration"})
    sign_in(page, live_server, people[1])
    page.goto(f"{live_server.url}/games/{game.public_id}/")
    wait_for_board(page)

    panel = page.locator("#standing-orders")
    panel.get_by_label("Pass when I cannot beat").check()
    switch = panel.locator("form.order-switch", has_text="Pass when I cannot beat")
    with page.expect_navigation():  # the game page again, after the POST
        switch.get_by_role("button", name="Save").click()
    page.wait_for_load_state("networkidle")
    screenshot("standing-orders-armed")
    assert "pass when I cannot beat" in page.locator("#standing-orders .orders-held").inner_text()
    assert "Others may notice that you pass at once." in panel.inner_text()

    pipeline.submit_action(game_id=game.pk, user=people[0], action={"type": "play", "cards": ["A", "A"]})
    page.goto(f"{live_server.url}/games/{game.public_id}/")
    wait_for_board(page)
    screenshot("standing-orders-passed")

    assert {"type": "pass"} in [m.action for m in Move.objects.filter(game=game, seat=1, by_timeout=False)]
    assert page.locator("#decision [data-kind]").count() == 0  # nothing asked of seat 1


def test_an_order_given_while_i_watch_leaves_the_panel_without_a_reload_bh_11(
    live_server: Any, page: Any, screenshot: Any
) -> None:
    """BH-11: seat 3 orders "play 2 2 if they beat"; the others pass, the server plays the order, and the
    page that only polls shows the order gone and the picker offering the one card left."""
    people = [UserFactory() for _ in range(5)]
    game = GameFactory(engine="baohuang", players=5, seated=people, options={"deals": [{"hands": HANDS}]})
    pipeline.submit_action(game_id=game.pk, user=people[0], action={"type": "keep_emperor"})
    for seat in range(5):
        pipeline.submit_action(game_id=game.pk, user=people[seat], action={"type": "no_declaration"})
    pipeline.submit_action(game_id=game.pk, user=people[0], action={"type": "play", "cards": ["A", "A"]})
    sign_in(page, live_server, people[3])
    page.goto(f"{live_server.url}/games/{game.public_id}/")
    wait_for_board(page)
    picker = page.locator("#standing-orders form.play-if-beats")
    for card in picker.locator("input[name=cards][value='2']").all():
        card.check()
    with page.expect_navigation():
        picker.get_by_role("button", name="Give this order").click()
    wait_for_board(page)
    assert page.locator("#standing-orders .orders-held").count() == 1

    for seat in (1, 2):  # the order answers seat 3's turn: it plays 2 2
        pipeline.submit_action(game_id=game.pk, user=people[seat], action={"type": "pass"})
    page.wait_for_function("() => !document.querySelector('#standing-orders .orders-held')", timeout=20_000)
    screenshot("standing-orders-given-while-watching")

    assert "You have no standing orders." in page.locator("#standing-orders").inner_text()
    cards = page.locator("#standing-orders input[name=cards]")
    assert [c.get_attribute("value") for c in cards.all()] == ["J"]


def test_a_short_game_against_bots_states_its_estimate_and_banks_and_an_armed_pass_needs_no_prompt(
    live_server: Any, page: Any, screenshot: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """BH-3.2, BH-17.6, BH-12.5: the new-game form states the pace model's estimate for the length
    chosen (and follows the choice); the game page shows every seat's bank; with "pass when I cannot
    beat" armed, the bots' plays that the seat cannot beat are passed for it: the seat is never asked
    and never clicks Pass, yet passes, and none of it is a timeout."""
    monkeypatch.setattr(Game._meta.get_field("seed"), "default", lambda: "orders-court-1")  # a fixed deal
    UserFactory(username="heron")
    log_in(page, live_server.url, "heron")
    page.goto(f"{live_server.url}/games/new/")
    page.select_option("select[name=engine]", "baohuang")
    estimate = page.locator("p.estimate")
    page.check("input[name=length_baohuang][value=standard]")
    page.wait_for_function("() => document.querySelector('p.estimate').textContent.includes('About 2 years')")
    page.check("input[name=length_baohuang][value=short]")
    page.wait_for_function("() => document.querySelector('p.estimate').textContent.includes('11 weeks')")
    screenshot("short-game-estimate")

    # against bots the game goes at the seat's own pace; the figure is a table of people's, for comparison
    assert estimate.inner_text().startswith(
        "Expected duration: As fast as you answer: the bots answer at once. For comparison: About 11 weeks"
    )
    assert "the pace model's figure" in estimate.inner_text()
    assert "Daily: a one-deal Bao Huang game can last at most" in page.content()

    page.fill("input[name=title]", "Orders court")
    page.get_by_role("button", name="Create the game").click()
    wait_for_board(page)
    game = Game.objects.get(title="Orders court")
    banks = page.locator(".table-seats [data-bank-seat]")

    assert (game.length, game.control) == ("short", "daily")
    assert banks.count() == 5 and all(b.inner_text().startswith("clock:") for b in banks.all())

    panel = page.locator("#standing-orders")
    panel.get_by_label("Pass when I cannot beat").check()
    panel.locator("form.order-switch", has_text="Pass when I cannot beat").get_by_role(
        "button", name="Save"
    ).click()
    wait_for_board(page)
    clicked_passes = 0
    for _ in range(200):
        if Move.objects.filter(game=game, seat=0, action__type="pass").count() > clicked_passes:
            break
        body = page.locator("#decision .decision-body").first
        if not body.count():
            page.reload()
            wait_for_board(page)
            continue
        decision = page.locator("#decision")
        if body.get_attribute("data-kind") != "turn":
            swapping(page, decision.locator("button").first.click)
        elif decision.locator(".quick-play").count():
            swapping(page, decision.locator(".quick-play").first.click)
        elif not decision.get_by_role("button", name="Pass").count():  # a lead: the first card it may play
            page.locator("label.pick:has(.card.usable)").first.click()
            swapping(page, page.get_by_role("button", name="Play the selected cards").click)
        else:  # more plays than quick buttons: pass by hand, counted apart
            clicked_passes += 1
            swapping(page, decision.get_by_role("button", name="Pass").click)
    page.reload()
    wait_for_board(page)
    screenshot("short-game-passed-by-order")

    mine = Move.objects.filter(game=game, seat=0)
    assert mine.filter(action__type="pass").count() > clicked_passes
    assert not mine.filter(by_timeout=True).exists() and not mine.filter(by_bot=True).exists()
