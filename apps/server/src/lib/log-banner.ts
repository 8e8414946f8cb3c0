import path from 'node:path';
import type { Config } from '../config';

/** A folder as a person at the terminal would type it: relative when it is below the working folder. */
const shown = (dir: string) => {
  const relative = path.relative(process.cwd(), dir);
  return relative && !relative.startsWith('..') && !path.isAbsolute(relative) ? `./${relative}` : dir;
};

/**
 * What a person who just ran `npm start` in a terminal needs first: where the portal is, where its
 * e-mail (and so the sign-in link) goes, and how to pay on the local billing engine.
 */
export function startBanner(config: Config, startedInMs: number, colors: boolean, consoleUrl?: string): string {
  const bold = (t: string) => (colors ? `\x1b[1m${t}\x1b[0m` : t);
  const rows: [string, string][] = [
    [
      'Database',
      config.databaseUrl
        ? `PostgreSQL (${new URL(config.databaseUrl).host})`
        : `PGlite in ${shown(path.join(config.dataDir, 'db'))}`,
    ],
    [
      'E-mail',
      config.smtpUrl
        ? `sent over SMTP (${new URL(config.smtpUrl).host})`
        : `written to ${shown(path.join(config.dataDir, 'outbox'))}; sign-in links also appear below`,
    ],
    [
      'Console',
      consoleUrl
        ? `${consoleUrl} for the vendor's staff (npm run admin -- staff add --email … --role owner)`
        : 'off (CONSOLE_PORT=0)',
    ],
    ['Billing', config.stripe ? 'Stripe' : 'local engine: test card 4242 4242 4242 4242, any future expiry, any CVC'],
    ['Stop', 'Ctrl-C'],
  ];
  return [
    '',
    `  ${bold(`Portal ready at ${config.publicUrl}`)} (started in ${startedInMs} ms)`,
    '',
    ...rows.map(([name, value]) => `  ${name.padEnd(10)}${value}`),
    '',
    '',
  ].join('\n');
}
