import type { ApiTokenScope, CreatedApiToken } from '@portal/contract';
import type { TestApp } from './helpers';

/** Creates a personal API token through the API with the session `cookie`; answers the created token. */
export async function createToken(
  t: TestApp,
  cookie: string,
  scopes: ApiTokenScope[],
  opts: { name?: string; expiresInDays?: 30 | 90 | 365 | null } = {},
): Promise<CreatedApiToken> {
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/users/tokens',
    headers: { cookie },
    payload: { name: opts.name ?? `token ${scopes.join(' ')}`, scopes, expiresInDays: opts.expiresInDays ?? null },
  });
  if (res.statusCode !== 201) throw new Error(`token creation failed: ${res.statusCode} ${res.body}`);
  return res.json<CreatedApiToken>();
}

export const bearer = (secret: string) => ({ authorization: `Bearer ${secret}` });
