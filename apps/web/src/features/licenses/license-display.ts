import { plural, type ValidateResponse, formatDate } from '@portal/contract';
import type { Tone } from '@portal/ui';

export interface ValidationExplanation {
  /** A short heading, e.g. 'Valid'. */
  title: string;
  /** The answer in one or two sentences. */
  text: string;
  tone: Tone;
}

/** The answer of POST /validate in words, for people (the node software reads the codes). */
export function explainValidation(
  answer: ValidateResponse,
  { fingerprint, locale }: { fingerprint?: string; locale?: string } = {},
): ValidationExplanation {
  const l = answer.license;
  const fp = answer.node?.fingerprint ?? fingerprint;
  const thisNode = fp ? `node ${fp}` : 'this fingerprint';
  const usage = l ? `${l.activeNodes} of ${plural(l.maxNodes, 'node')} in use` : '';
  const expires = l ? formatDate(l.expiresAt, locale) : '';
  switch (answer.code) {
    case 'VALID':
      return {
        title: 'Valid',
        text: fp
          ? `This license is valid and node ${fp} is activated on it: ${usage}, expires on ${expires}.`
          : `This license is valid: ${usage}, expires on ${expires}.`,
        tone: 'ok',
      };
    case 'EXPIRED':
      return {
        title: 'Expired',
        text: `This license expired on ${expires}, so no node may run on it. Renew the subscription in Billing to use it again.`,
        tone: 'danger',
      };
    case 'SUSPENDED':
      return {
        title: 'Suspended',
        text: 'This license is suspended, so no node may run on it. Contact support if you think this is a mistake.',
        tone: 'neutral',
      };
    case 'NOT_ACTIVATED': {
      const free = l ? l.maxNodes - l.activeNodes : 0;
      return {
        title: 'Not activated',
        text: `The license is valid, but ${thisNode} is not activated on it yet. ${free === 1 ? 'Activating it would take the last free node' : `Activating it would take one of the ${free} free nodes`} (${usage}).`,
        tone: 'warn',
      };
    }
    case 'NODE_LIMIT_REACHED':
      return {
        title: 'Node limit reached',
        text: `${thisNode[0]!.toUpperCase()}${thisNode.slice(1)} is not activated, and all ${plural(l?.maxNodes ?? 0, 'node')} of this license are in use. Release a node you no longer use, or raise the subscription quantity in Billing.`,
        tone: 'danger',
      };
    case 'NOT_FOUND':
      return { title: 'Not found', text: 'No license has this key. Check the key and try again.', tone: 'danger' };
  }
}

/** Mantine colour of each tone. */
export const TONE_COLOR: Record<Tone, string> = { ok: 'green', warn: 'yellow', danger: 'red', neutral: 'gray' };

/** The shell command a machine runs to activate itself (its machine id as the fingerprint). */
export function activateCommand(origin: string, licenseKey: string): string {
  return [
    `curl -sS -X POST ${origin}/api/licenses/${licenseKey}/activate \\`,
    `  -H 'content-type: application/json' \\`,
    `  -d "{\\"fingerprint\\":\\"$(cat /etc/machine-id)\\",\\"hostname\\":\\"$(hostname)\\"}"`,
  ].join('\n');
}

/** The shell command a machine runs to check its license (a fresh nonce guards against replays). */
export function validateCommand(origin: string, licenseKey: string): string {
  return [
    `curl -sS -X POST ${origin}/api/licenses/${licenseKey}/validate \\`,
    `  -H 'content-type: application/json' \\`,
    `  -d "{\\"fingerprint\\":\\"$(cat /etc/machine-id)\\",\\"nonce\\":\\"$(openssl rand -hex 16)\\"}"`,
  ].join('\n');
}

export const NODES_PAGE_SIZE = 10;
