/**
 * After a successful subscription change the whole page reloads (ADR 015), so
 * every figure on it (license size, renewal date, invoices) comes fresh from the server.
 * An object of its own so that component tests replace its method with `vi.spyOn`: the unit
 * tests share one module graph (ADR 044), where a file's `vi.mock` of a module another file
 * already imported does not reach the components that imported it.
 */
export const pageReload = {
  reload(): void {
    window.location.reload();
  },
};

export function reloadPage(): void {
  pageReload.reload();
}
