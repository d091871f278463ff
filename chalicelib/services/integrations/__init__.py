"""The outside world calling in or being called: outbound webhooks and their HTTP delivery, payment
gateways and their payment links and signed notifications."""
