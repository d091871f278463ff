"""Secrets kept encrypted at rest, by envelope encryption: a fresh 256-bit data key encrypts the
secret with AES-GCM, and the data key is kept encrypted by a master key: AWS KMS when deployed
(`SECRETS_KMS_KEY_ID`), else a local key (`LOCAL_SECRETS_KEY`, 32 bytes in base64: the local
stack keeps one in .local/, the tests set one). The context (the company and what the secret is
for) is bound to both layers, so a sealed secret copied to another company or purpose does not
open. The master key never reaches the table."""
from __future__ import annotations

import base64
import json
import os
import threading
from typing import Any, Mapping

from chalicelib.settings import get_settings

LOCAL, KMS = "local-aes-gcm", "kms"


class SealingUnavailable(RuntimeError):
    """No master key is configured: nothing secret can be stored."""


def _b64(data: bytes) -> str:
    return base64.b64encode(data).decode("ascii")


def _aad(context: Mapping[str, str]) -> bytes:
    return json.dumps(dict(context), sort_keys=True, separators=(",", ":")).encode()


def seal(plaintext: bytes, context: Mapping[str, str]) -> dict[str, Any]:
    from cryptography.hazmat.primitives.ciphers.aead import AESGCM

    data_key, wrapped, scheme = _new_data_key(context)
    nonce = os.urandom(12)
    ciphertext = AESGCM(data_key).encrypt(nonce, plaintext, _aad(context))
    return {"scheme": scheme, "wrappedKey": _b64(wrapped), "nonce": _b64(nonce), "ciphertext": _b64(ciphertext)}


def unseal(sealed: Mapping[str, Any], context: Mapping[str, str]) -> bytes:
    from cryptography.hazmat.primitives.ciphers.aead import AESGCM

    data_key = _data_key(sealed["scheme"], base64.b64decode(sealed["wrappedKey"]), context)
    return AESGCM(data_key).decrypt(base64.b64decode(sealed["nonce"]), base64.b64decode(sealed["ciphertext"]),
                                    _aad(context))


def _new_data_key(context: Mapping[str, str]) -> tuple[bytes, bytes, str]:
    settings = get_settings()
    if settings.secrets_kms_key_id:
        answer = _kms().generate_data_key(KeyId=settings.secrets_kms_key_id, KeySpec="AES_256",
                                          EncryptionContext=dict(context))
        return answer["Plaintext"], answer["CiphertextBlob"], KMS
    from cryptography.hazmat.primitives.ciphers.aead import AESGCM

    data_key, nonce = AESGCM.generate_key(bit_length=256), os.urandom(12)
    return data_key, nonce + AESGCM(_local_master_key()).encrypt(nonce, data_key, _aad(context)), LOCAL


def seal_text(value: str, company_id: int, purpose: str) -> dict[str, Any]:
    """A company's secret text, sealed for one purpose (a webhook's or a gateway's secret, ...)."""
    return seal(value.encode("utf-8"), {"companyId": str(company_id), "purpose": purpose})


def opened_text(item: Mapping[str, Any], company_id: int, purpose: str, field: str = "secret") -> str:
    """The plaintext of an item's secret: `sealed<Field>` when sealed, else the plaintext `field`
    an item written before secrets were sealed still holds (until `infra.ops.admin migrate`)."""
    sealed = item.get("sealed" + field[:1].upper() + field[1:])
    if sealed:
        return unseal(sealed, {"companyId": str(company_id), "purpose": purpose}).decode("utf-8")
    return str(item.get(field) or "")


# Data keys opened by KMS, kept in the function's memory (as the AWS Encryption SDK's cache does):
# a webhook delivery or a gateway's notification would otherwise cost a KMS call each.
_opened_keys: dict[tuple[bytes, str], bytes] = {}
_OPENED_KEYS_MAX = 512
_opened_keys_lock = threading.Lock()


def _data_key(scheme: str, wrapped: bytes, context: Mapping[str, str]) -> bytes:
    if scheme == KMS:
        cache_key = (wrapped, json.dumps(dict(context), sort_keys=True))
        data_key = _opened_keys.get(cache_key)
        if data_key is None:
            data_key = _kms().decrypt(CiphertextBlob=wrapped, EncryptionContext=dict(context))["Plaintext"]
            with _opened_keys_lock:  # the local stack's threads share it
                if len(_opened_keys) >= _OPENED_KEYS_MAX:
                    _opened_keys.clear()
                _opened_keys[cache_key] = data_key
        return data_key
    from cryptography.hazmat.primitives.ciphers.aead import AESGCM

    return AESGCM(_local_master_key()).decrypt(wrapped[:12], wrapped[12:], _aad(context))


def _local_master_key() -> bytes:
    encoded = get_settings().local_secrets_key
    if not encoded:
        raise SealingUnavailable("no master key for secrets: set SECRETS_KMS_KEY_ID (deployed) or LOCAL_SECRETS_KEY")
    key = base64.b64decode(encoded)
    if len(key) != 32:
        raise SealingUnavailable("LOCAL_SECRETS_KEY must be 32 bytes in base64")
    return key


def _kms() -> Any:
    from chalicelib.store.table import make_client

    return make_client("kms")
