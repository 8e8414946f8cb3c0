/** The server bundle `npm start` runs: apps/server/dist/server.mjs. */
export const SERVER_BUNDLE: string;
/** True when the bundle is missing or older than a source file. */
export function serverBundleStale(): boolean;
/** Bundles apps/server/src/server.ts (and the contract) with esbuild. */
export function buildServer(): Promise<void>;
