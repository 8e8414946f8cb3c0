import { Button, Card, Group, SimpleGrid, Text, ThemeIcon } from '@mantine/core';
import { IconArrowRight, IconDownload, IconKey, IconLifebuoy, IconRocket } from '@tabler/icons-react';
import { Link } from 'react-router';
import { EmptyState } from '../../../components/empty-state';
import { PageFrame } from '../../../components/page-frame';
import { PAGES } from '../../../lib/pages';
import { useAppSelector } from '../../../lib/state/hooks';

const SHORTCUTS = [
  { page: PAGES.licenses, icon: IconKey, text: 'See your license keys and the nodes using them.' },
  { page: PAGES.downloadIso, icon: IconDownload, text: 'Get the latest installer ISO with its checksum.' },
  { page: PAGES.support, icon: IconLifebuoy, text: 'Contacts, hours and response times of your plan.' },
] as const;

/** /app/dashboard (menu entry 'Home'). */
export function DashboardPage() {
  const profile = useAppSelector((s) => s.user.profile);
  const name = profile?.fname.trim() || profile?.lname.trim();

  return (
    <PageFrame
      page={PAGES.home.title}
      title={name ? `Welcome, ${name}` : 'Welcome'}
      description="An overview of your licenses, subscription and downloads."
    >
      <EmptyState
        icon={<IconRocket size={28} stroke={1.6} />}
        title="Your portal is ready"
        description="Subscribe to receive a license key. Its nodes, renewal date and invoices will then show up here."
        action={
          <Button component={Link} to={PAGES.billing.path} rightSection={<IconArrowRight size={16} />}>
            Choose a plan
          </Button>
        }
      />
      <SimpleGrid cols={{ base: 1, sm: 3 }} spacing="md">
        {SHORTCUTS.map(({ page, icon: Icon, text }) => (
          <Card key={page.path} component={Link} to={page.path} withBorder radius="lg" padding="lg" className="portal-card-link">
            <Group gap="sm" mb="xs" wrap="nowrap">
              <ThemeIcon variant="light" radius="md" size="lg">
                <Icon size={20} stroke={1.6} />
              </ThemeIcon>
              <Text fw={600}>{page.title}</Text>
            </Group>
            <Text size="sm" c="dimmed">
              {text}
            </Text>
          </Card>
        ))}
      </SimpleGrid>
    </PageFrame>
  );
}
