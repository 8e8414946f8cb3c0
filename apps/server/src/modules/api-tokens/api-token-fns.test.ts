import { describe, expect, it } from 'vitest';
import { ROUTE_SCOPES, routeKey, scopeOf } from '../../plugins/token-scopes';
import { bearerOf, expiryOf, hintOf, isTokenSecret, isUsable, newTokenSecret, useToRecord } from './api-token-fns';

const at = (iso: string) => new Date(iso);

describe('secrets', () => {
  it('start with pat_ and carry 256 random bits; the hint shows 4 of them', () => {
    const a = newTokenSecret();
    expect(a).toMatch(/^pat_[A-Za-z0-9_-]{43}$/);
    expect(isTokenSecret(a)).toBe(true);
    expect(newTokenSecret()).not.toBe(a);
    expect(hintOf(a)).toBe(a.slice(0, 8));
    for (const bad of [
      '',
      'pat_',
      `pat_${'a'.repeat(42)}`,
      `pat_${'a'.repeat(44)}`,
      `tap_${'a'.repeat(43)}`,
      `pat_${'a'.repeat(42)}=`,
    ]) {
      expect(isTokenSecret(bad), bad).toBe(false);
    }
  });
});

describe('bearerOf', () => {
  it('reads the Bearer scheme in any letter case, and nothing else', () => {
    expect(bearerOf(undefined)).toBeNull();
    expect(bearerOf('Basic Zm9v')).toBeNull();
    expect(bearerOf('Bearer pat_x')).toEqual({ secret: 'pat_x' });
    expect(bearerOf('bearer   pat_x  ')).toEqual({ secret: 'pat_x' });
    expect(bearerOf('BEARER')).toEqual({ secret: '' });
    expect(bearerOf('Bearerpat_x')).toBeNull();
  });
});

describe('useToRecord', () => {
  it('writes nothing within a minute, the minute within the hour, an activity entry for a new hour', () => {
    expect(useToRecord(null, at('2026-01-01T10:00:00Z'))).toBe('hour');
    expect(useToRecord(at('2026-01-01T10:05:00Z'), at('2026-01-01T10:05:59Z'))).toBe('nothing');
    expect(useToRecord(at('2026-01-01T10:05:00Z'), at('2026-01-01T10:06:00Z'))).toBe('minute');
    expect(useToRecord(at('2026-01-01T10:59:00Z'), at('2026-01-01T11:00:00Z'))).toBe('hour');
  });
});

describe('expiry', () => {
  it('adds whole days, or none', () => {
    expect(expiryOf(at('2026-01-01T00:00:00Z'), 30)).toEqual(at('2026-01-31T00:00:00Z'));
    expect(expiryOf(at('2026-01-01T00:00:00Z'), null)).toBeNull();
  });
  it('is usable until the expiry and until revoked', () => {
    const now = at('2026-01-01T00:00:00Z');
    expect(isUsable({ revokedAt: null, expiresAt: null }, now)).toBe(true);
    expect(isUsable({ revokedAt: null, expiresAt: at('2026-01-01T00:00:01Z') }, now)).toBe(true);
    expect(isUsable({ revokedAt: null, expiresAt: now }, now)).toBe(false);
    expect(isUsable({ revokedAt: now, expiresAt: null }, now)).toBe(false);
  });
});

describe('the scope table', () => {
  it('reads Fastify paths, HEAD as GET, with or without the trailing slash', () => {
    expect(routeKey('HEAD', '/api/licenses/:licenseKey/nodes')).toBe('GET /api/licenses/{licenseKey}/nodes');
    expect(scopeOf('GET', '/api/licenses/')).toBe('licenses:read');
    expect(scopeOf('GET', '/api/licenses')).toBe('licenses:read');
    expect(scopeOf('HEAD', '/api/downloads/iso')).toBe('downloads:read');
    expect(scopeOf('DELETE', '/api/licenses/:licenseKey/nodes/:id')).toBe('nodes:write');
    expect(scopeOf('GET', '/api/billing/methods/')).toBeUndefined();
    expect(scopeOf('DELETE', '/api/users/')).toBeUndefined();
    expect(scopeOf('GET', '/api/users/tokens')).toBeUndefined();
  });
  it('opens reads only, but for releasing a node; never cards, the account or tokens', () => {
    for (const [key, scope] of Object.entries(ROUTE_SCOPES)) {
      if (scope === 'nodes:write') expect(key).toBe('DELETE /api/licenses/{licenseKey}/nodes/{id}');
      else expect(key.startsWith('GET ')).toBe(true);
      expect(key).not.toMatch(/methods|intents|\/users\//);
    }
  });
});
