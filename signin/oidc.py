"""The OpenID Connect relying party: the authorization code flow with PKCE (S256), the
client's authentication to the token endpoint (``private_key_jwt``, which Login.gov requires,
or ``client_secret_basic``), and every check the ID token needs before anyone is signed in.

Authlib makes the requests (its ``OAuth2Session``, with its ``PrivateKeyJWT`` client
authentication); joserfc verifies the token. What is checked here, in this order:

- the state returned is one this browser's session started, used once (a replayed or forged
  callback is refused);
- the ID token's signature, by a key of the provider's published key set, with an
  asymmetric algorithm the provider announces (never ``none`` or a shared secret); a key the
  set does not hold sends for the set again once, so the provider's keys rotate without a
  restart;
- its issuer is the configured provider's, its audience holds this client (and ``azp`` names
  it when there are several), it has not expired (60 s of clock skew allowed), and its nonce
  is this sign-in's;
- its assurance (``acr``) is one OIDC_REQUIRED_ACR accepts, when that is set;
- the userinfo answer, when the provider has the endpoint, is about the same subject.

The provider's discovery document is cached OIDC_METADATA_SECONDS; its issuer must be the
configured one.
"""

from __future__ import annotations

import logging
import secrets
import time
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlencode

import requests
from authlib.integrations.requests_client import OAuth2Session
from authlib.oauth2.rfc7523 import PrivateKeyJWT
from joserfc import jws, jwt
from joserfc.errors import JoseError
from joserfc.jwk import KeySet

from .config import PRIVATE_KEY_JWT, Oidc

logger = logging.getLogger("signin")

#: Signature algorithms accepted for an ID token: asymmetric ones only.
ALGORITHMS = ("RS256", "RS384", "RS512", "PS256", "PS384", "PS512", "ES256", "ES384", "ES512", "EdDSA")
LEEWAY_SECONDS = 60
#: How long a started sign-in waits for the provider's answer.
PENDING_SECONDS = 15 * 60
#: Sign-ins started in other tabs of the same browser, kept at most.
PENDING_MAX = 5
#: The provider's key set is fetched again for an unknown key id at most this often.
REFETCH_SECONDS = 60

# What the refusal page says (and the log, with the detail).
STATE_REFUSED = (
    "This sign-in was not started here, has already been used, or waited too long. Nothing was changed: "
    "please sign in again."
)
PROVIDER_ERROR = "{name} did not sign you in ({error}). Nothing was changed."
TOKEN_REFUSED = (
    "{name} refused this application's request for your sign-in ({error}). Nothing was changed; "
    "if it happens again, tell the administrator."
)
UNREACHABLE = "{name} could not be reached. Nothing was changed: please try again in a moment."
SIGNATURE_REFUSED = "The identity token failed its signature check. Nothing was changed: please sign in again."
ISSUER_REFUSED = (
    "The identity token was issued by {found}, not by the provider this application trusts. Nothing was changed."
)
AUDIENCE_REFUSED = "The identity token was issued to another application. Nothing was changed."
EXPIRED_REFUSED = "The identity token has expired. Nothing was changed: please sign in again."
NONCE_REFUSED = (
    "The identity token does not belong to this sign-in (its nonce differs): it may be a replayed token. "
    "Nothing was changed: please sign in again."
)
CLAIMS_REFUSED = "The identity token is not a valid OpenID Connect ID token ({detail}). Nothing was changed."
ACR_REFUSED = (
    "This application needs a sign-in at the assurance level {required}; this one was at {found}. "
    "Please sign in with your PIV card."
)
SUBJECT_REFUSED = "The provider's account details are about another person than the identity token. Nothing was changed."

SESSION_PENDING = "signin.pending"


class SignInRefused(Exception):
    """A sign-in refused: ``message`` is the page's, for the person."""

    def __init__(self, message: str, *, detail: str = "") -> None:
        super().__init__(message)
        self.message = message
        self.detail = detail or message


@dataclass(frozen=True)
class Metadata:
    issuer: str
    authorization_endpoint: str
    token_endpoint: str
    jwks_uri: str
    userinfo_endpoint: str
    end_session_endpoint: str
    algorithms: tuple[str, ...]


@dataclass(frozen=True)
class SignedIn:
    """A verified sign-in or renewal: the ID token's claims merged with userinfo's (the ID
    token's win), and the tokens to keep."""

    claims: dict[str, Any]
    id_token: str
    refresh_token: str

    @property
    def subject(self) -> str:
        return str(self.claims["sub"])


_metadata: dict[str, tuple[float, Metadata]] = {}
_keys: dict[str, tuple[float, KeySet]] = {}


def _get_json(config: Oidc, url: str) -> dict[str, Any]:
    try:
        response = requests.get(url, timeout=config.timeout)
        response.raise_for_status()
        document = response.json()
    except (requests.RequestException, ValueError) as error:
        logger.error("OpenID Connect provider %s: %s failed: %s", config.issuer, url, error)
        raise SignInRefused(UNREACHABLE.format(name=config.name), detail=f"{url}: {error}") from None
    if not isinstance(document, dict):
        raise SignInRefused(UNREACHABLE.format(name=config.name), detail=f"{url}: not a JSON object")
    return document


def metadata(config: Oidc, *, force: bool = False) -> Metadata:
    """The provider's discovery document (cached OIDC_METADATA_SECONDS)."""
    cached = _metadata.get(config.issuer)
    if cached and not force and time.monotonic() - cached[0] < config.metadata_seconds:
        return cached[1]
    document = _get_json(config, f"{config.issuer}/.well-known/openid-configuration")
    if str(document.get("issuer", "")).rstrip("/") != config.issuer:
        found = document.get("issuer")
        raise SignInRefused(ISSUER_REFUSED.format(found=found), detail=f"discovery names issuer {found!r}")
    algorithms = tuple(a for a in document.get("id_token_signing_alg_values_supported", ["RS256"]) if a in ALGORITHMS)
    found = Metadata(
        issuer=str(document["issuer"]),
        authorization_endpoint=str(document["authorization_endpoint"]),
        token_endpoint=str(document["token_endpoint"]),
        jwks_uri=str(document["jwks_uri"]),
        userinfo_endpoint=str(document.get("userinfo_endpoint", "")),
        end_session_endpoint=str(document.get("end_session_endpoint", "")),
        algorithms=algorithms or ("RS256",),
    )
    _metadata[config.issuer] = (time.monotonic(), found)
    return found


def keys(config: Oidc, *, force: bool = False) -> KeySet:
    """The provider's public keys, fetched again when ``force`` (a key id the set lacks), at
    most once every ``REFETCH_SECONDS``: tokens naming made-up key ids cannot make the
    application fetch the set at each request."""
    cached = _keys.get(config.issuer)
    stale = force and time.monotonic() - cached[0] >= REFETCH_SECONDS if cached else True
    if stale:
        found = KeySet.import_key_set(_get_json(config, metadata(config).jwks_uri))  # type: ignore[arg-type]
        _keys[config.issuer] = (time.monotonic(), found)
        return found
    return _keys[config.issuer][1]


def forget_provider() -> None:
    """Drop the cached discovery documents and keys (tests; a provider re-configured)."""
    _metadata.clear()
    _keys.clear()


def _session(config: Oidc, *, redirect_uri: str = "") -> OAuth2Session:
    method = config.client_auth
    client = OAuth2Session(
        config.client_id,
        client_secret=config.private_key if method == PRIVATE_KEY_JWT else config.client_secret,
        scope=" ".join(config.scopes),
        redirect_uri=redirect_uri or None,
        code_challenge_method="S256",
        token_endpoint_auth_method=method,
    )
    if method == PRIVATE_KEY_JWT:
        headers = {"kid": config.private_key_id} if config.private_key_id else None
        client.register_client_auth_method(PrivateKeyJWT(metadata(config).token_endpoint, headers=headers))
    return client


def begin(config: Oidc, session: Any, *, redirect_uri: str, next_url: str) -> str:
    """The provider's authorization URL for a new sign-in; its state, nonce and PKCE verifier
    are kept in the browser's session until the answer comes back (a few tabs at once)."""
    state, nonce = secrets.token_urlsafe(32), secrets.token_urlsafe(32)
    verifier = secrets.token_urlsafe(48)  # PKCE: Authlib sends its S256 challenge
    pending = {k: v for k, v in session.get(SESSION_PENDING, {}).items() if time.time() - v["at"] < PENDING_SECONDS}
    pending[state] = {"nonce": nonce, "verifier": verifier, "next": next_url, "at": time.time()}
    session[SESSION_PENDING] = dict(sorted(pending.items(), key=lambda item: item[1]["at"])[-PENDING_MAX:])
    extra: dict[str, str] = {"nonce": nonce}
    if config.acr_values:
        extra["acr_values"] = " ".join(config.acr_values)
    url, _ = _session(config, redirect_uri=redirect_uri).create_authorization_url(
        metadata(config).authorization_endpoint, state=state, code_verifier=verifier, **extra
    )
    return str(url)


def token_response(config: Oidc, *, redirect_uri: str, code: str, verifier: str) -> dict[str, Any]:
    """The token endpoint's answer to the authorization code (the client authenticated by its
    configured method)."""
    client = _session(config, redirect_uri=redirect_uri)
    return dict(client.fetch_token(metadata(config).token_endpoint, code=code, code_verifier=verifier,
                                   grant_type="authorization_code"))


def refresh_response(config: Oidc, *, refresh_token: str) -> dict[str, Any]:
    return dict(_session(config).refresh_token(metadata(config).token_endpoint, refresh_token=refresh_token))


def _token_call(config: Oidc, call: Any, **kwargs: Any) -> dict[str, Any]:
    try:
        answer: dict[str, Any] = call(config, **kwargs)
    except requests.RequestException as error:
        logger.error("OpenID Connect provider %s: token endpoint failed: %s", config.issuer, error)
        raise SignInRefused(UNREACHABLE.format(name=config.name), detail=str(error)) from None
    except Exception as error:  # Authlib's OAuthError (the provider's error answer), or a client-side fault
        error_name = getattr(error, "error", None) or type(error).__name__
        logger.error("OpenID Connect provider %s refused the token request: %s", config.issuer, error)
        raise SignInRefused(TOKEN_REFUSED.format(name=config.name, error=error_name), detail=str(error)) from None
    if "id_token" not in answer:
        raise SignInRefused(CLAIMS_REFUSED.format(detail="no id_token in the token response"))
    return answer


def verify_id_token(config: Oidc, id_token: str, *, nonce: str | None, now: float | None = None) -> dict[str, Any]:
    """The ID token's claims, once every check in this module's description has passed;
    ``SignInRefused`` naming the first that failed. ``nonce`` None (a renewal): none is
    expected."""
    known = metadata(config)
    try:
        header = jws.extract_compact(id_token.encode()).protected
    except (JoseError, ValueError):
        raise SignInRefused(SIGNATURE_REFUSED, detail="not a compact JWS") from None
    algorithm = header.get("alg")
    if algorithm not in known.algorithms:
        raise SignInRefused(SIGNATURE_REFUSED, detail=f"algorithm {algorithm!r} is not accepted")
    key_set = keys(config)
    kid = header.get("kid")
    if kid and kid not in {key.kid for key in key_set.keys}:
        key_set = keys(config, force=True)  # the provider's keys rotated
    try:
        token = jwt.decode(id_token, key_set, algorithms=list(known.algorithms))
    except (JoseError, ValueError) as error:
        raise SignInRefused(SIGNATURE_REFUSED, detail=str(error)) from None
    claims = dict(token.claims)
    issuer = str(claims.get("iss", ""))
    if issuer.rstrip("/") != config.issuer:
        raise SignInRefused(ISSUER_REFUSED.format(found=issuer or "no issuer"), detail=f"iss {issuer!r}")
    audience = claims.get("aud")
    audiences = audience if isinstance(audience, list) else [audience]
    if config.client_id not in audiences or (len(audiences) > 1 and claims.get("azp") != config.client_id):
        raise SignInRefused(AUDIENCE_REFUSED, detail=f"aud {audience!r}")
    now = time.time() if now is None else now
    for name in ("sub", "exp", "iat"):
        if name not in claims:
            raise SignInRefused(CLAIMS_REFUSED.format(detail=f"no {name}"))
    if not isinstance(claims["exp"], (int, float)) or claims["exp"] + LEEWAY_SECONDS < now:
        raise SignInRefused(EXPIRED_REFUSED, detail=f"exp {claims['exp']!r}, now {int(now)}")
    if nonce is not None and not secrets.compare_digest(str(claims.get("nonce", "")), nonce):
        raise SignInRefused(NONCE_REFUSED, detail="nonce differs")
    if config.required_acr and claims.get("acr") not in config.required_acr:
        raise SignInRefused(
            ACR_REFUSED.format(required=" or ".join(config.required_acr), found=claims.get("acr") or "no level stated"),
            detail=f"acr {claims.get('acr')!r}",
        )
    return claims


def _userinfo(config: Oidc, access_token: str, subject: str) -> dict[str, Any]:
    endpoint = metadata(config).userinfo_endpoint
    if not endpoint or not access_token:
        return {}
    try:
        response = requests.get(endpoint, headers={"Authorization": f"Bearer {access_token}"}, timeout=config.timeout)
        response.raise_for_status()
        info = response.json()
    except (requests.RequestException, ValueError) as error:
        raise SignInRefused(UNREACHABLE.format(name=config.name), detail=f"userinfo: {error}") from None
    if not isinstance(info, dict) or str(info.get("sub")) != subject:
        raise SignInRefused(SUBJECT_REFUSED, detail=f"userinfo sub {info.get('sub') if isinstance(info, dict) else info!r}")
    return info


def finish(config: Oidc, session: Any, params: Any, *, redirect_uri: str) -> tuple[SignedIn, str]:
    """The provider's answer (the callback's query ``params``) verified: the sign-in and the
    page to go on to. The state is used up whatever happens next."""
    pending = dict(session.get(SESSION_PENDING, {}))
    started = pending.pop(str(params.get("state", "")), None)
    session[SESSION_PENDING] = pending
    if started is None or time.time() - started["at"] > PENDING_SECONDS:
        raise SignInRefused(STATE_REFUSED, detail="unknown, used or stale state")
    if params.get("error"):
        error = str(params.get("error_description") or params.get("error"))[:200]
        raise SignInRefused(PROVIDER_ERROR.format(name=config.name, error=error))
    code = str(params.get("code", ""))
    if not code:
        raise SignInRefused(CLAIMS_REFUSED.format(detail="no authorization code"))
    answer = _token_call(config, token_response, redirect_uri=redirect_uri, code=code, verifier=started["verifier"])
    claims = verify_id_token(config, answer["id_token"], nonce=started["nonce"])
    info = _userinfo(config, str(answer.get("access_token", "")), str(claims["sub"]))
    return SignedIn({**info, **claims}, answer["id_token"], str(answer.get("refresh_token", ""))), started["next"]


def renew(config: Oidc, *, refresh_token: str, subject: str) -> SignedIn:
    """The person's claims now, by the refresh token: the provider's current groups."""
    answer = _token_call(config, refresh_response, refresh_token=refresh_token)
    claims = verify_id_token(config, answer["id_token"], nonce=None)
    if str(claims["sub"]) != subject:
        raise SignInRefused(SUBJECT_REFUSED, detail=f"renewed sub {claims['sub']!r}, expected {subject!r}")
    info = _userinfo(config, str(answer.get("access_token", "")), subject)
    return SignedIn({**info, **claims}, answer["id_token"], str(answer.get("refresh_token") or refresh_token))


def end_session_url(config: Oidc, *, id_token: str, post_logout_redirect_uri: str) -> str:
    """The provider's RP-initiated logout address, or "" when it has none (or it is off)."""
    if not config.provider_logout:
        return ""
    try:
        endpoint = metadata(config).end_session_endpoint
    except SignInRefused:
        return ""
    if not endpoint:
        return ""
    query = {"client_id": config.client_id, "post_logout_redirect_uri": post_logout_redirect_uri}
    if id_token:
        query["id_token_hint"] = id_token
    return f"{endpoint}{'&' if '?' in endpoint else '?'}{urlencode(query)}"
