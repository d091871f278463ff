"""Errors in the caller's language. The API speaks English unless `Accept-Language` prefers
Spanish (the console sends its own language). One catalogue per language (`en`, `es`): a message
per error code, a template per validation kind (pydantic's error types), and, for Spanish, the
service's own messages by id (phrases.py: a `Phrase`'s id is its English template, `{}` where a
part is filled in; the gettext catalogue holds its Spanish). tests/test_error_catalogue.py checks
every code, kind and message id the source can raise has both."""
from __future__ import annotations

import re
from typing import Any, Mapping

from chalicelib.messages.languages import ENGLISH as ENGLISH
from chalicelib.messages.languages import LANGUAGES as LANGUAGES
from chalicelib.messages.languages import SPANISH as SPANISH
from chalicelib.messages.phrases import Phrase, from_stored, in_language, stored, translated

__all__ = ["ENGLISH", "SPANISH", "LANGUAGES", "Phrase", "stored", "from_stored", "in_language", "translated"]
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


def phrase(text: str) -> str | None:
    """The Spanish of one of the service's messages, by its id (a Phrase's template, its parts
    placed; a literal is its own id); None when the catalogue does not hold it."""
    return translated(text, SPANISH)


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
    return translated(message, lang) or catalogue(lang).KINDS["value_error"].format()


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
    in_translation = [{**detail, "message": detail_text(lang, _text(detail.get("message")), issue)}
                      if isinstance(detail, dict) and "message" in detail else detail
                      for detail, issue in zip(details, issues, strict=False)]
    if first is not None and message.startswith(f"{first['field']}:"):
        message = f"{field_label(lang, str(first['field']))}: {in_translation[0]['message']}"
    else:
        english_tail = f"{first['field']}: {first.get('message')}" if first is not None else None
        quoting = first is not None and english_tail is not None and message.endswith(english_tail)
        message = (translated(message, lang) or catalogue(lang).CODES.get(body["code"])
                   or catalogue(lang).CODES["BAD_REQUEST"])
        if first is not None and quoting:  # a phrase that ends quoting its first detail
            tail = f"{first['field']}: {in_language(first.get('message') or '', lang)}"
            if message.endswith(tail):
                message = (f"{message[:-len(tail)]}{field_label(lang, str(first['field']))}: "
                           f"{in_translation[0]['message']}")
    localized = {**body, "message": message}
    if in_translation:
        localized["details"] = in_translation
    return localized


def _text(value: Any) -> str:
    """A detail's message as given (a Phrase keeps its id), anything else as text."""
    return value if isinstance(value, str) else "" if value is None else str(value)


def stored_failure(code: str, message: str, at: str, details: list[dict[str, Any]] | None = None, *,
                   said: str | None = None) -> dict[str, Any]:
    """An error as a background run stores it for a later reader: {"code", "message" (the API's
    English), "at", "details"?} with each message's id and parts kept beside it ("phrase",
    messages/phrases.py `stored`); `said`, when the stored message dates it ("<date>: <said>"), is
    the message whose id is kept."""
    kept: list[dict[str, Any]] = [{**detail, "phrase": stored(detail["message"])}
                                  if isinstance(detail.get("message"), str) else detail for detail in details or []]
    return {"code": code, "message": str.__str__(message), "phrase": stored(message if said is None else said), "at": at,
            **({"details": kept} if kept else {})}


def stored_error(error: Mapping[str, Any] | None, lang: str) -> dict[str, Any] | None:
    """An error a background run stored (`stored_failure`; {"code", "message" (perhaps after its
    run's "<date>: "), "at", "details"?}) as its reader sees it: the message in `lang`, by its id,
    fields named as a person knows them; the details stay stored, not shown. One stored before ids
    answers its exact catalogue entry, else its English."""
    if not error:
        return None
    dated = re.match(r"(\d{4}-\d{2}-\d{2}): (.*)", error["message"], re.DOTALL)
    prefix, message = (f"{dated.group(1)}: ", dated.group(2)) if dated else ("", error["message"])
    details = [{key: from_stored(value, detail.get("phrase")) if key == "message" else value
                for key, value in detail.items() if key != "phrase"} for detail in error.get("details") or []]
    body = {"code": error["code"], "message": from_stored(message, error.get("phrase")),
            **({"details": details} if details else {})}
    return {"code": error["code"], "message": prefix + localized_body(body, lang)["message"], "at": error["at"]}


def stored_phrase(text: str | None, lang: str, kept: Mapping[str, Any] | None = None) -> str | None:
    """A phrase a background step stored in the API's English (why a DTE's transmission got no
    answer), with its id and parts (`kept`, messages/phrases.py `stored`), as its reader sees it: in
    `lang` by its id, else as it was stored."""
    if not text or lang == ENGLISH:
        return text
    return in_language(from_stored(text, kept), lang)


def stored_issue(kind: str, context: Mapping[str, Any]) -> tuple[str, dict[str, str]]:
    """A validation kind and its context as a background step stores them beside pydantic's English
    (an import's row problem): the context as text, as a template places it; a value_error's
    context (the exception) is left out, its message being the service's own phrase."""
    if kind in ("value_error", "assertion_error"):
        return kind, {}
    return kind, {name: _shown(value) for name, value in context.items()}


def stored_problem(message: str, issue: Mapping[str, Any] | None, lang: str,
                   kept: Mapping[str, Any] | None = None) -> str:
    """A problem stored in English (its id and parts `kept` beside it) as its reader sees it: one
    the API's model found (its `issue`: {"type", "context"}) as the API answers that detail
    (`detail_text`), else the phrase by its id."""
    if issue:
        return detail_text(lang, from_stored(message, kept), (str(issue["type"]), issue.get("context") or {}))
    return stored_phrase(message, lang, kept) or message


def _labelled(message: str, field: str, problem: str, lang: str) -> str:
    """`message` with its first detail's field, where it opens the message or where the message
    ends quoting that detail, named as a person knows it."""
    quote = f"{field}: {problem}"
    if message.endswith(quote):
        return f"{message[:-len(quote)]}{field_label(lang, field)}: {problem}"
    if message.startswith(f"{field}: "):
        return f"{field_label(lang, field)}: {message[len(field) + 2:]}"
    return message
