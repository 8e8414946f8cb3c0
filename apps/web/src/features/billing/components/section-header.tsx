import type { ReactNode } from 'react';
import { CardHeader } from '@portal/ui';

/** The heading of a card on the billing page: the app's one card header (title, a line under it, an action). */
export function SectionHeader({
  title,
  description,
  action,
  order = 2,
  icon,
}: {
  title: ReactNode;
  description?: ReactNode;
  action?: ReactNode;
  order?: 2 | 3;
  icon?: ReactNode;
}) {
  return <CardHeader icon={icon} title={title} description={description} action={action} order={order} />;
}
