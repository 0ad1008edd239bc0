// The administrator's two screens, linked from the top of each: provider applications and users.
import { Button, Group } from '@mantine/core';
import { IconInbox, IconUsers } from '@tabler/icons-react';
import { Link, useLocation } from 'react-router';

const LINKS = [
  { to: '/medledger/applications', label: 'Provider Applications', icon: IconInbox },
  { to: '/medledger/users', label: 'Users', icon: IconUsers },
] as const;

export function AdminNav() {
  const { pathname } = useLocation();
  // "/" shows the applications to a signed-in administrator.
  const current = pathname === '/' ? '/medledger/applications' : pathname;
  return (
    <Group component="nav" aria-label="Administration" gap="xs">
      {LINKS.map(({ to, label, icon: Icon }) => (
        <Button
          key={to}
          component={Link}
          to={to}
          size="xs"
          variant={current === to ? 'filled' : 'default'}
          leftSection={<Icon size={16} aria-hidden />}
          aria-current={current === to ? 'page' : undefined}
        >
          {label}
        </Button>
      ))}
    </Group>
  );
}
