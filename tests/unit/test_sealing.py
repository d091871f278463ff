"""Sealed secrets: envelope encryption under a local master key or a KMS key (moto's), each bound
to its context: what was sealed for one company or purpose does not open for another."""
from __future__ import annotations

import boto3
import pytest
from botocore.exceptions import ClientError
from cryptography.exceptions import InvalidTag

from chalicelib.auth import sealing

CONTEXT = {"companyId": "1", "purpose": "dte-signing-key"}


def test_a_local_master_key_seals_and_binds_the_context():
    sealed = sealing.seal(b"secreto", CONTEXT)
    assert sealed["scheme"] == sealing.LOCAL and b"secreto" not in repr(sealed).encode()
    assert sealing.unseal(sealed, CONTEXT) == b"secreto"
    assert sealing.seal(b"secreto", CONTEXT)["ciphertext"] != sealed["ciphertext"]  # a fresh data key each time
    with pytest.raises(InvalidTag):
        sealing.unseal(sealed, {**CONTEXT, "companyId": "2"})


def test_without_a_master_key_nothing_is_sealed(settings_env):
    settings_env(LOCAL_SECRETS_KEY="")
    with pytest.raises(sealing.SealingUnavailable):
        sealing.seal(b"secreto", CONTEXT)


def test_a_kms_key_seals_when_configured(aws, settings_env):
    key_id = boto3.client("kms", region_name="us-east-1").create_key()["KeyMetadata"]["KeyId"]
    settings_env(SECRETS_KMS_KEY_ID=key_id, LOCAL_SECRETS_KEY="")
    sealed = sealing.seal(b"secreto", CONTEXT)
    assert sealed["scheme"] == sealing.KMS
    assert sealing.unseal(sealed, CONTEXT) == b"secreto"
    with pytest.raises(ClientError, match="InvalidCiphertext"):  # another encryption context: KMS refuses
        sealing.unseal(sealed, {**CONTEXT, "purpose": "other"})


def test_a_data_key_kms_opened_is_kept_so_each_delivery_costs_no_kms_call(aws, settings_env, monkeypatch):
    key_id = boto3.client("kms", region_name="us-east-1").create_key()["KeyMetadata"]["KeyId"]
    settings_env(SECRETS_KMS_KEY_ID=key_id, LOCAL_SECRETS_KEY="")
    sealed = sealing.seal_text("whsec_abc", 7, "webhook-secret")
    decrypts = []
    client = sealing._kms()
    original = client.decrypt
    monkeypatch.setattr(sealing, "_kms", lambda: client)
    monkeypatch.setattr(client, "decrypt", lambda **kwargs: decrypts.append(kwargs) or original(**kwargs))
    monkeypatch.setattr(sealing, "_opened_keys", {})
    item = {"sealedSecret": sealed}
    assert [sealing.opened_text(item, 7, "webhook-secret") for _ in range(3)] == ["whsec_abc"] * 3
    assert len(decrypts) == 1
    # the context is part of what is kept: another company's does not open from the cache
    with pytest.raises(ClientError, match="InvalidCiphertext"):
        sealing.opened_text(item, 8, "webhook-secret")
