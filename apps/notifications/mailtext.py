"""Reading replies: the text of a mail (plain or HTML-only) and its first meaningful line."""

from __future__ import annotations

import html
import re
from email.message import EmailMessage, Message
from html.parser import HTMLParser

_WROTE = re.compile(r"^(on\s.+wrote:|le\s.+a écrit\s?:|am\s.+schrieb.*:|.+\swrote:)\s*$", re.IGNORECASE)
_ORIGINAL = re.compile(r"^(-{2,}\s*original message\s*-{2,}|_{5,}|from:\s.+|sent from my .+)$", re.IGNORECASE)


class _TextFromHtml(HTMLParser):
    """HTML to text: block elements become line breaks; blockquotes (quoted mail) are dropped."""

    BLOCKS = {"p", "div", "br", "li", "tr", "h1", "h2", "h3", "h4", "table", "pre"}
    SKIP = {"blockquote", "style", "script", "head", "title"}

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.parts: list[str] = []
        self.skipping = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        classes = dict(attrs).get("class") or ""
        if tag in self.SKIP or "gmail_quote" in classes:
            self.skipping += 1
        elif tag in self.BLOCKS:
            self.parts.append("\n")

    def handle_endtag(self, tag: str) -> None:
        if tag in self.SKIP and self.skipping:
            self.skipping -= 1
        elif tag in self.BLOCKS:
            self.parts.append("\n")

    def handle_data(self, data: str) -> None:
        if not self.skipping:
            self.parts.append(data)


def html_to_text(markup: str) -> str:
    """The visible text of an HTML body, without quoted blocks."""
    parser = _TextFromHtml()
    parser.feed(markup)
    parser.close()
    return html.unescape("".join(parser.parts))


def body_text(message: Message) -> str:
    """The reply's text: its text/plain part, else its HTML part converted to text."""
    if isinstance(message, EmailMessage):
        part = message.get_body(preferencelist=("plain",))
        if part is not None:
            return part.get_content()
        part = message.get_body(preferencelist=("html",))
        if part is not None:
            return html_to_text(part.get_content())
        return ""
    for sub in message.walk():  # a compat32 message (older parsers)
        if sub.get_content_type() in {"text/plain", "text/html"} and not sub.is_multipart():
            payload = sub.get_payload(decode=True)  # bytes for a non-multipart part, or None
            raw = payload if isinstance(payload, bytes) else b""
            text = raw.decode(sub.get_content_charset() or "utf-8", errors="replace")
            return text if sub.get_content_type() == "text/plain" else html_to_text(text)
    return ""


def first_meaningful_line(text: str) -> str:
    """The first line that is neither blank, quoted, a quote header nor after the signature."""
    lines = text.replace("\r\n", "\n").split("\n")
    for index, raw in enumerate(lines):
        line = raw.strip().replace("\u00a0", " ")
        if raw.rstrip("\r") == "-- " or line == "--":
            return ""  # signature: nothing above it
        joined = line + " " + (lines[index + 1].strip() if index + 1 < len(lines) else "")
        if (
            _WROTE.match(line)
            or _ORIGINAL.match(line)
            or (line.lower().startswith("on ") and _WROTE.match(joined))
        ):
            return ""  # the quoted mail starts here ("On … wrote:" may wrap onto a second line)
        if not line or line.startswith(">"):
            continue
        return line
    return ""
