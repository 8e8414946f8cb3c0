import { useCallback, useEffect, useRef, useState, type ComponentType } from 'react';
import { Button, Stack } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { IconCreditCard, IconKey } from '@tabler/icons-react';
import { wellFormedLicenseKey, type License } from '@portal/contract';
import { Link, useSearchParams } from 'react-router';
import { PageFrame } from '../../../components/page-frame';
import { PAGES } from '../../../lib/pages';
import { useAppDispatch, useAppSelector } from '../../../lib/state/hooks';
import { setHighlight } from '../../../lib/state/license-slice';
import { LICENSES_PAGE_SIZE, listPageAt, useListLicensesQuery } from '../api';
import type { LicenseDrawer as Drawer } from './license-drawer';
import { trackLoad } from '../../../lib/progress';
import { LicensesTable, LicensesTableSkeleton } from './licenses-table';
import { EmptyState, ErrorDisplay, lastPage, ListFooter } from '@portal/ui';

/** Phones (below Mantine's `sm`, 768 px) get cards instead of tables and a full-width drawer. */
const COMPACT_QUERY = '(max-width: 47.99em)';

type DrawerComponent = ComponentType<Parameters<typeof Drawer>[0]>;
let loadedDrawer: DrawerComponent | null = null;
let drawerLoad: Promise<DrawerComponent> | undefined;

/**
 * The license drawer's code (the activation and validation forms, with the form and validation
 * chunk they need) loads when the drawer is first wanted, not with the page: the list's first
 * screen needs none of it (docs/decisions/126). A failed load is tried again on the next want.
 */
function loadDrawer(): Promise<DrawerComponent> {
  drawerLoad ??= trackLoad(import('./license-drawer')).then(
    (m) => (loadedDrawer = m.LicenseDrawer),
    (error: unknown) => {
      drawerLoad = undefined;
      throw error;
    },
  );
  return drawerLoad;
}

/**
 * The drawer once its code is here; `want` starts loading it (a pointer or focus over the list,
 * a license to open), and `error` tells a failed load while a license waits to open.
 */
function useLicenseDrawer(openKey: string | null) {
  const [drawer, setDrawer] = useState<{ Component: DrawerComponent } | null>(() =>
    loadedDrawer ? { Component: loadedDrawer } : null,
  );
  const [error, setError] = useState<unknown>(null);
  const loaded = drawer !== null;
  const want = useCallback(() => {
    if (loaded) return;
    setError(null);
    loadDrawer().then(
      (Component) => setDrawer({ Component }),
      // Shown as the network failure it almost always is (what to do when the portal is unreachable).
      (e: unknown) => setError({ status: 'FETCH_ERROR', error: String(e) }),
    );
  }, [loaded]);
  useEffect(() => {
    if (openKey !== null) want();
  }, [openKey, want]);
  // The drawer mounts closed and opens on the next render: Mantine notes the element to give focus
  // back to when `opened` turns true, not when it mounts open (code that arrived after the license
  // was opened left focus nowhere on Escape).
  const [mounted, setMounted] = useState(false);
  useEffect(() => {
    if (loaded) setMounted(true);
  }, [loaded]);
  return { Drawer: drawer?.Component ?? null, mounted, want, error };
}

/**
 * ?highlight=<key> (a link from the dashboard or a purchase) goes into `license.highlight`, where
 * other pages may also have put it, and leaves the address so a reload does not repeat it.
 */
function useHighlightFromUrl() {
  const dispatch = useAppDispatch();
  const [params, setParams] = useSearchParams();
  const fromUrl = params.get('highlight');
  useEffect(() => {
    if (fromUrl === null) return;
    const key = wellFormedLicenseKey(fromUrl);
    if (key !== null) dispatch(setHighlight(key));
    setParams(
      (p) => {
        p.delete('highlight');
        return p;
      },
      { replace: true },
    );
  }, [dispatch, fromUrl, setParams]);
  return useAppSelector((s) => s.license.highlight);
}

/** Scrolls once to the highlighted license when its row appears. */
function useScrollToHighlight(highlight: string | null) {
  const scrolledTo = useRef<string | null>(null);
  return useCallback(
    (element: HTMLElement | null) => {
      if (!element || !highlight || scrolledTo.current === highlight) return;
      scrolledTo.current = highlight;
      element.scrollIntoView({ block: 'center', behavior: 'smooth' });
    },
    [highlight],
  );
}

/** /app/licenses: the customer's license keys, the nodes on each, and what can be done with them. */
export function LicensesPage() {
  const [params, setParams] = useSearchParams();
  const page = listPageAt(params);
  const openKey = params.get('license');
  // Read at once (no server rendering here), so a phone never flashes the table first.
  const compact = useMediaQuery(COMPACT_QUERY, undefined, { getInitialValueInEffect: false });
  const highlight = useHighlightFromUrl();
  const highlightRef = useScrollToHighlight(highlight);
  const drawer = useLicenseDrawer(openKey);
  const { data, currentData, error, isLoading, isFetching, refetch } = useListLicensesQuery({ page, size: LICENSES_PAGE_SIZE });

  const setParam = (name: string, value: string | null) =>
    setParams(
      (p) => {
        if (value === null) p.delete(name);
        else p.set(name, value);
        return p;
      },
      { replace: true },
    );

  // The open license comes from the address (?license=<key>), so a reload or a shared link keeps it.
  const open = data?.items.find((l) => l.licenseKey === openKey) ?? null;
  // Keep showing the last license while the drawer slides out.
  const [shown, setShown] = useState<License | null>(null);
  useEffect(() => {
    if (open) setShown(open);
  }, [open]);

  // A page past the end (fewer licenses than before, or an edited address) shows the last one.
  const fallbackPage =
    currentData && currentData.items.length === 0 && page > 1 ? lastPage(currentData.total, LICENSES_PAGE_SIZE) : null;
  useEffect(() => {
    if (fallbackPage !== null && fallbackPage !== page) {
      setParams(
        (p) => {
          if (fallbackPage === 1) p.delete('page');
          else p.set('page', String(fallbackPage));
          return p;
        },
        { replace: true },
      );
    }
  }, [fallbackPage, page, setParams]);

  const hasLicenses = Boolean(data && data.total > 0);
  let content;
  if (isLoading) {
    content = <LicensesTableSkeleton compact={compact} />;
  } else if (!data) {
    content = <ErrorDisplay error={error} onRetry={refetch} retrying={isFetching} />;
  } else if (data.total === 0) {
    content = (
      <EmptyState
        icon={<IconKey size={28} stroke={1.6} />}
        title="No licenses yet"
        description="A license key is issued as soon as you subscribe. Each key works on as many nodes as you subscribe for."
        action={
          <Button component={Link} to={PAGES.billing.path} leftSection={<IconCreditCard size={16} />}>
            Subscribe in Billing
          </Button>
        }
      />
    );
  } else {
    content = (
      <Stack gap="sm" onPointerEnter={drawer.want} onFocus={drawer.want}>
        {error ? <ErrorDisplay error={error} onRetry={refetch} retrying={isFetching} /> : null}
        {openKey !== null && drawer.error ? <ErrorDisplay error={drawer.error} onRetry={drawer.want} /> : null}
        <LicensesTable
          licenses={data.items}
          highlight={highlight}
          highlightRef={highlightRef}
          onOpen={(key) => setParam('license', key)}
          compact={compact}
        />
        <ListFooter
          page={page}
          size={LICENSES_PAGE_SIZE}
          total={data.total}
          noun={['license', 'licenses']}
          onChange={(n) => setParam('page', n === 1 ? null : String(n))}
          label="Pages of licenses"
        />
      </Stack>
    );
  }

  return (
    <PageFrame
      title={PAGES.licenses.title}
      description="Your license keys, the nodes activated on each, and when they expire."
      actions={
        hasLicenses ? (
          <Button component={Link} to={PAGES.billing.path} variant="default" leftSection={<IconCreditCard size={16} />}>
            Change nodes in Billing
          </Button>
        ) : null
      }
    >
      {content}
      {drawer.Drawer ? (
        <drawer.Drawer
          license={open ?? shown}
          opened={drawer.mounted && open !== null}
          onClose={() => setParam('license', null)}
          compact={compact}
        />
      ) : null}
    </PageFrame>
  );
}
