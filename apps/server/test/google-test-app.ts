import { buildTestApp } from './helpers';
import { startOidcProvider, TEST_CLIENT_ID, TEST_CLIENT_SECRET } from './oidc-provider';

/** The real application with Google sign-in configured against a real local OpenID provider. */
export async function buildGoogleTestApp(sessionSecret: string) {
  const op = await startOidcProvider();
  try {
    const t = await buildTestApp({
      GOOGLE_CLIENT_ID: TEST_CLIENT_ID,
      GOOGLE_CLIENT_SECRET: TEST_CLIENT_SECRET,
      OIDC_ISSUER: op.issuer,
      SESSION_SECRET: sessionSecret,
    });
    return {
      op,
      t,
      async close() {
        await t.close();
        await op.close();
      },
    };
  } catch (err) {
    await op.close();
    throw err;
  }
}

export type GoogleTestApp = Awaited<ReturnType<typeof buildGoogleTestApp>>;
