"""What an El Salvador company holds from the Ministerio de Hacienda to issue DTEs, each uploaded
once, kept sealed (chalicelib.auth.sealing) and never answered: the key it signs its DTEs with
(the private key of the certificate the Ministerio issued it) and the password of the authority's
API (whose user is the company's NIT). And the signing itself: the DTE as a compact JWS, RS512,
header {"alg":"RS512", "typ":"JWS"}, as the authority's signer produces it."""
from __future__ import annotations

import hashlib
from typing import Any

from chalicelib import clock, jsoncodec
from chalicelib.auth import sealing
from chalicelib.countries.sv.domain.dte_json import digits
from chalicelib.countries.sv.services.dte_authority import forget_authority_tokens
from chalicelib.errors import ApiError, NotFound, ValidationFailed
from chalicelib.messages.phrases import Phrase
from chalicelib.services.commands import Command
from chalicelib.services.identity import accounts
from chalicelib.store import keys
from chalicelib.store.table import Table

MIN_BITS = 2048
HEADER = {"alg": "RS512", "typ": "JWS"}


class SigningKeyMissing(ApiError):
    code = "DTE_SIGNING_KEY_MISSING"


class CredentialsMissing(ApiError):
    code = "DTE_AUTHORITY_CREDENTIALS_MISSING"


def _context(company_id: int, purpose: str = "dte-signing-key") -> dict[str, str]:
    return {"companyId": str(company_id), "purpose": purpose}


def _shown(item: dict[str, Any]) -> dict[str, Any]:
    return {name: item[name] for name in ("fingerprint", "publicKey", "bits", "updatedAt")}


def _own_company(acting_company_id: int, company_id: int) -> None:
    if company_id != acting_company_id:  # another company's is not found, as everywhere
        raise NotFound("Company not found.")


def store_key(command: Command, company_id: int, private_pem: str) -> dict[str, Any]:
    from joserfc.jwk import RSAKey

    _own_company(command.company_id, company_id)
    try:
        key = RSAKey.import_key(private_pem)
    except Exception:  # whatever the parser says, the answer is the same
        raise ValidationFailed.for_field("privateKey", "not an RSA private key in PEM") from None
    private = key.private_key
    if not key.is_private or private is None:
        raise ValidationFailed.for_field("privateKey", "a public key: send the private key")
    bits = private.key_size
    if bits < MIN_BITS:
        raise ValidationFailed.for_field("privateKey", Phrase("the key has {} bits; at least {}", bits, MIN_BITS))
    public_pem = key.as_pem(private=False).decode("ascii")
    item = {**keys.dte_signing_key(company_id), "itemType": "DTE_SIGNING_KEY",
            "sealedKey": sealing.seal(key.as_pem(private=True), _context(company_id)), "publicKey": public_pem,
            "fingerprint": hashlib.sha256(public_pem.encode()).hexdigest(), "bits": bits, "updatedAt": clock.now_iso()}
    transaction = command.transaction()
    transaction.put(item)
    return command.commit(transaction, _shown(item))


def key_info(table: Table, company_id: int, requested_id: int) -> dict[str, Any]:
    _own_company(company_id, requested_id)
    item = table.get(keys.dte_signing_key(company_id))
    if item is None:
        raise NotFound("This company has no DTE signing key.")
    return _shown(item)


def public_key(table: Table, company_id: int) -> str | None:
    item = table.get(keys.dte_signing_key(company_id))
    return None if item is None else str(item["publicKey"])


def require_credentials(table: Table, company_id: int) -> None:
    """A DTE that could not be signed or sent could never be accepted: both are asked for before
    one is issued."""
    found = table.batch_get([keys.dte_signing_key(company_id), keys.dte_authority_credentials(company_id)])
    if keys.pair(keys.dte_signing_key(company_id)) not in found:
        raise SigningKeyMissing("An El Salvador DTE is signed with the company's key: upload it first "
                                "(PUT /companies/{id}/dte-signing-key).")
    if keys.pair(keys.dte_authority_credentials(company_id)) not in found:
        raise CredentialsMissing("An El Salvador DTE is sent to the tax authority with the company's API password: "
                                 "set it first (PUT /companies/{id}/dte-authority-credentials).")


def store_password(command: Command, company_id: int, password: str) -> dict[str, Any]:
    _own_company(command.company_id, company_id)
    user = digits(accounts.get_company(command.table, company_id).get("taxId"))
    if not user:
        raise ValidationFailed.for_field("password", "the authority's user is the company's NIT: set the company's NIT first")
    item = {**keys.dte_authority_credentials(company_id), "itemType": "DTE_AUTHORITY_CREDENTIALS",
            "sealedPassword": sealing.seal(password.encode("utf-8"), _context(company_id, "dte-authority-password")),
            "updatedAt": clock.now_iso()}
    transaction = command.transaction()
    transaction.put(item)
    answer = command.commit(transaction, {"user": user, "updatedAt": item["updatedAt"]})
    forget_authority_tokens(company_id)  # the old password's token (in this function's memory)
    return answer


def credentials_info(table: Table, company_id: int, requested_id: int) -> dict[str, Any]:
    _own_company(company_id, requested_id)
    item = table.get(keys.dte_authority_credentials(company_id))
    if item is None:
        raise NotFound("This company has no tax authority credentials.")
    return {"user": digits(accounts.get_company(table, company_id).get("taxId")), "updatedAt": item["updatedAt"]}


def authority_password(table: Table, company_id: int) -> str:
    item = table.get(keys.dte_authority_credentials(company_id))
    if item is None:
        raise CredentialsMissing("The company's tax authority credentials are gone: set them again.")
    return sealing.unseal(item["sealedPassword"], _context(company_id, "dte-authority-password")).decode("utf-8")


def sign(table: Table, company_id: int, dte: dict[str, Any]) -> str:
    """The DTE as the authority receives it: its JSON (decimals as written, accents as they are)
    signed with the company's key."""
    item = table.get(keys.dte_signing_key(company_id))
    if item is None:
        raise SigningKeyMissing("The company's DTE signing key is gone: upload it again.")
    return sign_with(sealing.unseal(item["sealedKey"], _context(company_id)), dte)


def sign_with(private_pem: bytes | str, dte: dict[str, Any]) -> str:
    from joserfc import jws
    from joserfc.jwk import RSAKey

    payload = jsoncodec.dumps(dte)  # compact, decimals exactly as written, accents as they are
    return jws.serialize_compact(HEADER, payload.encode("utf-8"), RSAKey.import_key(private_pem), algorithms=["RS512"])
