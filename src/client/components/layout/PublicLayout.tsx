// Frame of the signed-out pages (landing, logins, signup, 404): a soft background, the content
// centred, the shared footer below.
import { Box, Container } from '@mantine/core';
import type { ReactNode } from 'react';
import { AppFooter } from './AppFooter';
import { SkipLink } from './SkipLink';

export function PublicLayout({
  children,
  size = 'sm',
}: {
  children: ReactNode;
  size?: 'xs' | 'sm' | 'md' | 'lg';
}) {
  return (
    <Box
      mih="100vh"
      style={{
        display: 'flex',
        flexDirection: 'column',
        background:
          'linear-gradient(135deg, var(--mantine-color-teal-0) 0%, var(--mantine-color-blue-0) 100%)',
      }}
    >
      <SkipLink />
      <Container
        component="main"
        id="main-content"
        tabIndex={-1}
        size={size}
        w="100%"
        py="xl"
        style={{ flex: 1, display: 'flex', flexDirection: 'column', justifyContent: 'center' }}
      >
        {children}
      </Container>
      <AppFooter />
    </Box>
  );
}
