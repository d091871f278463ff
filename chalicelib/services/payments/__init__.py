"""Settling documents: payments by method, credit note or withholding, advances and refunds, the payment
records they share, and the payment conditions and methods a company sets up."""
