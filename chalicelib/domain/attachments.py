"""The papers behind a record (issue 44): which records take them, what files, how many, and a file's
name made safe to keep and to hand back in a download's Content-Disposition. Pure rules."""
from __future__ import annotations

import re
import unicodedata
from urllib.parse import quote

# the records that take papers (a statement line: by its id, among the company's bank accounts)
RECORD_TYPES = ("document", "journalEntry", "statementLine")
CONTENT_TYPES = ("application/pdf", "image/jpeg", "image/png", "application/xml", "text/xml")
MAX_SIZE = 10 * 1024 * 1024  # 10 MB = 10,485,760 bytes, as Xero's
MAX_PER_RECORD = 10
MAX_FILE_NAME = 200
# presigned links: short, the upload only long enough for a slow connection to send 10 MB (5 minutes:
# 10 MB at 300 kbit/s); a pending attachment older than its link can no longer receive a file
UPLOAD_EXPIRES_S = 5 * 60
DOWNLOAD_EXPIRES_S = 15 * 60
CLOCK_SKEW_S = 60  # between the API's clock and S3's, before a pending attachment past its link counts as abandoned

_CONTROL = re.compile(r"[\x00-\x1f\x7f-\x9f]")
# what a header or a file system could read as syntax: quotes, separators, reserved characters
_RESERVED = re.compile(r'["*:<>?|;\\/]')


def safe_file_name(sent: str) -> str | None:
    """The last part of a path (a browser may send C:\\fakepath\\x.pdf), NFC, without control
    characters, invisible format ones (Unicode Cf: a right-to-left override shows "gnp.exe.pdf" as
    "fdp.exe.png") or reserved ones, spaces collapsed, at most MAX_FILE_NAME characters with its
    extension kept; None when nothing usable is left (".", "..", blanks)."""
    name = re.split(r"[\\/]", unicodedata.normalize("NFC", sent))[-1]
    name = "".join(character for character in name if unicodedata.category(character) != "Cf")
    name = " ".join(_RESERVED.sub("_", _CONTROL.sub("", name)).split()).strip(". ")
    if not name or set(name) <= {"_"}:
        return None
    if len(name) > MAX_FILE_NAME:
        stem, dot, extension = name.rpartition(".")
        keep = f".{extension}" if dot and len(extension) <= 10 else ""
        name = name[:MAX_FILE_NAME - len(keep)].rstrip(". ") + keep
    return name


def content_disposition(file_name: str) -> str:
    """`attachment` with the name twice: an ASCII fallback (accents dropped) and the UTF-8 name
    (RFC 6266 / 5987), so "Factura año 2026.pdf" downloads under its own name."""
    fallback = unicodedata.normalize("NFKD", file_name).encode("ascii", "ignore").decode("ascii") or "archivo"
    fallback = fallback.replace('"', "_")
    return f"attachment; filename=\"{fallback}\"; filename*=UTF-8''{quote(file_name, safe='')}"
