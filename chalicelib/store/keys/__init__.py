"""Every key of the single table is built here. Company-scoped keys start with C#{companyId}#
(or are exactly C#{companyId}) so that no query can cross companies by construction. One module
per part of the service; callers use them all as `keys.<name>`."""
from chalicelib.store.keys.access import *  # noqa: F403
from chalicelib.store.keys.accounting import *  # noqa: F403
from chalicelib.store.keys.attachments import *  # noqa: F403
from chalicelib.store.keys.banking import *  # noqa: F403
from chalicelib.store.keys.base import *  # noqa: F403
from chalicelib.store.keys.budgets import *  # noqa: F403
from chalicelib.store.keys.dimensions import *  # noqa: F403
from chalicelib.store.keys.documents import *  # noqa: F403
from chalicelib.store.keys.gateways import *  # noqa: F403
from chalicelib.store.keys.imports import *  # noqa: F403
from chalicelib.store.keys.outbound import *  # noqa: F403
from chalicelib.store.keys.revaluations import *  # noqa: F403
from chalicelib.store.keys.scheduled import *  # noqa: F403
from chalicelib.store.keys.statements import *  # noqa: F403
