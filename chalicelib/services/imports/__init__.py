"""Moving a business in and out (issue 41): import jobs from CSV/XLSX templates (partners, products,
chart, opening balances, open items, opening stock, a whole company's archive) and the company's
export. Imports nothing itself: kinds.py is the interface every kind implements."""
