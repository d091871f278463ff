"""The only module that talks to S3: the private files bucket (FILES_BUCKET) where uploaded imports
and company exports lie until its lifecycle expires them (infra/deploy/resources.json: 7 days)."""
from __future__ import annotations

from functools import lru_cache
from typing import Any

import boto3
from botocore.config import Config
from botocore.exceptions import ClientError

from chalicelib.settings import get_settings


class FileMissing(Exception):
    """No object under that key (expired by the bucket's lifecycle, or never written)."""


class Files:
    def __init__(self, client: Any, bucket: str) -> None:
        self.client, self.bucket = client, bucket

    def put(self, key: str, body: bytes, content_type: str = "application/octet-stream") -> None:
        self.client.put_object(Bucket=self.bucket, Key=key, Body=body, ContentType=content_type,
                               ServerSideEncryption="AES256")

    def get(self, key: str) -> bytes:
        try:
            content: bytes = self.client.get_object(Bucket=self.bucket, Key=key)["Body"].read()
            return content
        except ClientError as error:
            if error.response.get("Error", {}).get("Code") in ("NoSuchKey", "404"):
                raise FileMissing(key) from error
            raise

    def delete(self, key: str) -> None:
        self.client.delete_object(Bucket=self.bucket, Key=key)

    def presigned_url(self, key: str, expires_in_s: int, download_name: str | None = None) -> str:
        """A link that downloads the object, without credentials, for `expires_in_s` seconds."""
        params: dict[str, Any] = {"Bucket": self.bucket, "Key": key}
        if download_name:
            params["ResponseContentDisposition"] = f'attachment; filename="{download_name}"'
        url: str = self.client.generate_presigned_url("get_object", Params=params, ExpiresIn=expires_in_s)
        return url


def make_s3_client() -> Any:
    """Like store/table.py's clients (region, AWS_ENDPOINT_URL for moto), with path-style addresses:
    a local endpoint (http://127.0.0.1:port) has no bucket subdomains."""
    settings = get_settings()
    return boto3.client("s3", region_name=settings.region, endpoint_url=settings.aws_endpoint_url,
                        config=Config(retries={"max_attempts": 4, "mode": "standard"}, connect_timeout=3,
                                      read_timeout=30, s3={"addressing_style": "path"}, signature_version="s3v4"))


@lru_cache(maxsize=1)
def get_files() -> Files:
    bucket = get_settings().files_bucket
    if not bucket:
        raise RuntimeError("FILES_BUCKET is not set")
    return Files(make_s3_client(), bucket)


def reset_files() -> None:
    get_files.cache_clear()
