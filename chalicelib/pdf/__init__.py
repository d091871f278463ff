"""Report templates: the catalog (catalog.py, no PDF library needed to list it) and the
renderers (invoice, ticket, journal entry) that turn stored records into PDF bytes with fpdf2.
Rendering is pure: the services load the records and pass them in."""
