"""Admin CLI: create companies, users and API keys in the local stack or a deployed table.

    python -m infra.ops.admin create-company --name N --email E --password P
    python -m infra.ops.admin create-user --email E --password P [--company-id C --role R]
    python -m infra.ops.admin create-api-key --company-id C --user-id U [--name N] [--expires-at YYYY-MM-DD]
    python -m infra.ops.admin export-company --company-id C --output FILE
    python -m infra.ops.admin import-company --company-id C --input FILE    (replaces the company's items)

Target: TABLE_NAME (and AWS_ENDPOINT_URL) from the environment; when neither is set, the
running local stack described by .local/stack.json. Prints JSON; errors go to stderr as JSON."""
from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]


def _target_local_stack(state_dir: Path) -> None:
    stack = state_dir / "stack.json"
    if "TABLE_NAME" in os.environ or "AWS_ENDPOINT_URL" in os.environ or not stack.exists():
        return
    described = json.loads(stack.read_text())
    os.environ.update({"TABLE_NAME": described["tableName"], "AWS_ENDPOINT_URL": described["endpointUrl"],
                       "AWS_ACCESS_KEY_ID": os.environ.get("AWS_ACCESS_KEY_ID", "local"),
                       "AWS_SECRET_ACCESS_KEY": os.environ.get("AWS_SECRET_ACCESS_KEY", "local"),
                       "AWS_DEFAULT_REGION": os.environ.get("AWS_DEFAULT_REGION", "us-east-1")})


def create_company(table: Any, name: str, email: str, password: str) -> dict[str, Any]:
    from chalicelib.auth.secrets import verify_password
    from chalicelib.errors import Unauthorized
    from chalicelib.services.identity import accounts, api_keys

    user = accounts.find_user_by_email(table, email)
    if user is None:
        user = accounts.create_user(table, email, password)
    elif not verify_password(password, user.get("passwordHash")):
        raise Unauthorized("That e-mail belongs to a user with another password.", code="INVALID_CREDENTIALS")
    company = accounts.create_company(table, int(user["id"]), {"name": name})
    item, secret, transaction = api_keys.issue_key(table, company["id"], int(user["id"]), "Admin CLI key")
    transaction.commit()
    return {"companyId": company["id"], "userId": int(user["id"]), "apiKey": f"{item['id']}:{secret}"}


def create_user(table: Any, email: str, password: str, company_id: int | None, role: str) -> dict[str, Any]:
    from chalicelib.services.identity import accounts

    user = accounts.create_user(table, email, password)
    if company_id is not None:
        accounts.add_member(table, company_id, int(user["id"]), role)
    return {"userId": int(user["id"])}


def create_api_key(table: Any, company_id: int, user_id: int, name: str, expires_at: str | None) -> dict[str, Any]:
    from chalicelib.errors import NotFound
    from chalicelib.services.identity import api_keys
    from chalicelib.store import keys

    if table.get(keys.membership(company_id, user_id)) is None:
        raise NotFound("That user is not a member of that company.")
    item, secret, transaction = api_keys.issue_key(table, company_id, user_id, name, expires_at)
    transaction.commit()
    return {"apiKey": f"{item['id']}:{secret}", "keyId": item["id"]}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m infra.ops.admin", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--state-dir", default=str(ROOT / ".local"))
    commands = parser.add_subparsers(dest="command", required=True)
    company = commands.add_parser("create-company")
    company.add_argument("--name", required=True)
    company.add_argument("--email", required=True)
    company.add_argument("--password", required=True)
    user = commands.add_parser("create-user")
    user.add_argument("--email", required=True)
    user.add_argument("--password", required=True)
    user.add_argument("--company-id", type=int)
    user.add_argument("--role", default="admin", choices=["owner", "admin", "accountant", "seller", "viewer"])
    key = commands.add_parser("create-api-key")
    key.add_argument("--company-id", type=int, required=True)
    key.add_argument("--user-id", type=int, required=True)
    key.add_argument("--name", default="Admin CLI key")
    key.add_argument("--expires-at")
    commands.add_parser("migrate", help="bring items written by earlier versions up to date (idempotent)")
    export = commands.add_parser("export-company", help="write one company's items to a file (infra/ops/company_dump.py)")
    export.add_argument("--company-id", type=int, required=True)
    export.add_argument("--output", required=True)
    restore = commands.add_parser("import-company", help="make one company's items exactly a file's")
    restore.add_argument("--company-id", type=int, required=True, help="the dump's company, repeated")
    restore.add_argument("--input", required=True)
    args = parser.parse_args(argv)

    _target_local_stack(Path(args.state_dir))
    sys.path.insert(0, str(ROOT))
    from chalicelib.errors import ApiError
    from chalicelib.store.table import get_table

    table = get_table()
    if args.command in ("export-company", "import-company"):
        return _dump_command(args, table)
    try:
        if args.command == "create-company":
            result = create_company(table, args.name, args.email, args.password)
        elif args.command == "create-user":
            result = create_user(table, args.email, args.password, args.company_id, args.role)
        elif args.command == "migrate":
            from chalicelib.settings import get_settings
            from infra.ops.migrations import MIGRATIONS

            settings = get_settings()
            if not settings.secrets_kms_key_id and not settings.aws_endpoint_url:
                # a deployed table's secrets must be sealed under its KMS key, which the functions
                # open; a local key here would make every webhook and gateway secret unreadable
                print(json.dumps({"message": "Set SECRETS_KMS_KEY_ID to the stack's SecretsKey: migrate seals "
                                             "secrets under it.", "code": "VALIDATION_ERROR"}), file=sys.stderr)
                return 1
            result = {figure: migration(table) for figure, migration in MIGRATIONS}
        else:
            result = create_api_key(table, args.company_id, args.user_id, args.name, args.expires_at)
    except ApiError as error:
        print(json.dumps(error.body()), file=sys.stderr)
        return 1
    print(json.dumps(result))
    return 0


def _dump_command(args: argparse.Namespace, table: Any) -> int:
    from chalicelib.store.table import make_client
    from infra.ops.company_dump import export_company, import_company

    client = make_client("dynamodb")
    try:
        if args.command == "export-company":
            dump = export_company(client, table.name, args.company_id)
            Path(args.output).write_text(json.dumps(dump))
            result: dict[str, Any] = {"companyId": args.company_id, "items": len(dump["items"]), "output": args.output}
        else:
            result = {"companyId": args.company_id, **import_company(
                client, table.name, json.loads(Path(args.input).read_text()), args.company_id)}
    except (OSError, ValueError, KeyError) as error:
        print(json.dumps({"message": str(error), "code": "VALIDATION_ERROR"}), file=sys.stderr)
        return 1
    print(json.dumps(result))
    return 0


if __name__ == "__main__":
    sys.exit(main())
