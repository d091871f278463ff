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

from chalicelib.messages.languages import ENGLISH as ENGLISH
from chalicelib.messages.languages import LANGUAGES as LANGUAGES
from chalicelib.messages.languages import SPANISH as SPANISH

# where a Spanish phrase puts the English one's n-th filled-in part, and, after ":", the gender
# an API value placed there agrees with (es.VALUES); literal braces such as "{id}" in a path are
# left alone
_PLACE = re.compile(r"\{(\d)(?::([mf]))?\}")
_CONTRACTION = re.compile(r"\b(de|a) el\b")
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
    in a filled-in part, or in ")" as a remedy may, would take the English remedy as a part. A
    phrase the catalogue holds as it is comes first: its parts could each match a broader template
    ("required" + "{} to {} characters") and answer half English."""
    from chalicelib.messages import es

    exact = es.PHRASES.get(english)
    if exact is not None and "{}" not in english:
        return exact
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
    # a part that starts with "el" contracts with the "de" or "a" before it ("de el valor" -> "del valor";
    # "de El Salvador", a name, keeps its capital and stays apart)
    return _CONTRACTION.sub(lambda match: "del" if match.group(1) == "de" else "al", _PLACE.sub(part, spanish))


def _kind_text(lang: str, kind: str, context: Mapping[str, Any]) -> str | None:
    template: str | None = catalogue(lang).KINDS.get(kind)
    if template is None:
        return None
    shown = {name: _shown(value) for name, value in context.items()}
    if lang != ENGLISH and kind == "literal_error" and "expected" in shown:
        # pydantic lists the choices in English ("'a', 'b' or 'c'"): its last " or " in the language
        shown["expected"] = _LAST_OR.sub(catalogue(lang).OR, shown["expected"])
    try:
        return template.format(**shown)
    except (KeyError, IndexError, ValueError):
        return None


_LAST_OR = re.compile(r" or (?!.* or )")


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


_SEGMENT = re.compile(r"([^.\[\]]+)((?:\[\d+\])*)")


def field_label(lang: str, field: str) -> str:
    """A field as a person knows it, in `lang` (FIELD_LABELS; `details[].field` keeps the API's
    name for programs): a nested path by its last name, each list item before it in words with
    its number counted from 1 ("lines[0].quantity": "Line 1, quantity"), a dotted one by the
    longest end the catalogue knows ("dte.receptor.nit": "Receiver's NIT"). A path the catalogue
    does not know is answered as it came (tests/test_field_labels.py keeps that from happening)."""
    labels: dict[str, str] = catalogue(lang).FIELD_LABELS
    whole = re.sub(r"\[\d+\]", "", field)
    if whole == field and field in labels:
        return labels[field]
    segments = _SEGMENT.findall(field)
    if not segments or "".join(name + indices for name, indices in segments) != field.replace(".", ""):
        return field
    parts: list[str] = []
    for position, (name, indices) in enumerate(segments):
        last = position == len(segments) - 1
        numbers = [int(number) + 1 for number in re.findall(r"\d+", indices)]
        if numbers:
            item = labels.get(f"{name}[]")
            if item is None:
                return field
            parts += [f"{item} {number}" for number in numbers]
        elif last:
            label = _by_its_end(labels, whole)
            if label is None:
                return field
            parts.append(label)
    if not parts:
        return field
    return ", ".join([parts[0], *(_in_sentence(part) for part in parts[1:])])


def _by_its_end(labels: Mapping[str, str], path: str) -> str | None:
    """The label of the longest end of a dotted path the catalogue knows ("dte.receptor.nit":
    "receptor.nit", else "nit")."""
    names = path.split(".")
    return next((labels[end] for end in (".".join(names[start:]) for start in range(len(names))) if end in labels),
                None)


def _in_sentence(label: str) -> str:
    """A label after a comma: its first letter small, unless it starts an acronym (NIT, RTN)."""
    return label if label[1:2].isupper() else label[:1].lower() + label[1:]


def localized_body(body: dict[str, Any], lang: str, issues: list[Any] | None = None) -> dict[str, Any]:
    """The error body {"message", "code", "details"?} in `lang`. A message written as "<field>:
    <problem>" of its first detail, or ending with it, is written again with the field as a person
    knows it (`field_label`) and, in Spanish, the translated detail; `details[].field` keeps the
    API's name."""
    details = body.get("details") or []
    first = details[0] if details and isinstance(details[0], dict) and "field" in details[0] else None
    message = body["message"]
    if lang == ENGLISH:
        if first is not None:
            message = _labelled(message, str(first["field"]), str(first.get("message")), lang)
        return {**body, "message": message}
    issues = list(issues or []) + [None] * (len(details) - len(issues or []))
    translated = [{**detail, "message": detail_text(lang, str(detail.get("message", "")), issue)}
                  if isinstance(detail, dict) and "message" in detail else detail
                  for detail, issue in zip(details, issues, strict=False)]
    if first is not None and message.startswith(f"{first['field']}:"):
        message = f"{field_label(lang, str(first['field']))}: {translated[0]['message']}"
    else:
        english_tail = f"{first['field']}: {first.get('message')}" if first is not None else None
        message = phrase(message) or catalogue(lang).CODES.get(body["code"]) or catalogue(lang).CODES["BAD_REQUEST"]
        if first is not None and english_tail and message.endswith(english_tail):  # a phrase that ends quoting its first detail
            message = (f"{message[:-len(english_tail)]}{field_label(lang, str(first['field']))}: "
                       f"{translated[0]['message']}")
    localized = {**body, "message": message}
    if translated:
        localized["details"] = translated
    return localized


def stored_error(error: Mapping[str, Any] | None, lang: str) -> dict[str, Any] | None:
    """An error a background run stored in the API's English ({"code", "message" (perhaps after its
    run's "<date>: "), "at", "details"?}) as its reader sees it: the message in `lang`, fields named
    as a person knows them; the details stay stored, not shown."""
    if not error:
        return None
    dated = re.match(r"(\d{4}-\d{2}-\d{2}): (.*)", error["message"], re.DOTALL)
    prefix, message = (f"{dated.group(1)}: ", dated.group(2)) if dated else ("", error["message"])
    body = {"code": error["code"], "message": message, **({"details": error["details"]} if error.get("details") else {})}
    return {"code": error["code"], "message": prefix + localized_body(body, lang)["message"], "at": error["at"]}


def stored_phrase(text: str | None, lang: str) -> str | None:
    """A phrase a background step stored in the API's English (why a DTE's transmission got no
    answer) as its reader sees it: its Spanish when the catalogue knows it, else as it was stored."""
    if not text or lang == ENGLISH:
        return text
    return phrase(text) or text


def stored_issue(kind: str, context: Mapping[str, Any]) -> tuple[str, dict[str, str]]:
    """A validation kind and its context as a background step stores them beside pydantic's English
    (an import's row problem): the context as text, as a template places it; a value_error's
    context (the exception) is left out, its message being the service's own phrase."""
    if kind in ("value_error", "assertion_error"):
        return kind, {}
    return kind, {name: _shown(value) for name, value in context.items()}


def stored_problem(message: str, issue: Mapping[str, Any] | None, lang: str) -> str:
    """A problem stored in English as its reader sees it: one the API's model found (its `issue`:
    {"type", "context"}) as the API answers that detail (`detail_text`), else the phrase."""
    if issue:
        return detail_text(lang, message, (str(issue["type"]), issue.get("context") or {}))
    return stored_phrase(message, lang) or message


def _labelled(message: str, field: str, problem: str, lang: str) -> str:
    """`message` with its first detail's field, where it opens the message or where the message
    ends quoting that detail, named as a person knows it."""
    quote = f"{field}: {problem}"
    if message.endswith(quote):
        return f"{message[:-len(quote)]}{field_label(lang, field)}: {problem}"
    if message.startswith(f"{field}: "):
        return f"{field_label(lang, field)}: {message[len(field) + 2:]}"
    return message
