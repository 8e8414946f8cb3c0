/** The server bundle `npm start` runs: apps/server/dist/server.mjs, or $SERVER_BUNDLE when set. */
export const SERVER_BUNDLE: string;
/** True when the bundle is missing or older than a source file. */
export function serverBundleStale(): boolean;
/** Bundles apps/server/src/server.ts (and the contract) with esbuild, to `outfile` (default SERVER_BUNDLE). */
export function buildServer(outfile?: string): Promise<void>;
