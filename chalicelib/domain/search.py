"""What a search finds a record by: the terms of its searchable fields and how a query matches
them. Pure rules; the index items live in store/keys (keys.search_term) and services/search.py."""
from __future__ import annotations

import re
import unicodedata
from typing import Iterable

# a term longer than this is cut (a query longer than it still matches its first characters)
MAX_TERM = 40
# a record's terms beyond this are not indexed (a name of 30 words is found by its first ones)
MAX_TERMS = 24
_WORD = re.compile(r"[0-9a-z]+")


def normalized(text: str) -> str:
    """Lower case, accents off (ñ stays n, as people type it without), "&" and the like dropped."""
    decomposed = unicodedata.normalize("NFKD", text.casefold())
    return "".join(char for char in decomposed if not unicodedata.combining(char))


def terms(values: Iterable[str | None]) -> set[str]:
    """Each word of each value, and each value whole without its separators (an RTN typed
    "0801-1999-123456" or "08011999123456", an e-mail, a code "P-001" as "p001")."""
    found: list[str] = []
    for value in values:
        if not value:
            continue
        words = _WORD.findall(normalized(str(value)))
        found.extend(words)
        if len(words) > 1:
            found.append("".join(words))
    unique = list(dict.fromkeys(term[:MAX_TERM] for term in found))
    return set(unique[:MAX_TERMS])


def words(text: str) -> list[str]:
    """The words of a text as the index keeps them: lower case, no accents, no separators."""
    return _WORD.findall(normalized(text))


def query_words(query: str) -> list[str]:
    """The query's words, longest first: the longest is looked up in the index, the others
    checked on what it found."""
    words = list(dict.fromkeys(word[:MAX_TERM] for word in _WORD.findall(normalized(query))))
    return sorted(words, key=len, reverse=True)


def joined_query(query: str) -> str | None:
    """The query's words joined, as a value's whole term is ("0801 1999-123456" -> "08011999123456"):
    None for a query of one word."""
    found = _WORD.findall(normalized(query))
    return "".join(found)[:MAX_TERM] if len(found) > 1 else None


def matches(record_terms: set[str], words: list[str]) -> bool:
    """Every word of the query begins one of the record's terms."""
    return all(any(term.startswith(word) for term in record_terms) for word in words)
