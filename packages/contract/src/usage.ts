/** How full a license (or all of them) is: 'full' at the limit, 'near' when close to it. */
export type UsageLevel = 'normal' | 'near' | 'full';

/**
 * 'full' when every slot is taken; 'near' from 80 % of the slots, or when a single slot is left on
 * a license of 3 nodes or more (the next machine takes the last one). The Licenses page and the
 * dashboard both colour by this, so the same usage never reads as a warning on one and not the other.
 */
export function usageLevel(activeNodes: number, maxNodes: number): UsageLevel {
  if (activeNodes >= maxNodes) return 'full';
  if (activeNodes >= maxNodes * 0.8 || (maxNodes >= 3 && maxNodes - activeNodes === 1)) return 'near';
  return 'normal';
}

/**
 * Colour of a usage bar by meaning: the accent while there is room (2 of 3 nodes is normal use, not
 * a warning), yellow at the limit (no further machine can be activated), never red (nothing failed).
 */
export const USAGE_COLOR: Record<UsageLevel, string | undefined> = { normal: undefined, near: undefined, full: 'yellow' };
