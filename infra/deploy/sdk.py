"""`make sdk`: typed clients generated from the OpenAPI document as the app builds it (no server).

    python -m infra.deploy.sdk [OUTPUT]    # default build/sdk

writes OUTPUT/openapi.json; OUTPUT/python, a Python client (openapi-python-client, which must
take the whole document without a warning); and, where Node.js is installed, OUTPUT/typescript:
the types of openapi-typescript and, compiled against them with tsc, every JSON body README.md
sends (npx fetches both tools from the npm registry)."""
from __future__ import annotations

import json
import os
import re
import shlex
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any, Iterator

ROOT = Path(__file__).resolve().parents[2]
PACKAGE = "business_api_client"
OPENAPI_TYPESCRIPT = "openapi-typescript@7"
TYPESCRIPT = "typescript@5"
PYTHON_CLIENT_CONFIG: dict[str, Any] = {
    "project_name_override": "business-api-client",
    "package_name_override": PACKAGE,
    # the print routes' PDF comes back as a File (bytes) instead of being left out
    "content_type_overrides": {"application/pdf": "application/octet-stream"},
}


def write_document(path: Path) -> dict[str, Any]:
    import app  # noqa: F401  (registers the routes the document describes)
    from chalicelib import jsoncodec
    from chalicelib.api.openapi import build_document

    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(jsoncodec.dumps(build_document()))
    return json.loads(path.read_text())


def generate_python_client(document: Path, output: Path, *, formatted: bool = True) -> str:
    """openapi-python-client's output; CalledProcessError (with it) on any warning. Unformatted
    (no ruff run over the code) takes a second instead of several."""
    config = {**PYTHON_CLIENT_CONFIG, **({} if formatted else {"post_hooks": []})}
    with tempfile.TemporaryDirectory() as scratch:
        config_path = Path(scratch) / "openapi-python-client.json"
        config_path.write_text(json.dumps(config))
        # the post hooks run ruff, which sits beside this interpreter
        env = {**os.environ, "PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ.get('PATH', '')}"}
        finished = subprocess.run(
            [sys.executable, "-m", "openapi_python_client", "generate", "--path", str(document),
             "--output-path", str(output), "--config", str(config_path), "--meta", "setup",
             "--overwrite", "--fail-on-warning"],
            capture_output=True, text=True, env=env)
    if finished.returncode:
        raise subprocess.CalledProcessError(finished.returncode, finished.args, finished.stdout, finished.stderr)
    return finished.stdout + finished.stderr


def readme_requests(text: str) -> Iterator[tuple[str, str, Any]]:
    """(method, path, JSON body) of each curl in the README's shell blocks that sends an object;
    shell variables (ids the walkthrough looked up) read as 1."""
    for block in re.findall(r"```sh\n(.*?)```", text, re.S):
        for command in _shell_commands(block):
            try:
                words = shlex.split(command, comments=True)
            except ValueError:
                continue
            curl = next((i for i, word in enumerate(words) if word.endswith("curl")), None)
            if curl is None or "-d" not in words:
                continue
            words = [re.sub(r"\$(?!BASE\b)[A-Z_]+", "1", word) for word in words[curl:]]
            method = words[words.index("-X") + 1] if "-X" in words else "POST"
            url = next((word for word in words if word.startswith("$BASE/")), None)  # not the stand-ins'
            body = words[words.index("-d") + 1]
            try:
                parsed = json.loads(body)
            except ValueError:
                continue
            if url and isinstance(parsed, dict) and parsed:
                yield method, url[len("$BASE"):].split("?")[0], parsed


def _shell_commands(block: str) -> Iterator[str]:
    """The block's commands: lines joined while a quote is open or a line ends with a backslash."""
    pending = ""
    for line in block.splitlines():
        pending = f"{pending}\n{line}" if pending else line
        if pending.endswith("\\"):
            pending = pending[:-1]
            continue
        try:
            shlex.split(pending, comments=True)
        except ValueError:  # a quote still open
            continue
        yield pending
        pending = ""


def route_template(path: str, templates: list[str]) -> str:
    """The document's path a concrete one falls under, literal segments first (/documents/ledger
    before /documents/{id})."""
    segments = path.strip("/").split("/")

    def fits(template: str) -> bool:
        parts = template.strip("/").split("/")
        return len(parts) == len(segments) and all(
            part == segment or part.startswith("{") for part, segment in zip(parts, segments, strict=True))

    matches = [template for template in templates if fits(template)]
    if not matches:
        raise LookupError(f"no route of the document takes {path}")
    return min(matches, key=lambda template: template.count("{"))


def check_typescript(document: Path, output: Path, readme: Path) -> int:
    """Types by openapi-typescript (default settings) and the README's bodies compiled against
    them: how many bodies were checked."""
    output.mkdir(parents=True, exist_ok=True)
    subprocess.run(["npx", "-y", OPENAPI_TYPESCRIPT, str(document), "-o", str(output / "api.d.ts")],
                   check=True, capture_output=True, text=True)
    templates = list(json.loads(document.read_text())["paths"])
    lines = ['import type { paths } from "./api";', "",
             "type JsonBody<Operation> = Operation extends { requestBody?: infer Body }",
             '    ? NonNullable<Body> extends { content: { "application/json": infer Json } } ? Json : never',
             "    : never;", ""]
    requests = list(readme_requests(readme.read_text()))
    for number, (method, path, body) in enumerate(requests, start=1):
        template = route_template(path, templates)
        lines.append(f"// {method} {path}")
        lines.append(f'export const body{number}: JsonBody<paths["{template}"]["{method.lower()}"]> = '
                     f"{json.dumps(body, ensure_ascii=False)};")
    (output / "readme-bodies.ts").write_text("\n".join(lines) + "\n")
    subprocess.run(["npx", "-y", "-p", TYPESCRIPT, "tsc", "--noEmit", "--strict", "--target", "es2020",
                    str(output / "readme-bodies.ts")], check=True, capture_output=True, text=True)
    return len(requests)


def main(output: Path) -> None:
    document = output / "openapi.json"
    write_document(document)
    print(f"{document}")
    try:
        generate_python_client(document, output / "python")
    except subprocess.CalledProcessError as failure:
        sys.exit(f"openapi-python-client did not take the whole document:\n{failure.stdout}{failure.stderr}")
    print(f"{output / 'python'}: the Python client ({PACKAGE}), no warning")
    if shutil.which("npx") is None:
        print("TypeScript: skipped (no Node.js)")
        return
    try:
        checked = check_typescript(document, output / "typescript", ROOT / "README.md")
    except subprocess.CalledProcessError as failure:
        sys.exit(f"{' '.join(failure.cmd)} failed:\n{failure.stdout}{failure.stderr}")
    print(f"{output / 'typescript'}: openapi-typescript's types; README's {checked} request bodies compile against them")


if __name__ == "__main__":
    main(Path(sys.argv[1]) if len(sys.argv) > 1 else ROOT / "build" / "sdk")
