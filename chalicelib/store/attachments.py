"""S3 for attachments (issue 44), beside store/files.py (whose client it shares): the attachments
bucket (ATTACHMENTS_BUCKET), versioned and kept for the tax records' years. The API never carries a
file: a browser PUTs it to a presigned URL that signs its Content-Type and Content-Length (S3 refuses
another type or size) and GETs it from another that names the download."""
from __future__ import annotations

from functools import lru_cache
from typing import Any

from botocore.exceptions import ClientError

from chalicelib.settings import get_settings
from chalicelib.store.files import make_s3_client


class AttachmentObjects:
    def __init__(self, client: Any, bucket: str) -> None:
        self.client, self.bucket = client, bucket

    def upload_url(self, key: str, content_type: str, size: int, expires_in_s: int) -> str:
        """A PUT of exactly this type and length: both are signed headers."""
        url: str = self.client.generate_presigned_url(
            "put_object", Params={"Bucket": self.bucket, "Key": key, "ContentType": content_type,
                                  "ContentLength": size}, ExpiresIn=expires_in_s, HttpMethod="PUT")
        return url

    def upload_prefix(self) -> str:
        """Where every presigned address of this bucket points (path-style: the endpoint, then the
        bucket): a CSP source that admits this bucket and no other."""
        return f"{self.client.meta.endpoint_url}/{self.bucket}/"

    def download_url(self, key: str, content_type: str, disposition: str, expires_in_s: int) -> str:
        url: str = self.client.generate_presigned_url(
            "get_object", Params={"Bucket": self.bucket, "Key": key, "ResponseContentType": content_type,
                                  "ResponseContentDisposition": disposition}, ExpiresIn=expires_in_s)
        return url

    def uploaded_size(self, key: str) -> int | None:
        """The object's length once uploaded, else None (not yet, or deleted)."""
        try:
            return int(self.client.head_object(Bucket=self.bucket, Key=key)["ContentLength"])
        except ClientError as error:
            if error.response.get("Error", {}).get("Code") in ("404", "NoSuchKey", "NotFound"):
                return None
            raise

    def delete(self, key: str) -> None:
        """Versioned: the object is gone (404) and its bytes stay a noncurrent version until the
        bucket's lifecycle expires them (10 years)."""
        self.client.delete_object(Bucket=self.bucket, Key=key)


@lru_cache(maxsize=1)
def get_attachment_objects() -> AttachmentObjects:
    bucket = get_settings().attachments_bucket
    if not bucket:
        raise RuntimeError("ATTACHMENTS_BUCKET is not set")
    return AttachmentObjects(make_s3_client(), bucket)


def reset_attachment_objects() -> None:
    get_attachment_objects.cache_clear()
