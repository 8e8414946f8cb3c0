import type { ReactNode } from 'react';
import { Radio, Stack } from '@mantine/core';
import { STAFF_ROLES } from '@portal/contract';
import { ROLE_DESCRIPTION, ROLE_LABEL } from '../../../lib/roles';

/** The one role of a staff member or a staff token: each role with what it may do. */
export function RoleField({ value, onChange, error }: { value: string; onChange: (value: string) => void; error?: ReactNode }) {
  return (
    <Radio.Group label="Role" required value={value} onChange={onChange} error={error}>
      <Stack gap="sm" mt="xs">
        {STAFF_ROLES.map((r) => (
          <Radio key={r} value={r} label={ROLE_LABEL[r]} description={ROLE_DESCRIPTION[r]} />
        ))}
      </Stack>
    </Radio.Group>
  );
}
