"""Honduras' use cases: the ISV sales and purchase books of a period and a month's ISV summary."""
