/**
 * After a successful subscription change the whole page reloads (ADR 015), so
 * every figure on it (license size, renewal date, invoices) comes fresh from the server.
 * A module of its own so that component tests can replace it.
 */
export function reloadPage(): void {
  window.location.reload();
}
