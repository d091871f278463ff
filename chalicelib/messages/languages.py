"""The languages the API speaks, by their codes: English unless the caller prefers Spanish. Its
own module so that a catalogue (es.py) names its language without importing the package that
chooses between the catalogues (messages/__init__.py)."""
from __future__ import annotations

ENGLISH, SPANISH = "en", "es"
LANGUAGES = (ENGLISH, SPANISH)
