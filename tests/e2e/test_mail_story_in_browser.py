"""In a real browser, through the development mailbox: a mail reply in each game, and the answer mail
it brings, which tells the reader's move and then every move after it (the bots' by name), in order;
in Bao Huang the deal's end mail gives the result and the totals."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from apps.games.models import Decision, Game
from apps.notifications.compose import choices, seat_names
from tests.e2e.axe import sign_in
from tests.e2e.test_turn_box_in_browser import keep_screenshot
from tests.factories import GameFactory, UserFactory

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

#: wren (seat 0) gets the emperor card; each bot two cards that nobody else holds (as in the mails'
#: unit tests, tests/notifications/test_mail_story.py).
DEAL = {"hands": [["6", "K", "RJ*"], ["7", "8"], ["9", "10"], ["J", "Q"], ["A", "BJ*"]]}


@pytest.fixture
def mailbox(tmp_path: Path, settings: Any) -> Path:
    """Mail written to files and read in the development mailbox, as with `make run`."""
    settings.EMAIL_BACKEND = "django.core.mail.backends.filebased.EmailBackend"
    settings.EMAIL_FILE_PATH = str(tmp_path)
    settings.DEV_MAILBOX = True
    return tmp_path


def reply_in_mailbox(page: Any, base: str, email: str, command: str, game: Game) -> str:
    """Open the newest mail to ``email`` about ``game`` that can be answered, answer ``command`` and
    return the text of the answer mail the mailbox then shows. (The game too: the live server and the
    mail settings outlive a test, and other tests' players have the same addresses.)"""
    page.goto(f"{base}/dev/mail/")
    about_game = re.compile(rf"{re.escape(str(game))}\b")
    links = page.locator("main tr", has_text=email).filter(has_text=about_game).locator("a")
    # Each mail is opened by its address and read once its page has loaded: a click's navigation may
    # not have finished when the next line runs, and the list page has no reply form either.
    hrefs = [links.nth(i).get_attribute("href") for i in range(links.count())]
    assert hrefs, f"no mail to {email} about {game} in the mailbox"
    for href in hrefs:
        page.goto(f"{base}{href}")
        if page.locator("textarea[name=body]").count():
            break
    page.fill("textarea[name=body]", command)
    replied = page.url
    page.get_by_role("button", name="Send reply").click()
    # The waiting page reloads until the answer is there, then shows it. The replied mail's own page
    # has a mail text too, so wait for another mail's address before reading one.
    page.wait_for_url(lambda url: url != replied and "/answer/" not in url)
    return str(page.locator("pre.mail-text").inner_text())


def section(text: str, title: str) -> list[str]:
    """The lines of a mail's section that starts with ``title``."""
    if title not in text:
        return []
    part = text.split(title, 1)[1].split("\n\n", 1)[0]
    return [line.strip().removeprefix("- ") for line in part.splitlines()[1:] if line.strip()]


def test_bao_huang_the_answer_to_a_reply_tells_the_bots_plays_and_the_deal_end_mail_its_result(
    live_server: Any, page: Any, mailbox: Path
) -> None:
    """BH-11, BH-15 to BH-17: wren leads 6 by mail and the four bots beat it in turn; the answer says
    all of it in order. Then wren plays RJ* and K by mail and goes out: the result mail gives the
    outcome, the partner, the finishing order, the deal's scores and the totals."""
    wren = UserFactory(username="wren")
    game = GameFactory(engine="baohuang", players=5, bots=4, seated=[wren], options={"deals": [DEAL, DEAL]})
    sign_in(page, live_server, wren)  # the mailbox shows a signed-in player their own mail
    reply_in_mailbox(page, live_server.url, wren.email, "keep", game)
    reply_in_mailbox(page, live_server.url, wren.email, "nodeclare", game)

    answer = reply_in_mailbox(page, live_server.url, wren.email, "play 6", game)
    keep_screenshot(page, "mail-answer-bao-huang")

    names = seat_names(game)
    assert section(answer, "What happened from your move on") == [
        "wren plays 6.",
        f"{names[1]} plays 7.",
        f"{names[2]} plays 9.",
        f"{names[3]} plays J.",
        f"{names[4]} plays A.",
    ]

    reply_in_mailbox(page, live_server.url, wren.email, "play RJ*", game)
    reply_in_mailbox(page, live_server.url, wren.email, "play K", game)
    page.goto(f"{live_server.url}/dev/mail/")
    about_game = re.compile(rf"{re.escape(str(game))}\b")
    rows = page.locator("main tr", has_text=wren.email).filter(has_text=about_game)
    rows.get_by_role("link", name="deal result").first.click()
    result = section(str(page.locator("pre.mail-text").inner_text()), "Result:")
    keep_screenshot(page, "mail-deal-result-bao-huang")

    _, one, two, three, puffin = names
    assert result == [
        f"Deal 1: you, the emperor, played with {puffin} (seat 4) as partner and won (multiplier x1).",
        f"Finishing order: 1. wren, 2. {puffin}, 3. {one}, 4. {two}, 5. {three}.",
        f"Scores this deal: you +6, {one} -3, {two} -3, {three} -3, {puffin} +3.",
        f"Totals: you 6, {one} -3, {two} -3, {three} -3, {puffin} 3.",
    ]


def test_bao_bei_the_answer_to_a_reply_tells_my_move_then_the_bots_moves_by_name(
    live_server: Any, page: Any, mailbox: Path
) -> None:
    """BB-21: wren answers by mail with the first choice offered until the two bots have moved after
    wren; the answer mail lists wren's move first, then the bots' moves by name, in order."""
    wren = UserFactory(username="wren")
    game = GameFactory(engine="baobei", players=3, bots=2, seated=[wren])
    sign_in(page, live_server, wren)  # the mailbox shows a signed-in player their own mail
    bots = seat_names(game)[1:]

    story: list[str] = []
    transcript: list[str] = []  # what was sent and answered, for the failure message
    for _ in range(12):
        game.refresh_from_db()
        if not Decision.objects.filter(game=game, seat=0).exists():
            transcript.append("(wren has no open decision)")
            break
        command = choices(game, 0)[0].command
        answer = reply_in_mailbox(page, live_server.url, wren.email, command, game)
        transcript += [f"> {command}", answer]
        story = section(answer, "What happened from your move on")
        if any(line.startswith(tuple(bots)) for line in story):
            break
    keep_screenshot(page, "mail-answer-bao-bei")

    told = "\n".join(transcript)
    assert story and story[0].startswith(("wren", "You ")), told  # my move: mine, or "You looked…"
    by_bots = [i for i, line in enumerate(story) if line.startswith(tuple(bots))]
    assert by_bots and by_bots[0] > 0, told
