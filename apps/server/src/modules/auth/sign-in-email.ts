/**
 * The sign-in e-mail's job: the `sign-in` template (modules/email/templates.ts) renders it in the
 * brand's layout when the outbox sends it. Its subject, link line and texts are pinned by tests.
 */
export function signInEmail(p: { url: string; minutes: number }) {
  return { template: 'sign-in' as const, data: { url: p.url, minutes: p.minutes } };
}
