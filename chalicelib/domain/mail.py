"""What may go into a mail header: a recipient address and one line of text."""
from __future__ import annotations

import re

# The address forms a mail client accepts (the WHATWG e-mail grammar): no spaces, quotes, commas
# or brackets that would name a second recipient or break the header.
MAIL_ADDRESS_PATTERN = (r"^[A-Za-z0-9.!#$%&'*+/=?^_`{|}~-]{1,64}@[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?"
                        r"(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)+$")
MAIL_ADDRESS = re.compile(MAIL_ADDRESS_PATTERN)
# Control characters (C0, C1) and Unicode line separators: a header refuses or splits on them.
HEADER_BREAKERS = r"\x00-\x1f\x7f-\x9f\u2028\u2029"
ONE_LINE_PATTERN = rf"^[^{HEADER_BREAKERS}]*$"
_HEADER_BREAKER = re.compile(rf"[{HEADER_BREAKERS}]")


def header_text(value: str) -> str:
    """One header line whatever the text holds (a company name is free text)."""
    return " ".join(_HEADER_BREAKER.sub(" ", value).split())
