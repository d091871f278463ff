from typing import Annotated, Any, Dict, List, Literal, Optional

from pydantic import Field, StringConstraints

from chalicelib.models.base import ListEnvelope, MailAddress, Name, RequestModel, ResponseModel

Role = Literal["owner", "admin", "accountant", "seller", "viewer"]
# checked as typed: a password's spaces are part of it
Password = Annotated[str, StringConstraints(min_length=1, max_length=200, strip_whitespace=False)]


class UserInvite(RequestModel):
    email: MailAddress
    name: Name
    role: Role = Field(description="An administrator cannot invite an owner.")


class UserUpdate(RequestModel):
    role: Role = None  # type: ignore[assignment]
    is_active: bool = Field(  # type: ignore[assignment]
        None, description="false ends the user's sessions and API keys in this company at once")
    version: Optional[int] = Field(None, ge=1, description="Or send the header If-Match: <version>.")


class CompanyUser(ResponseModel):
    id: int
    email: str
    name: str
    role: str
    is_active: bool
    status: Literal["invited", "active", "inactive"]
    last_login_at: Optional[str] = None
    invited_at: Optional[str] = None
    invited_by_user_id: Optional[int] = None
    version: int


class CompanyUserList(ResponseModel):
    users: List[CompanyUser]
    total: int


class UserInvited(CompanyUser):
    invitation_expires_at: str
    invitation_email_sent: Optional[bool] = Field(
        description="false: the invitation exists but SES did not take the e-mail (resend it); "
                    "null in an Idempotency-Key replay.")


class AcceptInvitationRequest(RequestModel):
    token: Annotated[str, StringConstraints(min_length=1, max_length=200)]
    password: Password = Field(description="A new user's first password (8 to 200 characters); a user who "
                                           "already has an account types its current password.")
    name: Optional[Name] = Field(None, description="A new user's name (default: the name of the invitation).")


class PasswordChangeRequest(RequestModel):
    current_password: Password
    new_password: Password = Field(description="8 to 200 characters. The user's other sessions end.")


class PasswordChanged(ResponseModel):
    password_changed: bool


class AuditEntry(ResponseModel):
    id: str
    occurred_at: str
    actor_user_id: int
    actor_email: Optional[str] = None
    action: str = Field(description="user.invited, invitation.resent, invitation.accepted, user.updated, "
                                    "user.removed, password.changed, api_key.created, api_key.revoked")
    target_type: str
    target_id: str
    target_email: Optional[str] = None
    changes: Optional[Dict[str, Any]] = None


class AuditLog(ListEnvelope):
    entries: List[AuditEntry]
