import type { ReactNode } from 'react';
import { Box, Center, Stack } from '@mantine/core';
import { BrandLogo } from './brand-logo';
import classes from './centered-page.module.css';

export interface CenteredPageProps {
  brandName: string | undefined;
  children: ReactNode;
  /** Small print under the content. */
  footer?: ReactNode;
  /** Width of the content column. */
  width?: number;
}

/** A centred logo above a narrow content column: sign-in, sign-up and onboarding. */
export function CenteredPage({ brandName, children, footer, width = 420 }: CenteredPageProps) {
  return (
    <Box className={classes.page} component="main">
      <Stack gap="xl" w="100%" maw={width} mx="auto" py={48} px="md">
        <Center>
          <BrandLogo name={brandName} size="lg" />
        </Center>
        {children}
        {footer ? <Center>{footer}</Center> : null}
      </Stack>
    </Box>
  );
}
