"""Export everything (issue 41): the company archive's job."""
from typing import Dict, Literal, Optional

from pydantic import Field

from chalicelib.models.base import ResponseModel


class CompanyExport(ResponseModel):
    id: int
    status: Literal["pending", "running", "done", "failed"]
    download_url: Optional[str] = Field(description="a presigned link to the ZIP, valid for one hour, once `done`; "
                                                    "each GET makes a new one")
    created_at: str
    finished_at: Optional[str] = None
    counts: Optional[Dict[str, int]] = Field(default=None, description="items in the archive: `items` in all, and "
                                                                       "per family (DOC, ACCT, BP, ...)")
