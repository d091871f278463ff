"""Who may do what: users, companies and memberships, sessions and login limits, invitations, API keys
and the audit log of those changes."""
