import {
  IconCreditCard,
  IconDownload,
  IconHome,
  IconKey,
  IconLifebuoy,
  IconShieldLock,
  IconUserCircle,
  type Icon,
} from '@tabler/icons-react';
import { PAGES } from '../../lib/pages';

export interface MenuEntry {
  /** The label, equal to the title the page sets in menu.activePage. */
  label: string;
  path: string;
  icon: Icon;
  /** Shown with the 'Coming soon' badge, neither clickable nor focusable. */
  disabled?: boolean;
}

export const MENU_GROUPS: ReadonlyArray<{ label: string; entries: readonly MenuEntry[] }> = [
  {
    label: 'Dashboard',
    entries: [
      { label: PAGES.home.title, path: PAGES.home.path, icon: IconHome },
      { label: PAGES.licenses.title, path: PAGES.licenses.path, icon: IconKey },
      { label: PAGES.accessControl.title, path: PAGES.accessControl.path, icon: IconShieldLock, disabled: true },
      { label: PAGES.support.title, path: PAGES.support.path, icon: IconLifebuoy },
      { label: PAGES.downloadIso.title, path: PAGES.downloadIso.path, icon: IconDownload },
    ],
  },
  {
    label: 'Settings',
    entries: [
      { label: PAGES.billing.title, path: PAGES.billing.path, icon: IconCreditCard },
      { label: PAGES.profile.title, path: PAGES.profile.path, icon: IconUserCircle },
    ],
  },
];
