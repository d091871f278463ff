"""What each tag of the OpenAPI document groups (every route's `tag` needs an entry here)."""

TAG_DESCRIPTIONS = {
    "Web session": "Log in and out, invitations, passwords and the session's company (the web console's cookie)",
    "Company": "Companies: settings, fiscal data, El Salvador's DTE signing key and authority credentials",
    "Settings: users": "The company's users, their roles and invitations (web session only)",
    "Settings: API keys": "API keys for integrations (web session only; a key never manages keys)",
    "Business partners": "Customers and suppliers, their credit limits and search",
    "Products": "Goods and services with their price, cost and ISV/IVA rate",
    "Chart of accounts": "The chart of accounts and the standard charts of Honduras and El Salvador",
    "Determination rules": "Which account each operation posts to",
    "Journal entries": "Manual and automatic journal entries, the general ledger and the trial balance",
    "Accounting periods": "Accounting periods and fiscal years: closing and reopening",
    "Tax settlements": "Settling a period's ISV/IVA (input credit against output tax, the rest paid from a bank "
                       "account) and the withholdings made: the tax accounts' only way out",
    "Exchange rates": "Rates of foreign currencies per day, for documents and payments in them",
    "Fiscal numbering": "Branches, emission points and CAI ranges (Honduras' authorized numbering)",
    "Documents": "Sales and purchase documents of every type: drafts, confirmation, cancellation, notes",
    "Payment conditions and methods": "Payment conditions (due dates) and methods (cash, bank)",
    "Payments": "Payments of documents, credit notes and withholdings applied, advances",
    "Payment gateways": "Card gateways, payment links and the gateways' signed notifications",
    "Banking": "Bank accounts, deposits, withdrawals, transfers and reconciliations",
    "Credits": "Customers' and suppliers' balances, statements and movements",
    "Inventory": "Warehouses, stock, movements, adjustments and transfers at weighted average cost",
    "Reports": "Financial statements, aging, tax books (ISV, IVA) and inventory valuation; CSV, XLSX or PDF too",
    "Printing and sending": "Printed documents and entries (PDF) and documents e-mailed",
    "Scheduled invoices": "Recurring invoices made by the hourly job",
    "Webhooks": "Signed event deliveries to the company's endpoints, with retries and history",
    "Imports": "Moving a business in: import jobs from CSV or XLSX templates (or a company archive), every row checked "
               "before any is written",
    "Bank statements": "Bank statements imported (CSV, XLSX, OFX, CAMT.053, MT940), their lines matched to the "
                       "books with suggestions, bank rules, and reconciliation against the statement",
    "Attachments": "The papers behind a document, journal entry or bank statement line (scanned invoices, receipts, "
                   "XML): uploaded and downloaded through presigned links, deleted only while the record is a draft",
    "Cost centres": "Dimensions (branch, project, department...) and their values, which journal and document "
                    "lines carry and the income statement and trial balance filter and group by",
    "Budgets": "Monthly budgets per account and cost centre, several a year (scenarios); budget against actual is "
               "among the reports",
    "Revaluations": "Month-end revaluation of foreign-currency receivables, payables and bank balances (NIIF para "
                    "PYMES 30.9): the unrealised difference posted on the day and reversed the next",
    "Meta": "This document",
}
