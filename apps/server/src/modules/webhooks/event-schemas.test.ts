import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { WEBHOOK_EVENT_TYPES, webhookEventJsonSchema } from '@portal/contract';

/**
 * docs/webhooks/schemas/ holds the JSON Schema of every event of the catalogue, made from the
 * contract's zod schemas: this test fails when they differ (`UPDATE_WEBHOOK_SCHEMAS=1` rewrites them).
 */
const DIR = path.resolve(import.meta.dirname, '../../../../../docs/webhooks/schemas');

describe('the published JSON Schemas of the events', () => {
  it('are the contract schemas, one file per event type and no other', () => {
    for (const type of WEBHOOK_EVENT_TYPES) {
      const file = path.join(DIR, `${type}.json`);
      const schema = `${JSON.stringify(webhookEventJsonSchema(type), null, 2)}\n`;
      if (process.env.UPDATE_WEBHOOK_SCHEMAS === '1') writeFileSync(file, schema);
      expect(readFileSync(file, 'utf8'), type).toBe(schema);
    }
    expect(readdirSync(DIR).sort()).toEqual(WEBHOOK_EVENT_TYPES.map((t) => `${t}.json`).sort());
  });
});
