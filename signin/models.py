"""Who a person is at an identity provider: the provider's issuer and the stable subject it
gives them (OpenID Connect's ``iss`` and ``sub``; for PIV at the proxy, the certificate's
subject). A person is linked by these alone, never by an e-mail address: an address can be
reassigned, a subject cannot."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils import timezone

#: The issuer recorded for an identity from a client certificate verified by the TLS proxy.
PIV_ISSUER = "piv:proxy"


class Identity(models.Model):
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="identities")
    issuer = models.CharField(max_length=255, help_text="The identity provider's issuer URL, or piv:proxy.")
    subject = models.CharField(
        max_length=255, help_text="The provider's stable identifier of the person (sub), or the certificate's subject."
    )
    created_at = models.DateTimeField(default=timezone.now)
    last_sign_in = models.DateTimeField(null=True, blank=True)

    class Meta:
        verbose_name_plural = "identities"
        constraints = [models.UniqueConstraint(fields=["issuer", "subject"], name="signin_identity_unique")]

    def __str__(self) -> str:
        return f"{self.subject} at {self.issuer}"
