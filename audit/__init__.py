"""Who logged in, out, or failed to, from where: the authentication audit trail, and the
rules around a login's life (lockout page, session lifetime, the client's address)."""
