"""The web console: static HTML, CSS and JavaScript modules under /app/, served by the same
Lambda as the API. It is not part of the API contract (no OpenAPI entry, no credentials needed
to fetch a file): every page talks to the documented API with the session cookie."""
from __future__ import annotations

import re
from functools import lru_cache
from pathlib import Path

from chalice import Blueprint, Response

from chalicelib.api.routing import error_response
from chalicelib.errors import NotFound
from chalicelib.settings import get_settings
from chalicelib.store.attachments import get_attachment_objects

blueprint = Blueprint(__name__)

CONSOLE_ROOT = Path(__file__).resolve().parent.parent / "console"
_ASSET_NAME = re.compile(r"^[a-z0-9][a-z0-9-]*\.(html|js|css|svg|txt)$")
_MEDIA_TYPES = {"html": "text/html; charset=utf-8", "js": "text/javascript; charset=utf-8",
                "css": "text/css; charset=utf-8", "svg": "image/svg+xml", "txt": "text/plain; charset=utf-8"}

# No inline script or style, nothing from another origin; PDFs are previewed from blob: URLs. The one
# other origin the console speaks to is the attachments bucket (connect-src): it PUTs an attachment to
# the presigned address POST /attachments answers (pages/attachments.js), the file never passing through the API.
CONTENT_SECURITY_POLICY = ("default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data: blob:; "
                           "connect-src 'self'{storage}; frame-src 'self' blob:; base-uri 'none'; form-action 'self'; "
                           "frame-ancestors 'none'")
OTHER_HEADERS = {"X-Content-Type-Options": "nosniff", "Referrer-Policy": "same-origin", "X-Frame-Options": "DENY",
                 "Cache-Control": "no-cache"}


def storage_origins() -> list[str]:
    """The attachments bucket only (its presigned addresses' prefix: the local stack's moto endpoint or
    the region's S3, path-style, then the bucket), never S3 at large; nothing when no bucket is set."""
    if not get_settings().attachments_bucket:
        return []
    return [get_attachment_objects().upload_prefix()]


def security_headers() -> dict[str, str]:
    return {"Content-Security-Policy": CONTENT_SECURITY_POLICY.format(storage="".join(f" {origin}" for origin in storage_origins())), **OTHER_HEADERS}


@lru_cache(maxsize=64)
def _read(relative: str) -> bytes | None:
    path = CONSOLE_ROOT / relative
    return path.read_bytes() if path.is_file() else None


def _serve(folder: str, name: str) -> Response:
    """`name` is one file name (no separator can pass the pattern), inside one known folder."""
    match = _ASSET_NAME.match(name)
    content = _read(f"{folder}{name}") if match else None
    if match is None or content is None:
        return error_response(NotFound("No such file in the console."))
    return Response(body=content.decode("utf-8"), status_code=200,
                    headers={"Content-Type": _MEDIA_TYPES[match.group(1)], **security_headers()})


@blueprint.route("/app", methods=["GET"], name="console_index")
def console_index() -> Response:
    # Relative asset paths need the trailing slash (a stage prefix may precede /app when deployed)
    path = (blueprint.current_request.context or {}).get("path") or "/app"
    if not path.endswith("/"):
        return Response(body="", status_code=302, headers={"Location": path + "/", **security_headers()})
    return _serve("", "index.html")


@blueprint.route("/docs", methods=["GET"], name="console_reference")
def console_reference() -> Response:
    """The API reference: a console page that renders the served /openapi.json."""
    return Response(body="", status_code=302, headers={"Location": "app/reference.html", **security_headers()})


@blueprint.route("/app/{asset}", methods=["GET"], name="console_asset")
def console_asset(asset: str) -> Response:
    return _serve("", asset)


@blueprint.route("/app/pages/{asset}", methods=["GET"], name="console_page")
def console_page(asset: str) -> Response:
    return _serve("pages/", asset)


@blueprint.route("/app/locales/{asset}", methods=["GET"], name="console_locale")
def console_locale(asset: str) -> Response:
    return _serve("locales/", asset)
