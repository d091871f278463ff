"""The registry of country packs: the one place outside a pack that names a country.

The core (api, services, domain, pdf, models, ...) asks `pack(code)` or `pack_of(company)` for what a
country adds and never imports `chalicelib.countries.<code>` itself. A pack is imported on first use,
so a cold start pays only for the countries its requests touch."""
from __future__ import annotations

from functools import lru_cache
from importlib import import_module
from typing import TYPE_CHECKING, Any, Mapping

if TYPE_CHECKING:
    from chalicelib.countries.interface import CountryPack

# ISO 3166-1 alpha-2 code -> the pack's package; a third country is one more line here
PACKAGES = {"HN": "chalicelib.countries.hn", "SV": "chalicelib.countries.sv"}
CODES = tuple(PACKAGES)
DEFAULT = "HN"  # a company created without a country, and the items written before `country` existed


@lru_cache(maxsize=None)
def pack(code: str | None) -> "CountryPack":
    """The pack of a country; an unknown or missing code is the default country's."""
    found: CountryPack = import_module(PACKAGES.get(code or DEFAULT, PACKAGES[DEFAULT])).PACK
    return found


def pack_of(company: Mapping[str, Any] | None) -> "CountryPack":
    return pack((company or {}).get("country"))


def pack_of_document(document: Mapping[str, Any], company: Mapping[str, Any] | None) -> "CountryPack":
    """The pack whose tax authority holds the document (it issued it electronically), else the
    company's: a company may change country after issuing."""
    return next((each for each in packs() if each.hooks.issued(document)), pack_of(company))


def packs() -> tuple["CountryPack", ...]:
    return tuple(pack(code) for code in CODES)


def blueprints() -> tuple[Any, ...]:
    """The countries' own routes (app.py registers them after the core's)."""
    return tuple(import_module(each.routes_module).blueprint for each in packs() if each.routes_module)
