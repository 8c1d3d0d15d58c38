// The OpenID Connect provider the sign-in tests run on the loopback interface: panva's
// oidc-provider (an OpenID Certified implementation), configured by the JSON file named on the
// command line (tests/oidc/conftest.py writes it):
//
//   { "issuer": "http://127.0.0.1:PORT", "port": PORT, "jwks": {"keys": [private JWKs]},
//     "clients": [client metadata], "accounts": "path of the accounts file",
//     "id_token_ttl": seconds }
//
// The accounts file is read at each look-up, so a test changes a person's groups between two
// sign-ins or refreshes, as an agency's directory would:
//
//   { "ACCOUNT-ID": {"password": "...", "acr": "...", "claims": {"name": ..., "email": ...,
//     "groups": [...]}} }
//
// The sign-in page is this file's own (a login and a password, no consent: the review
// application is the agency's first-party client); everything else is the provider's.
// Printed on standard output once listening: "listening on ISSUER".

import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';

import Provider from 'oidc-provider';

const config = JSON.parse(readFileSync(process.argv[2], 'utf8'));
const accounts = () => JSON.parse(readFileSync(config.accounts, 'utf8'));
const escape = (text) => String(text).replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

const provider = new Provider(config.issuer, {
  clients: config.clients,
  jwks: config.jwks,
  clientAuthMethods: ['client_secret_basic', 'private_key_jwt'],
  pkce: { required: () => true },
  scopes: ['openid', 'profile', 'email', 'groups', 'offline_access'],
  claims: {
    openid: ['sub'],
    profile: ['name'],
    email: ['email', 'email_verified'],
    groups: ['groups'],
  },
  acrValues: config.acr_values || [],
  ttl: { IdToken: config.id_token_ttl || 3600 },
  features: {
    devInteractions: { enabled: false },
    rpInitiatedLogout: { enabled: true },
  },
  // A refresh token for every client allowed the grant (the application renews the person's
  // roles with it), without asking the person for offline access.
  issueRefreshToken: async (ctx, client) => client.grantTypeAllowed('refresh_token'),
  async findAccount(ctx, id) {
    const account = accounts()[id];
    if (!account) return undefined;
    return {
      accountId: id,
      async claims() {
        return { sub: id, ...account.claims };
      },
    };
  },
  // First-party: every scope and claim the client asks for is granted without a consent page.
  async loadExistingGrant(ctx) {
    const grantId = ctx.oidc.result?.consent?.grantId || ctx.oidc.session.grantIdFor(ctx.oidc.client.clientId);
    if (grantId) return ctx.oidc.provider.Grant.find(grantId);
    const grant = new ctx.oidc.provider.Grant({ clientId: ctx.oidc.client.clientId, accountId: ctx.oidc.session.accountId });
    grant.addOIDCScope(ctx.oidc.requestParamScopes ? [...ctx.oidc.requestParamScopes].join(' ') : 'openid');
    await grant.save();
    return grant;
  },
  interactions: { url: (ctx, interaction) => `/interaction/${interaction.uid}` },
});
provider.proxy = false;

const page = (uid, error) => `<!doctype html><html lang="en"><head><meta charset="utf-8">
<title>Agency sign-in</title></head><body><main><h1>Agency sign-in</h1>
${error ? `<p role="alert">${escape(error)}</p>` : ''}
<form method="post" action="/interaction/${escape(uid)}/login">
<label for="login">User name</label> <input id="login" name="login" autocomplete="username">
<label for="password">Password</label> <input id="password" name="password" type="password" autocomplete="current-password">
<button type="submit">Sign in</button></form></main></body></html>`;

const body = (req) => new Promise((resolve) => {
  let data = '';
  req.on('data', (chunk) => { data += chunk; });
  req.on('end', () => resolve(new URLSearchParams(data)));
});

const callback = provider.callback();
const server = createServer(async (req, res) => {
  const match = req.url.match(/^\/interaction\/([^/?]+)(\/login)?/);
  if (!match) return callback(req, res);
  try {
    const details = await provider.interactionDetails(req, res);
    if (req.method === 'POST' && match[2]) {
      const form = await body(req);
      const login = form.get('login') || '';
      const account = accounts()[login];
      if (!account || account.password !== form.get('password')) {
        res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' });
        return res.end(page(details.uid, 'Unknown user name or wrong password.'));
      }
      return provider.interactionFinished(req, res, { login: { accountId: login, acr: account.acr } },
        { mergeWithLastSubmission: false });
    }
    if (details.prompt.name === 'login') {
      res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' });
      return res.end(page(details.uid));
    }
    // The consent prompt: granted by loadExistingGrant above.
    return provider.interactionFinished(req, res, { consent: {} }, { mergeWithLastSubmission: true });
  } catch (error) {
    res.writeHead(400, { 'Content-Type': 'text/plain; charset=utf-8' });
    return res.end(`Sign-in failed: ${error.message}`);
  }
});
server.listen(config.port, '127.0.0.1', () => {
  process.stdout.write(`listening on ${config.issuer}\n`);
});
