"""A real OpenID Connect provider on the loopback interface for the sign-in tests: panva's
oidc-provider (npm, OpenID Certified), run by Node from tests/oidc/provider/ (scripts/test.sh
installs it with ``npm ci``). Without Node the tests skip locally and fail under CI, as the
browser tests do without Chromium.

The provider signs with a key these tests make (``Provider.signing_key``), so a test can also
forge what an attacker would send; it knows two clients of the application: ``pmn-review``,
which authenticates by ``private_key_jwt`` (the provider refuses it any other way), and
``pmn-basic`` (``client_secret_basic``). Its people and their groups are a file read at each
look-up (``Provider.account``), so a test moves a person between groups as a directory would.

``sign_in_http`` goes through the whole flow with the Django test client on the application's
side and plain HTTP on the provider's (its own sign-in form), no browser needed.
"""

from __future__ import annotations

import json
import shutil
import socket
import subprocess
import time
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import urljoin, urlsplit

import pytest
import requests
from joserfc.jwk import RSAKey

from signin import oidc
from tests.browser.conftest import in_ci

HERE = Path(__file__).parent / "provider"
NODE = shutil.which("node")
CLIENT_ID = "pmn-review"
BASIC_CLIENT_ID = "pmn-basic"
BASIC_SECRET = "basic-secret-for-tests-only-0123456789"
PASSWORD = "provider-pw-for-tests"
APPLICATION = "http://testserver"
PIV_ACR = "http://idmanagement.gov/ns/assurance/aal/3?hspd12=true"
PASSWORD_ACR = "http://idmanagement.gov/ns/assurance/aal/1"

#: The people at the provider: their groups give the roles the settings below map.
PEOPLE = {
    "rita": {"name": "Rita Reviewer", "groups": ["pmn-reviewers"]},
    "sam": {"name": "Sam Supervisor", "groups": ["pmn-supervisors", "pmn-cbi"]},
    "cleo": {"name": "Cleo Cleared", "groups": ["pmn-reviewers", "pmn-cbi"]},
    "uma": {"name": "Uma Uncleared", "groups": ["pmn-reviewers"]},
    "ada": {"name": "Ada Administrator", "groups": ["pmn-administrators"]},
    "nobody": {"name": "No Role", "groups": ["other-program"]},
}


def require_node() -> None:
    if NODE and (HERE / "node_modules" / "oidc-provider").is_dir():
        return
    reason = "Node.js or tests/oidc/provider/node_modules is missing (scripts/test.sh runs npm ci there)"
    if in_ci():
        pytest.fail(f"{reason}: CI must run the sign-in tests", pytrace=False)
    pytest.skip(reason)


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@dataclass
class Provider:
    issuer: str
    port: int
    folder: Path
    signing_key: RSAKey
    client_key: RSAKey
    accounts_file: Path
    redirect_bases: list[str]
    process: subprocess.Popen | None = None
    people: dict = field(default_factory=dict)

    def account(self, login: str, **changes: object) -> None:
        """Change a person at the provider (their groups, their assurance level)."""
        self.people[login]["claims"].update({k: v for k, v in changes.items() if k != "acr"})
        if "acr" in changes:
            self.people[login]["acr"] = changes["acr"]
        self._write_accounts()

    def _write_accounts(self) -> None:
        self.accounts_file.write_text(json.dumps(self.people))

    def start(self, *, signing_key: RSAKey | None = None) -> None:
        """Start (or restart, with another signing key: the provider's keys rotated)."""
        self.stop()
        if signing_key is not None:
            self.signing_key = signing_key
        redirects = [urljoin(base, "/accounts/sso/callback/") for base in self.redirect_bases]
        after_logout = [urljoin(base, "/accounts/login/") for base in self.redirect_bases]
        common = {"redirect_uris": redirects, "post_logout_redirect_uris": after_logout,
                  "grant_types": ["authorization_code", "refresh_token"], "response_types": ["code"]}
        config = {
            "issuer": self.issuer, "port": self.port, "accounts": str(self.accounts_file),
            "jwks": {"keys": [self.signing_key.as_dict(private=True)]},
            "acr_values": [PIV_ACR, PASSWORD_ACR],
            "clients": [
                {"client_id": CLIENT_ID, "token_endpoint_auth_method": "private_key_jwt",
                 "jwks": {"keys": [self.client_key.as_dict(private=False)]}, **common},
                {"client_id": BASIC_CLIENT_ID, "client_secret": BASIC_SECRET,
                 "token_endpoint_auth_method": "client_secret_basic", **common},
            ],
        }
        config_file = self.folder / "provider.json"
        config_file.write_text(json.dumps(config))
        self.process = subprocess.Popen([NODE or "node", str(HERE / "provider.mjs"), str(config_file)],
                                        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        # Node 20 draws a warning ("Unsupported runtime") before the provider listens.
        said = []
        while self.process.stdout and not (said and "listening on" in said[-1]):
            line = self.process.stdout.readline()
            if not line:
                self.process.kill()
                raise RuntimeError("The OpenID Connect provider did not start: " + "".join(said))
            said.append(line)

    def stop(self) -> None:
        if self.process is not None:
            self.process.terminate()
            self.process.wait(timeout=10)
            self.process = None


def make_key(kid: str) -> RSAKey:
    return RSAKey.generate_key(2048, parameters={"kid": kid, "use": "sig", "alg": "RS256"})


@pytest.fixture(scope="session")
def oidc_provider(tmp_path_factory, live_server):
    """The provider, for this test process (each xdist worker has its own, on its own port)."""
    require_node()
    folder = tmp_path_factory.mktemp("oidc")
    port = _free_port()
    provider = Provider(
        issuer=f"http://127.0.0.1:{port}", port=port, folder=folder, signing_key=make_key("provider-1"),
        client_key=make_key("client-1"), accounts_file=folder / "accounts.json",
        redirect_bases=[APPLICATION, live_server.url],
    )
    provider.people = {login: {"password": PASSWORD, "acr": PIV_ACR, "claims": {**person, "email": f"{login}@agency.example"}}
                       for login, person in PEOPLE.items()}
    provider._write_accounts()
    provider.start()
    oidc.forget_provider()
    yield provider
    provider.stop()


@pytest.fixture
def provider(oidc_provider, settings, db):
    """The provider, with the application's settings pointing at it (private_key_jwt) and the
    people reset to ``PEOPLE``."""
    key_file = oidc_provider.folder / "client-key.json"
    key_file.write_text(json.dumps(oidc_provider.client_key.as_dict(private=True)))
    settings.OIDC_ISSUER = oidc_provider.issuer
    settings.OIDC_CLIENT_ID = CLIENT_ID
    settings.OIDC_CLIENT_AUTH = "private_key_jwt"
    settings.OIDC_PRIVATE_KEY_FILE = str(key_file)
    settings.OIDC_PRIVATE_KEY_ID = "client-1"
    settings.OIDC_SCOPES = "openid profile email groups"
    settings.OIDC_GROUPS_CLAIM = "groups"
    settings.OIDC_REVIEWER_GROUPS = "pmn-reviewers"
    settings.OIDC_SUPERVISOR_GROUPS = "pmn-supervisors"
    settings.OIDC_ADMINISTRATOR_GROUPS = "pmn-administrators"
    settings.OIDC_CBI_GROUPS = "pmn-cbi"
    settings.OIDC_REQUIRED_ACR = ""
    settings.OIDC_PROVIDER_NAME = "Agency sign-in"
    for login, person in PEOPLE.items():
        oidc_provider.people[login] = {"password": PASSWORD, "acr": PIV_ACR,
                                       "claims": {**json.loads(json.dumps(person)), "email": f"{login}@agency.example"}}
    oidc_provider._write_accounts()
    oidc.forget_provider()
    yield oidc_provider
    oidc.forget_provider()


def provider_sign_in(authorize_url: str, login: str, *, password: str = PASSWORD) -> str:
    """Sign in at the provider's own form, by plain HTTP, from its authorization URL: the
    address it sends the browser back to (the application's callback, with code and state)."""
    browser = requests.Session()
    response = browser.get(authorize_url, allow_redirects=False, timeout=10)
    for _ in range(10):
        location = response.headers.get("Location", "")
        if response.status_code in (302, 303) and location:
            target = urljoin(response.url, location)
            if not target.startswith(urljoin(authorize_url, "/")):
                return target  # back to the application
            response = browser.get(target, allow_redirects=False, timeout=10)
            continue
        if response.status_code == 200 and "/login" in response.text:
            action = response.text.split('action="', 1)[1].split('"', 1)[0]
            response = browser.post(urljoin(response.url, action), data={"login": login, "password": password},
                                    allow_redirects=False, timeout=10)
            continue
        raise AssertionError(f"Unexpected answer from the provider: {response.status_code} {response.text[:300]}")
    raise AssertionError("The provider kept redirecting")


def sign_in_http(client, login: str, *, next_url: str = "") -> tuple[object, str]:
    """Sign ``login`` in to the application through the provider: the callback's response and
    the callback address (to replay)."""
    start = client.get("/accounts/sso/start/" + (f"?next={next_url}" if next_url else ""))
    assert start.status_code == 302, start
    callback = provider_sign_in(start["Location"], login)
    parts = urlsplit(callback)
    return client.get(f"{parts.path}?{parts.query}"), f"{parts.path}?{parts.query}"


def wait_for(condition, timeout: float = 5.0) -> None:
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if condition():
            return
        time.sleep(0.05)
    raise AssertionError("condition not met")

