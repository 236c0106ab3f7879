"""Reading replies: quoted text, signatures and HTML-only mails."""

from __future__ import annotations

from email.message import EmailMessage

from apps.notifications.mailtext import body_text, first_meaningful_line


def test_first_line_skips_blank_and_quoted_lines() -> None:
    assert first_meaningful_line("\n\n> draw\n>> pass\n  keep 2  \nthanks") == "keep 2"


def test_nothing_after_the_quote_header_counts() -> None:
    assert first_meaningful_line("\nOn Mon, 2 Jun 2025 at 10:00, baogame <g@x> wrote:\n> draw\n") == ""


def test_a_quote_header_wrapped_on_two_lines_is_recognised() -> None:
    text = "On Mon, 2 Jun 2025 at 10:00, baogame <\ngames@baogame.localhost> wrote:\n> draw"

    assert first_meaningful_line(text) == ""


def test_signature_ends_the_reply() -> None:
    assert first_meaningful_line("\n-- \nAlice\ndraw") == ""
    assert first_meaningful_line("take 1\n-- \nAlice") == "take 1"


def test_html_only_reply_is_read_without_its_blockquote() -> None:
    message = EmailMessage()
    message.set_content("<div>pluck&nbsp;1.2 gift 4<br></div><blockquote>draw</blockquote>", subtype="html")

    assert first_meaningful_line(body_text(message)) == "pluck 1.2 gift 4"


def test_gmail_quote_div_is_dropped() -> None:
    message = EmailMessage()
    message.set_content('<div dir="ltr"></div><div class="gmail_quote">keep 2</div>', subtype="html")

    assert first_meaningful_line(body_text(message)) == ""
