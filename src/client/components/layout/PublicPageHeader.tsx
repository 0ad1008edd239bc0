// The logo and "Back to Home" row above the public forms (/provider-apply, /verify).
import { Anchor, Button, Group } from '@mantine/core';
import { IconArrowLeft } from '@tabler/icons-react';
import { Link } from 'react-router';
import { Logo } from '../Logo';

export function PublicPageHeader() {
  return (
    <Group justify="space-between" mb="md">
      <Anchor component={Link} to="/" underline="never" aria-label="MedLedger home">
        <Logo />
      </Anchor>
      <Button component={Link} to="/" variant="subtle" leftSection={<IconArrowLeft size={16} aria-hidden />}>
        Back to Home
      </Button>
    </Group>
  );
}
