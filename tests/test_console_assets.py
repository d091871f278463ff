"""The console's static files: served without credentials, with a Content-Security-Policy that
forbids inline scripts and foreign origins, and nothing outside the console folder."""
from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from chalicelib.api.console import CONSOLE_ROOT

CONSOLE_FILES = sorted(path.relative_to(CONSOLE_ROOT).as_posix() for path in CONSOLE_ROOT.rglob("*") if path.is_file())


def test_index_is_served_with_security_headers(api):
    reply = api.get("/app/")
    assert reply.status == 200
    assert reply.header("Content-Type").startswith("text/html")
    policy = reply.header("Content-Security-Policy")
    assert "script-src 'self'" in policy and "default-src 'none'" in policy
    # the one other origin: the attachments bucket, where the console PUTs an attachment (connect-src
    # only), pinned to that bucket (path-style: S3's host, then the bucket), no other bucket of S3
    directives = dict(part.strip().split(" ", 1) for part in policy.split(";"))
    assert "unsafe-inline" not in policy
    assert {name for name, sources in directives.items() if "http" in sources} == {"connect-src"}
    assert directives["connect-src"].split() == ["'self'", "https://s3.amazonaws.com/test-business-api-attachments/"]
    assert reply.header("X-Content-Type-Options") == "nosniff"
    assert '<script type="module" src="main.js">' in reply.text


def test_the_policy_admits_the_presigned_upload_addresses_of_its_bucket_only(aws):
    import boto3
    from botocore.config import Config

    from chalicelib.store.attachments import AttachmentObjects, get_attachment_objects

    bucket = get_attachment_objects()
    prefix = bucket.upload_prefix()
    assert bucket.upload_url("companies/1/JE/7/3-x", "application/pdf", 10, 300).startswith(prefix)
    assert not "https://s3.amazonaws.com/another-bucket/x".startswith(prefix)
    # the local stack: its moto endpoint, then the bucket
    local = AttachmentObjects(boto3.client("s3", endpoint_url="http://127.0.0.1:5001", config=Config(
        s3={"addressing_style": "path"}, signature_version="s3v4")), "dev-attachments")
    assert local.upload_prefix() == "http://127.0.0.1:5001/dev-attachments/"
    assert local.upload_url("k", "image/png", 1, 300).startswith(local.upload_prefix())


def test_app_without_slash_redirects_so_relative_assets_resolve(api):
    reply = api.get("/app")
    assert reply.status == 302
    assert reply.header("Location") == "/app/"


def test_docs_is_the_api_reference_page(api):
    reply = api.get("/docs")
    assert reply.status == 302 and reply.header("Location") == "app/reference.html"
    page = api.get("/app/reference.html")
    assert page.status == 200 and '<script type="module" src="reference.js">' in page.text


@pytest.mark.parametrize("name", CONSOLE_FILES)
def test_every_console_file_is_served_with_its_media_type(api, name):
    reply = api.get(f"/app/{name}")
    assert reply.status == 200, name
    expected = {"js": "text/javascript", "css": "text/css", "html": "text/html", "svg": "image/svg+xml"}
    assert reply.header("Content-Type").startswith(expected[name.rsplit(".", 1)[1]])
    assert reply.text == (CONSOLE_ROOT / name).read_text()


@pytest.mark.parametrize("path", ["/app/nope.js", "/app/..%2Fapp.py", "/app/pages/..%2F..%2Fsettings.py",
                                  "/app/pages/secret.py", "/app/.hidden.js"])
def test_anything_else_is_404_json(api, path):
    reply = api.get(path)
    assert reply.status == 404
    assert reply.json["code"] == "NOT_FOUND"


@pytest.mark.parametrize("asset", ["../../requirements.txt", "/etc/hostname.txt", "pages/home.js", "..", "a/../b.js"])
def test_a_file_name_never_leaves_the_console_folder(asset):
    """Even if a gateway decoded %2F into the path parameter, only one plain name is served."""
    from chalicelib.api.console import console_asset, console_page

    assert console_asset(asset).status_code == 404
    assert console_page(asset).status_code == 404


@pytest.mark.parametrize("name", [n for n in CONSOLE_FILES if n.endswith((".html", ".js"))])
def test_no_inline_script_style_or_markup_injection(name):
    """The CSP would block them anyway: keep the source honest too."""
    text = (Path(CONSOLE_ROOT) / name).read_text()
    assert not re.search(r"<script(?![^>]*\bsrc=)", text), "inline <script>"
    assert not re.search(r"\son[a-z]+=\"", text), "inline event handler attribute"
    assert "innerHTML" not in text and "eval(" not in text and "document.write" not in text
    assert not re.search(r"https?://(?!127\.0\.0\.1)", text.replace("http://www.w3.org/2000/svg", "")), "foreign origin"


def console_labels(language: str) -> dict[str, str]:
    """locales/<language>.js: `export default {JSON};` after its comment lines."""
    source = (CONSOLE_ROOT / "locales" / f"{language}.js").read_text()
    body = source[source.index("export default ") + len("export default "):].rstrip().removesuffix(";")
    return json.loads(body)


def test_the_label_files_have_the_same_keys_and_placeholders():
    """One file per language; a label in one is in the other, naming the same {placeholders}."""
    spanish, english = console_labels("es"), console_labels("en")
    assert spanish and set(spanish) ^ set(english) == set()

    def placeholders(text):
        return set(re.findall(r"\{(\w+)\}", text))

    assert {key: (spanish[key], english[key]) for key in spanish
            if placeholders(spanish[key]) != placeholders(english[key])} == {}
    assert not any("addStrings" in path.read_text() for path in CONSOLE_ROOT.rglob("*.js"))  # one place only


def test_every_label_the_console_names_is_in_both_languages():
    """A literal t("key") the catalogue lacks shows a made-up English form of the key in Spanish
    mode (the home page's bank table once read "Bank name" and "Name")."""
    used: dict[str, set[str]] = {}
    for path in sorted(CONSOLE_ROOT.glob("*.js")) + sorted(CONSOLE_ROOT.glob("pages/*.js")):
        source = re.sub(r"^\s*//.*$", "", path.read_text(), flags=re.M)  # not the comments' examples
        for key in re.findall(r'\bt\("([^"]+)"', source):
            used.setdefault(key, set()).add(path.name)
    spanish = console_labels("es")
    assert used and {key: files for key, files in used.items() if key not in spanish} == {}
