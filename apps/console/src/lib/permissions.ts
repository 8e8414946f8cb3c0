import { consoleMay, type ConsoleRouteId } from '@portal/contract';
import { useConsoleSelector } from './hooks';

/**
 * May the signed-in staff member call this console route? The contract's route table decides
 * (the server enforces the same table); the console only hides what would answer 403.
 */
export function useMay(route: ConsoleRouteId): boolean {
  const role = useConsoleSelector((s) => s.session.staff?.role);
  return role !== undefined && consoleMay(role, route);
}
