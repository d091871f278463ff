import uuid
from tests.browser.conftest import fresh_company
from tests.browser.reports_support import today
from tests.browser.test_month_end_journey import budget_against_actual, entry
from tests.browser.test_year_close_journey import account_ids


def test_scratch(console, demo, stack):
    with fresh_company(console, demo, f"Scratch {uuid.uuid4().hex[:6]}"):
        accounts = account_ids(console)
        day = today().isoformat()
        entry(console, day, [(accounts["110101"], "debit", 1000, None), (accounts["410101"], "credit", 1000, None)])
        entry(console, day, [(accounts["6104"], "debit", 150, None), (accounts["110101"], "credit", 150, None)])
        budget_against_actual(console, accounts)
