"""El Salvador's pure rules and data: the DTE types and results, the authority's JSON formats with their
published schemas and catalogues, the IVA books."""
