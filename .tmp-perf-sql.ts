import pg from 'pg';
import { drizzle } from 'drizzle-orm/node-postgres';
import { customerPageRepository } from './apps/server/src/console/customer-page.repository';
import { searchAll } from './apps/server/src/console/search.repository';
const client = new pg.Client({ connectionString: 'postgres://postgres@127.0.0.1:5432/portal_bench' });
await client.connect();
const logged: string[] = [];
const db = drizzle(client, { logger: { logQuery: (q, p) => logged.push(`${q} -- ${JSON.stringify(p)}`) } });
for (const id of ['02df1ead-f617-4d92-98fe-abe3ca93146b', (await client.query("select id from users where email='user5001@bench.example'")).rows[0].id]) {
  let t = performance.now(); const rows = await customerPageRepository.nodes(db as never, id, 200); console.log('nodes', rows.length, (performance.now() - t).toFixed(1), 'ms');
}
for (const q of ['user5001@bench.example', 'pve', 'node-93440-2.bench.example', 'an']) {
  const t = performance.now(); const a = await searchAll(db as never, q); console.log(q, a.items.length, a.more, (performance.now() - t).toFixed(1), 'ms');
}
console.log(logged.join('\n\n'));
await client.end();
