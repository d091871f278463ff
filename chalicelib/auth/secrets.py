"""Credentials are stored only as hashes: API key secrets and session tokens as SHA-256,
passwords with scrypt and a per-user salt. Comparisons are constant-time."""
from __future__ import annotations

import base64
import hashlib
import hmac
import re
import secrets

KEY_ID_PATTERN = re.compile(r"^ak_[A-Z2-7]{16}$")
_SCRYPT_N, _SCRYPT_R, _SCRYPT_P = 2 ** 14, 8, 1


def sha256_hex(value: str) -> str:
    return hashlib.sha256(value.encode()).hexdigest()


def matches_hash(value: str, expected_hex: str) -> bool:
    return hmac.compare_digest(sha256_hex(value), expected_hex)


def new_key_id() -> str:
    return "ak_" + base64.b32encode(secrets.token_bytes(10)).decode()


def new_key_secret() -> str:
    return "sk_" + secrets.token_urlsafe(32)


def new_session_token() -> str:
    return secrets.token_urlsafe(32)


def hash_password(password: str) -> str:
    salt = secrets.token_bytes(16)
    digest = hashlib.scrypt(password.encode(), salt=salt, n=_SCRYPT_N, r=_SCRYPT_R, p=_SCRYPT_P)
    encode = base64.b64encode
    return f"scrypt${_SCRYPT_N}${_SCRYPT_R}${_SCRYPT_P}${encode(salt).decode()}${encode(digest).decode()}"


def verify_password(password: str, stored: str | None) -> bool:
    """Always does the scrypt work, so an unknown e-mail costs as much as a wrong password."""
    try:
        _, n, r, p, salt, digest = (stored or "").split("$")
        salt_bytes, expected = base64.b64decode(salt), base64.b64decode(digest)
        n_, r_, p_ = int(n), int(r), int(p)
    except ValueError:
        salt_bytes, expected, n_, r_, p_ = b"0" * 16, b"", _SCRYPT_N, _SCRYPT_R, _SCRYPT_P
    actual = hashlib.scrypt(password.encode(), salt=salt_bytes, n=n_, r=r_, p=p_)
    return bool(expected) and hmac.compare_digest(actual, expected)
