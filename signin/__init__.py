"""Sign-in as a federal deployment needs it (docs/sign-in.md): single sign-on with an OpenID
Connect provider (the agency's, or Login.gov), PIV at a TLS proxy that verifies client
certificates, and local accounts for the quick start and for named break-glass
administrators. Roles and CBI clearance come from the provider's group claims and are
renewed while the person is signed in."""
