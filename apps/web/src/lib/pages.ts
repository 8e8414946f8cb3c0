/**
 * The signed-in pages: their path and the title a page sets in `menu.activePage`, which is
 * also the label of its side-menu entry. Shared by the menu (app) and the pages (features).
 */
export const PAGES = {
  home: { title: 'Home', path: '/app/dashboard' },
  licenses: { title: 'Licenses', path: '/app/licenses' },
  accessControl: { title: 'Access Control', path: '/app/access-control' },
  support: { title: 'Support', path: '/app/support' },
  downloadIso: { title: 'Download ISO', path: '/app/download-iso' },
  billing: { title: 'Billing', path: '/app/billing' },
  profile: { title: 'Profile', path: '/app/profile' },
} as const;

export type PageKey = keyof typeof PAGES;

/**
 * The title of the signed-in page at `pathname` (a trailing slash aside), or '' for any other
 * address: what that page will set in `menu.activePage` once it renders.
 */
export function pageTitleAt(pathname: string): string {
  const path = pathname.replace(/\/+$/, '');
  return Object.values(PAGES).find((p) => p.path === path)?.title ?? '';
}
