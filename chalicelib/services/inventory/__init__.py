"""Goods: warehouses, stock per product and warehouse, stock moves valued at average cost, adjustments,
transfers and the inventory valuation at a date."""
