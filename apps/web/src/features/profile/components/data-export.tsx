import { Button, Group } from '@mantine/core';
import { IconDatabaseExport, IconDownload } from '@tabler/icons-react';
import { useExportDataMutation } from '../api';
import { SectionCard, ErrorDisplay } from '@portal/ui';

/** Hands a text to the browser as a file download. */
export function saveFile(filename: string, text: string, type = 'application/json'): void {
  const url = URL.createObjectURL(new Blob([text], { type }));
  const a = document.createElement('a');
  a.href = url;
  a.download = filename;
  a.rel = 'noopener';
  document.body.append(a);
  a.click();
  a.remove();
  // The browser has started reading the blob by now; keep it a little longer for slow machines.
  setTimeout(() => URL.revokeObjectURL(url), 30_000);
}

/** "Download my data": GET /api/users/export saved as a JSON file. */
export function DataExport() {
  const [exportData, { isLoading, error, reset }] = useExportDataMutation();

  const onDownload = async () => {
    const result = await exportData();
    if ('data' in result && result.data) {
      saveFile(result.data.filename, result.data.json);
      // The export is personal data: do not keep it in the store once saved.
      reset();
    }
  };

  return (
    <SectionCard
      icon={<IconDatabaseExport size={18} stroke={1.7} />}
      title="Your data"
      description="A copy of everything the portal holds about you, as a JSON file: your profile, sign-ins, licenses and their machines, subscriptions, invoices and this activity log."
    >
      <ErrorDisplay error={error} />
      <Group>
        <Button variant="default" leftSection={<IconDownload size={16} />} loading={isLoading} onClick={() => void onDownload()}>
          Download my data
        </Button>
      </Group>
    </SectionCard>
  );
}
