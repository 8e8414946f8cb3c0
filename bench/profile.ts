// Summarizes V8 CPU profiles (node --cpu-prof) by self time: where a server's time goes.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

type ProfileNode = { id: number; callFrame: { functionName: string; url: string; lineNumber: number }; hitCount?: number };
type Profile = { nodes: ProfileNode[]; samples: number[] };

/** Where a frame belongs: a package, node's internals, the portal's file, or V8's own work. */
function placeOf(url: string, name: string): string {
  if (!url) return name.startsWith('(') ? name : `(native) ${name}`;
  const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (pkg) return pkg[1]!;
  if (url.startsWith('node:')) return url;
  const rel = url.replace(/^file:\/\//, '');
  return path.basename(rel);
}

/** Top lines by self time over every profile in `dir`, as shares of busy time: "12.3% place functionName" (and per place). */
export function summarizeProfile(dir: string, top = 20): string[] {
  const byFunction = new Map<string, number>();
  const byPlace = new Map<string, number>();
  let total = 0;
  for (const file of readdirSync(dir).filter((f) => f.endsWith('.cpuprofile'))) {
    const p = JSON.parse(readFileSync(path.join(dir, file), 'utf8')) as Profile;
    const hits = new Map<number, number>();
    for (const s of p.samples) hits.set(s, (hits.get(s) ?? 0) + 1);
    for (const n of p.nodes) {
      const h = hits.get(n.id) ?? n.hitCount ?? 0;
      // Shares of the time the process was busy: waiting is not where time goes.
      if (!h || n.callFrame.functionName === '(idle)') continue;
      const place = placeOf(n.callFrame.url, n.callFrame.functionName);
      const fn = `${place} ${n.callFrame.functionName || '(anonymous)'}`;
      byFunction.set(fn, (byFunction.get(fn) ?? 0) + h);
      byPlace.set(place, (byPlace.get(place) ?? 0) + h);
      total += h;
    }
  }
  const pct = (n: number) => `${((100 * n) / total).toFixed(1)}%`;
  const sorted = (m: Map<string, number>) => [...m].sort((a, b) => b[1] - a[1]).slice(0, top);
  return [
    'by place:',
    ...sorted(byPlace).map(([k, v]) => `${pct(v)} ${k}`),
    'by function:',
    ...sorted(byFunction).map(([k, v]) => `${pct(v)} ${k}`),
  ];
}
