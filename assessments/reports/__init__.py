"""The Initial Review Engineering Report (IRER): context, HTML and PDF."""
