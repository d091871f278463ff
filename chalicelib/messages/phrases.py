"""A message by id (issue 45, item 4): an error's text is a `Phrase`, made as `Phrase("Account {}
was not found.", code)`. Its id is its English template, as gettext's msgid is (`{}` where a part is
filled in); its value as a str is the English rendering, so logs, tests and JSON read it as before.
Another language's text is looked up by that id in the gettext catalogue
(locale/<lang>/LC_MESSAGES/api.po), never by matching the English: the msgstr places part n as `{n}`,
or `{n:m}`/`{n:f}` where an API value placed there agrees in gender with its noun (es.VALUES).

A stored error keeps its id and parts beside its English (`stored`/`from_stored`): a background run's
error is read in the language of whoever reads it, later."""
from __future__ import annotations

import re
from typing import Any, Mapping, Union

from chalicelib.messages.catalogues import translations

ENGLISH = "en"
HOLE = "{}"
# "de el valor" -> "del valor" once a part starting with "el" lands after "de"/"a" (in the translated
# text: "de El Salvador", a name, keeps its capital and stays apart)
_CONTRACTION = re.compile(r"\b(de|a) el\b")


class Phrase(str):
    """An English message and its id: `template` (the msgid) and `parts` (each a str, or a Phrase
    the message quotes: a refusal naming its detail). Any other part is kept as the f-string would
    have shown it (`format(part, "")`)."""

    template: str
    parts: tuple[Part, ...]

    def __new__(cls, template: str, *parts: object) -> Phrase:
        kept: tuple[Part, ...] = tuple(part if isinstance(part, Phrase) else format(part, "") for part in parts)
        pieces = template.split(HOLE)
        if len(pieces) != len(kept) + 1:
            raise ValueError(f"{template!r} has {len(pieces) - 1} places for {len(kept)} parts")
        text = pieces[0] + "".join(str.__str__(part) + piece for part, piece in zip(kept, pieces[1:], strict=True))
        made = super().__new__(cls, text)
        made.template = template
        made.parts = kept
        return made

    # copy and pickle make it again from its id and parts (str's own gives its rendering alone)
    def __getnewargs__(self) -> tuple[str, ...]:  # type: ignore[override]
        return (self.template, *self.parts)

    def __repr__(self) -> str:
        return f"Phrase({self.template!r}{''.join(', ' + repr(part) for part in self.parts)})"


Part = Union[str, Phrase]


def translated(text: str, lang: str) -> str | None:
    """`text` in `lang`, found by its id: a Phrase's template, with its parts placed (each part
    translated the same way); a plain text is its own id (a literal with no parts). None when the
    catalogue does not hold it. English is the ids' own language."""
    if lang == ENGLISH:
        return str.__str__(text)
    if isinstance(text, Phrase):
        return _placed(text, lang)
    entry = translations(lang).get(text)
    return entry if entry is not None and HOLE not in text else None


def in_language(text: str, lang: str) -> str:
    """`text` in `lang` when the catalogue holds it, else as it is."""
    found = translated(text, lang)
    return str.__str__(text) if found is None else found


def _placed(phrase: Phrase, lang: str) -> str | None:
    if not any(char.isalpha() for char in phrase.template):
        # all filled in ("{}: {}", a DTE field's "<what>: <remedy>"): no words of its own to translate
        target: str | None = "".join(f"{piece}{{{n}}}" for n, piece in enumerate(phrase.template.split(HOLE)[:-1]))
        target = f"{target}{phrase.template.split(HOLE)[-1]}"
    else:
        target = translations(lang).get(phrase.template)
    if target is None:
        return None
    out, rest = [], target
    while True:
        start = rest.find("{")
        end = rest.find("}", start + 1) if start >= 0 else -1
        if start < 0 or end < 0:
            out.append(rest)
            break
        place, _, gender = rest[start + 1:end].partition(":")
        if place.isdigit() and gender in ("", "m", "f") and int(place) < len(phrase.parts):
            out += [rest[:start], _part(phrase.parts[int(place)], gender, lang)]
        else:  # a literal brace of the text ("/companies/{id}/...")
            out.append(rest[:end + 1])
        rest = rest[end + 1:]
    return _CONTRACTION.sub(lambda match: "del" if match.group(1) == "de" else "al", "".join(out))


def _part(part: Part, gender: str, lang: str) -> str:
    """A part in the sentence: an API value where the place names its gender ("esta partida está
    {0:f}": posted -> contabilizada), a quoted phrase or a catalogue literal translated, else the
    part as it came (a code, a number, the user's own data)."""
    if gender and not isinstance(part, Phrase):
        from chalicelib.messages import es

        if part in es.VALUES:
            return es.VALUES[part][gender == "f"]
    return in_language(part, lang)


def stored(text: str) -> dict[str, Any]:
    """What keeps a phrase's id where it is stored: {"id", "parts"}, its parts nested alike, all
    strings (DynamoDB keeps them as they are)."""
    if not isinstance(text, Phrase):
        return {"id": str.__str__(text), "parts": []}
    return {"id": text.template,
            "parts": [stored(part) if isinstance(part, Phrase) else str.__str__(part) for part in text.parts]}


def from_stored(english: str, kept: Mapping[str, Any] | None) -> str:
    """The phrase `stored` kept, made again (a legacy one stored before ids: its English, whose
    catalogue entry, if it is one exactly, still answers)."""
    if not kept or "id" not in kept:
        return english
    try:
        return Phrase(str(kept["id"]), *(from_stored("", part) if isinstance(part, Mapping) else str(part)
                                         for part in kept.get("parts") or []))
    except ValueError:  # a stored id whose places no longer match: its English
        return english
