"""Sales and purchase documents from draft to confirmed and reversed: their content, goods, partner side,
fiscal numbers, search, printing and schedules; the partners and products they name and what partners owe."""
