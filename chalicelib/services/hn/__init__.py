"""Honduras: the SAR sales and purchase books of a period.
(Fiscal numbering, shared by both countries, is in sales_purchases.)"""
