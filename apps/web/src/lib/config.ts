/**
 * Build-time settings of the web app, read from `import.meta.env` once. Everything else the app
 * needs to know about the vendor (brand name, documentation URL, sign-in options) comes from
 * GET /api/config at run time, so one build serves every deployment.
 */
import { parseAccent, type Accent } from '@portal/ui';

export interface WebConfig {
  /** PostHog project key; analytics go to a local no-op sink when absent. */
  posthogKey: string | null;
  posthogHost: string;
  /** The one brand accent colour of the theme. */
  accent: Accent;
}

function text(value: unknown): string | null {
  return typeof value === 'string' && value.trim() !== '' ? value.trim() : null;
}

export function parseConfig(env: Record<string, unknown>): WebConfig {
  const accent = parseAccent(text(env.VITE_ACCENT_COLOR));
  const host = text(env.VITE_POSTHOG_HOST) ?? 'https://us.i.posthog.com';
  if (!/^https?:\/\//.test(host)) throw new Error(`VITE_POSTHOG_HOST must be an http(s) URL (got "${host}")`);
  return { posthogKey: text(env.VITE_POSTHOG_KEY), posthogHost: host, accent };
}

export const config: WebConfig = parseConfig(import.meta.env);
