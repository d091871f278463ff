"""Honduras' pure rules: SAR's numbering codes and the ISV books' rows (no store, no HTTP)."""
