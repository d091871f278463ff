"""Errors in the caller's language. The API speaks English unless `Accept-Language` prefers
Spanish (the console sends its own language). One catalogue per language (`en`, `es`): a message
per error code, a template per validation kind (pydantic's error types), and, for Spanish, the
service's own English phrases with their Spanish wording (`PHRASES`, templates whose `{}` are
the parts the service fills in). tests/test_error_catalogue.py checks every code, kind and phrase
the source can raise has both."""
from __future__ import annotations

import re
from functools import lru_cache
from typing import Any, Mapping

ENGLISH, SPANISH = "en", "es"
LANGUAGES = (ENGLISH, SPANISH)
# where a Spanish phrase puts the English one's n-th filled-in part, and, after ":", the gender
# an API value placed there agrees with (es.VALUES); literal braces such as "{id}" in a path are
# left alone
_PLACE = re.compile(r"\{(\d)(?::([mf]))?\}")
_RANGE = re.compile(r"^\s*([A-Za-z]{1,8})(?:-[A-Za-z0-9]{1,8})*\s*(?:;\s*q\s*=\s*([0-9.]+))?\s*$")


def language(headers: Mapping[str, str]) -> str:
    """The supported language the caller prefers most (Accept-Language, RFC 9110 q-values); English
    when it names none of them."""
    best, best_weight = ENGLISH, 0.0
    for position, part in enumerate((headers.get("accept-language") or "").split(",")[:20]):
        match = _RANGE.match(part)
        if not match:
            continue
        try:
            weight = float(match.group(2)) if match.group(2) else 1.0
        except ValueError:
            continue
        tag = match.group(1).lower()
        if tag in LANGUAGES and weight > best_weight and weight > 0:
            best, best_weight = tag, weight - position * 1e-6  # equal weights: the first listed wins
    return best


def catalogue(lang: str) -> Any:
    if lang == SPANISH:
        from chalicelib.messages import es
        return es
    from chalicelib.messages import en
    return en


@lru_cache(maxsize=1)
def _phrase_patterns() -> list[tuple[re.Pattern[str], str]]:
    """Spanish PHRASES as patterns, the most specific (most literal text) first."""
    from chalicelib.messages import es

    patterns = []
    for english, spanish in es.PHRASES.items():
        parts = english.split("{}")
        if not any(char.isalpha() for char in "".join(parts)):
            continue  # all filled in ("{}: {}"): it would match any sentence; the first detail's rule covers it
        pattern = re.compile("(.+?)".join(re.escape(part) for part in parts) + r"\Z", re.DOTALL)
        patterns.append((len(english) - 2 * (len(parts) - 1), pattern, spanish))
    return [(pattern, spanish) for _size, pattern, spanish in sorted(patterns, key=lambda p: -p[0])]


def phrase(english: str) -> str | None:
    """The Spanish of one of the service's English phrases, its filled-in parts kept; None when
    the catalogue does not know it. "<what>: <remedy>" (a DTE's field problems, one ": ") is
    written from its two parts when both are known, before the whole is tried: a template ending
    in a filled-in part, or in ")" as a remedy may, would take the English remedy as a part."""
    what, separator, remedy = english.partition(": ")
    if separator and ": " not in remedy:
        parts = _whole_phrase(what), _whole_phrase(remedy)
        if None not in parts:
            return f"{parts[0]}: {parts[1]}"
    return _whole_phrase(english)


def _whole_phrase(english: str) -> str | None:
    for pattern, spanish in _phrase_patterns():
        match = pattern.match(english)
        if match:
            return _placed(spanish, match.groups())
    return None


def _placed(spanish: str, parts: tuple[str, ...]) -> str:
    """The Spanish template with the English one's parts in their places; a part that is itself one
    of the service's phrases (a refusal quoting its detail, a subledger named in words) is placed in
    Spanish too, and so is an API value where the place names its gender ("esta partida está
    {0:f}": posted -> contabilizada), so no English rides inside a Spanish sentence."""
    from chalicelib.messages import es

    def part(place: re.Match[str]) -> str:
        text, gender = parts[int(place.group(1))], place.group(2)
        if gender and text in es.VALUES:
            return es.VALUES[text][gender == "f"]
        return _whole_phrase(text) or text
    return _PLACE.sub(part, spanish)


def _kind_text(lang: str, kind: str, context: Mapping[str, Any]) -> str | None:
    template = catalogue(lang).KINDS.get(kind)
    if template is None:
        return None
    try:
        return template.format(**{name: _shown(value) for name, value in context.items()})
    except (KeyError, IndexError, ValueError):
        return None


def _shown(value: Any) -> str:
    return ", ".join(map(str, value)) if isinstance(value, (list, tuple)) else str(value)


def detail_text(lang: str, message: str, issue: tuple[str, Mapping[str, Any]] | None) -> str:
    """A field's problem in `lang`: by its validation kind when pydantic found it (a value_error
    is the service's own phrase), else by the phrase; Spanish falls back to the kind's generic
    wording rather than answer English."""
    if lang == ENGLISH:
        return message
    kind, context = issue if issue else ("value_error", {})
    if kind not in ("value_error", "assertion_error"):
        text = _kind_text(lang, kind, context)
        if text is not None:
            return text
    return phrase(message) or catalogue(lang).KINDS["value_error"].format()


def localized_body(body: dict[str, Any], lang: str, issues: list[Any] | None = None) -> dict[str, Any]:
    """The error body {"message", "code", "details"?} in `lang`. A message written as "<field>:
    <problem>" of its first detail, or ending with it, is written again from the translated detail."""
    if lang == ENGLISH:
        return body
    details = body.get("details") or []
    issues = list(issues or []) + [None] * (len(details) - len(issues or []))
    translated = [{**detail, "message": detail_text(lang, str(detail.get("message", "")), issue)}
                  if isinstance(detail, dict) and "message" in detail else detail
                  for detail, issue in zip(details, issues, strict=False)]
    message = body["message"]
    first = details[0] if details and isinstance(details[0], dict) else None
    if first is not None and "field" in first and message.startswith(f"{first['field']}:"):
        message = f"{first['field']}: {translated[0]['message']}"
    else:
        english_tail = f"{first['field']}: {first.get('message')}" if first is not None and "field" in first else None
        message = phrase(message) or catalogue(lang).CODES.get(body["code"]) or catalogue(lang).CODES["BAD_REQUEST"]
        if english_tail and message.endswith(english_tail):  # a phrase that ends quoting its first detail
            message = f"{message[:-len(english_tail)]}{first['field']}: {translated[0]['message']}"
    localized = {**body, "message": message}
    if translated:
        localized["details"] = translated
    return localized
