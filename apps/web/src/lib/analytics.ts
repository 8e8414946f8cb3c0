import { companyGroupFor } from '@portal/contract';
import type { PostHog } from 'posthog-js';
import { config } from './config';

/**
 * Usage analytics. With VITE_POSTHOG_KEY set the calls go to PostHog, loaded on first use so
 * that it never weighs on the sign-in page; without it they go to a local no-op sink that logs
 * with console.debug and records every call on `window.__analytics` for browser tests.
 */
export type AnalyticsProps = Record<string, string | number | boolean | null | undefined>;

export type AnalyticsCall =
  | { type: 'identify'; distinctId: string; properties: AnalyticsProps }
  | { type: 'group'; groupType: string; groupKey: string }
  | { type: 'capture'; event: string; properties: AnalyticsProps };

declare global {
  interface Window {
    __analytics?: AnalyticsCall[];
  }
}

export interface AnalyticsSink {
  send(call: AnalyticsCall): void;
  reset(): void;
}

export function createNoopSink(): AnalyticsSink {
  return {
    send(call) {
      console.debug('[analytics]', call);
      (window.__analytics ??= []).push(call);
    },
    reset() {
      console.debug('[analytics] reset');
    },
  };
}

export function createPosthogSink(key: string, host: string): AnalyticsSink {
  let client: PostHog | null = null;
  const queue: Array<(ph: PostHog) => void> = [];
  const run = (fn: (ph: PostHog) => void) => (client ? fn(client) : queue.push(fn));

  import('posthog-js')
    .then(({ default: posthog }) => {
      // Page views are sent by the router (one per route change), not by PostHog's own hook.
      posthog.init(key, { api_host: host, capture_pageview: false, persistence: 'localStorage+cookie' });
      client = posthog;
      queue.splice(0).forEach((fn) => fn(posthog));
    })
    .catch((err: unknown) => console.warn('[analytics] PostHog could not be loaded', err));

  return {
    send(call) {
      run((ph) => {
        if (call.type === 'identify') ph.identify(call.distinctId, call.properties);
        else if (call.type === 'group') ph.group(call.groupType, call.groupKey);
        else ph.capture(call.event, call.properties);
      });
    },
    reset() {
      run((ph) => ph.reset());
    },
  };
}

let sink: AnalyticsSink | null = null;

function currentSink(): AnalyticsSink {
  sink ??= config.posthogKey ? createPosthogSink(config.posthogKey, config.posthogHost) : createNoopSink();
  return sink;
}

/** Replace the sink (tests). */
export function setAnalyticsSink(next: AnalyticsSink | null): void {
  sink = next;
}

/** Records an event, e.g. track('subscription_changed', { type: 'quantity', ... }). */
export function track(event: string, props: AnalyticsProps = {}): void {
  currentSink().send({ type: 'capture', event, properties: props });
}

export function trackPageView(path: string): void {
  track('$pageview', { path, $current_url: window.location.href });
}

/**
 * Identifies the signed-in user by e-mail with { email, fname, lname, onboarded }, and groups
 * them under 'company' by their e-mail domain unless it is one of the free-mail providers
 * (docs/decisions: a free-mail domain says nothing about the employer).
 */
export function identifyUser(user: { email: string; fname: string; lname: string; onboarded: boolean }): void {
  const s = currentSink();
  s.send({
    type: 'identify',
    distinctId: user.email,
    properties: { email: user.email, fname: user.fname, lname: user.lname, onboarded: user.onboarded },
  });
  const company = companyGroupFor(user.email);
  if (company) s.send({ type: 'group', groupType: 'company', groupKey: company });
}

/** Forget the identified user (sign-out). */
export function resetAnalytics(): void {
  currentSink().reset();
}
