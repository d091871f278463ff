"""The compiled gettext catalogues (issue 45): messages/locale/<lang>/LC_MESSAGES/api.po is what a
translator edits (any gettext tool, or Babel: `pybabel compile -d chalicelib/messages/locale -D api`,
which `make` runs); api.mo, compiled at build time and packaged with the code, is what the API reads.
The .mo format (GNU gettext's: a header, then the original and translated strings' lengths and offsets,
little- or big-endian) is read here in full, so nothing reaches into a library's private state."""
from __future__ import annotations

import struct
from functools import lru_cache
from pathlib import Path

LOCALES = Path(__file__).parent / "locale"
DOMAIN = "api"
_MAGIC = {0x950412DE: "<", 0xDE120495: ">"}


class CatalogueMissing(RuntimeError):
    """The compiled catalogue is not there: the build compiles it (`make`, `pybabel compile`)."""


@lru_cache(maxsize=None)
def translations(lang: str) -> dict[str, str]:
    """Each message of `lang`'s compiled catalogue, by its English id (the header left out)."""
    path = LOCALES / lang / "LC_MESSAGES" / f"{DOMAIN}.mo"
    try:
        data = path.read_bytes()
    except FileNotFoundError:
        raise CatalogueMissing(f"{path} is not compiled: run `make messages` (pybabel compile)") from None
    return read_mo(data)


def read_mo(data: bytes) -> dict[str, str]:
    (magic,) = struct.unpack("<I", data[:4])
    order = _MAGIC.get(magic)
    if order is None:
        raise ValueError("not a gettext .mo file")
    _revision, count, originals, translated = struct.unpack(f"{order}4I", data[4:20])
    messages: dict[str, str] = {}
    for index in range(count):
        length, offset = struct.unpack(f"{order}2I", data[originals + 8 * index:originals + 8 * index + 8])
        english = data[offset:offset + length].decode("utf-8")
        length, offset = struct.unpack(f"{order}2I", data[translated + 8 * index:translated + 8 * index + 8])
        if english:  # the empty id holds the catalogue's header
            messages[english] = data[offset:offset + length].decode("utf-8")
    return messages
