import { generateKeyPairSync } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
// @ts-expect-error -- oidc-provider ships no type declarations; the few calls used are typed below.
import Provider from 'oidc-provider';

/** A person at the test identity provider; `email_verified` is what the provider vouches for. */
export type TestAccount = {
  sub: string;
  email: string;
  email_verified: boolean;
  given_name?: string;
  family_name?: string;
  picture?: string;
};

type Interaction = { uid: string; prompt: { name: string }; params: Record<string, string | undefined> };
type OidcProvider = {
  callback(): (req: IncomingMessage, res: ServerResponse) => void;
  interactionDetails(req: IncomingMessage, res: ServerResponse): Promise<Interaction>;
  interactionFinished(
    req: IncomingMessage,
    res: ServerResponse,
    result: Record<string, unknown>,
    opts?: { mergeWithLastSubmission?: boolean },
  ): Promise<void>;
  Grant: new (init: { accountId: string; clientId: string }) => { addOIDCScope(scope: string): void; save(): Promise<string> };
};

export const TEST_CLIENT_ID = 'test-client';
export const TEST_CLIENT_SECRET = 'test-secret';
export const TEST_REDIRECT_URI = 'http://localhost:3000/api/auth/google/callback';
/** The console's callback (CONSOLE_PUBLIC_URL's default + its path), registered beside the portal's. */
export const TEST_CONSOLE_REDIRECT_URI = 'http://localhost:3001/api/console/auth/google/callback';

/** Choosing this `login_hint` makes the person cancel at the provider (access_denied). */
export const DENY_HINT = 'deny';

/**
 * A real OpenID Connect provider (oidc-provider) on 127.0.0.1 with an ephemeral port. There is no
 * login page: the interaction signs in the account named by the authorization request's
 * `login_hint` (the test plays the person choosing an account) and grants the requested scopes.
 */
export async function startOidcProvider() {
  const accounts = new Map<string, TestAccount>();
  const requests: string[] = [];
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  const provider = new Provider(issuer, {
    clients: [
      {
        client_id: TEST_CLIENT_ID,
        client_secret: TEST_CLIENT_SECRET,
        redirect_uris: [TEST_REDIRECT_URI, TEST_CONSOLE_REDIRECT_URI],
        grant_types: ['authorization_code'],
        response_types: ['code'],
        // openid-client's default client authentication, as with Google.
        token_endpoint_auth_method: 'client_secret_post',
      },
    ],
    pkce: { required: () => true },
    features: { devInteractions: { enabled: false } },
    claims: {
      openid: ['sub'],
      email: ['email', 'email_verified'],
      profile: ['given_name', 'family_name', 'picture'],
    },
    // Google puts the scopes' claims into the ID token; so does this provider.
    conformIdTokenClaims: false,
    cookies: { keys: ['oidc-test-cookie-key'] },
    // RS256 like Google, and our own key so the provider does not fall back to its development keys.
    jwks: {
      keys: [
        { ...generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({ format: 'jwk' }), alg: 'RS256', use: 'sig' },
      ],
    },
    ttl: { AccessToken: 600, AuthorizationCode: 60, IdToken: 600, Interaction: 600, Session: 600, Grant: 600 },
    interactions: { url: (_ctx: unknown, interaction: { uid: string }) => `/interaction/${interaction.uid}` },
    async findAccount(_ctx: unknown, sub: string) {
      const account = accounts.get(sub);
      if (!account) return undefined;
      return { accountId: sub, claims: async () => ({ ...accounts.get(sub) }) };
    },
  }) as OidcProvider;

  const handle = provider.callback();
  server.on('request', (req: IncomingMessage, res: ServerResponse) => {
    requests.push(`${req.method} ${req.url?.split('?')[0]}`);
    if (!req.url?.startsWith('/interaction/')) return handle(req, res);
    void interact(req, res).catch((err: unknown) => {
      res.statusCode = 500;
      res.end(String(err));
    });
  });

  async function interact(req: IncomingMessage, res: ServerResponse) {
    const details = await provider.interactionDetails(req, res);
    const hint = details.params.login_hint;
    if (hint === DENY_HINT) {
      return provider.interactionFinished(
        req,
        res,
        { error: 'access_denied', error_description: 'The person cancelled' },
        { mergeWithLastSubmission: false },
      );
    }
    if (!hint || !accounts.has(hint)) throw new Error(`no test account for login_hint ${hint}`);
    const grant = new provider.Grant({ accountId: hint, clientId: String(details.params.client_id) });
    grant.addOIDCScope(String(details.params.scope));
    const grantId = await grant.save();
    await provider.interactionFinished(
      req,
      res,
      { login: { accountId: hint }, consent: { grantId } },
      { mergeWithLastSubmission: false },
    );
  }

  return {
    issuer,
    /** Every request the provider received, as `METHOD /path`. */
    requests,
    /** Adds or replaces a person; keyed by `sub`, so changing the e-mail keeps the identity. */
    setAccount(account: TestAccount) {
      accounts.set(account.sub, account);
    },
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((err) => (err ? reject(err) : resolve()));
      }),
  };
}
export type TestOidcProvider = Awaited<ReturnType<typeof startOidcProvider>>;

/** A tiny cookie jar for following the provider's redirects with plain fetch. */
export function cookieJar() {
  const cookies = new Map<string, string>();
  return {
    store(res: Response) {
      for (const line of res.headers.getSetCookie()) {
        const [pair] = line.split(';');
        const eq = pair!.indexOf('=');
        const name = pair!.slice(0, eq).trim();
        const value = pair!.slice(eq + 1).trim();
        if (value === '' || /expires=Thu, 01 Jan 1970/i.test(line)) cookies.delete(name);
        else cookies.set(name, value);
      }
    },
    header: () => [...cookies].map(([k, v]) => `${k}=${v}`).join('; '),
  };
}

/**
 * Plays the browser at the provider: opens the authorization URL as the person `loginHint`, follows
 * every redirect while carrying the provider's cookies, and answers the URL the provider finally
 * sends the browser to (our callback, with code and state or an error).
 */
export async function authorizeAtProvider(authorizationUrl: string, loginHint: string): Promise<URL> {
  const jar = cookieJar();
  let url = new URL(authorizationUrl);
  url.searchParams.set('login_hint', loginHint);
  for (let hop = 0; hop < 10; hop++) {
    const res = await fetch(url, { redirect: 'manual', headers: { cookie: jar.header() } });
    jar.store(res);
    const location = res.headers.get('location');
    if (res.status < 300 || res.status >= 400 || !location) {
      throw new Error(`the provider answered ${res.status} at ${url.pathname}: ${(await res.text()).slice(0, 500)}`);
    }
    const next = new URL(location, url);
    if ([TEST_REDIRECT_URI, TEST_CONSOLE_REDIRECT_URI].some((uri) => next.href.startsWith(uri))) return next;
    url = next;
  }
  throw new Error('too many redirects at the provider');
}
