// When the hospital requires two-factor sign-in of its staff and this member has not turned it on,
// the server refuses health data and changes (403): the dashboard shows this instead of its tabs,
// with the way to turn it on (docs/decisions.md#staff-accounts).
import { Alert, Button, Text } from '@mantine/core';
import { IconShieldLock } from '@tabler/icons-react';
import { Link } from 'react-router';
import { STAFF_MESSAGES } from '../../../shared/staff-messages';
import type { PublicUser } from '../../../shared/users';

/** The member is held back by the organization's two-factor requirement. */
export const heldByStaffTwoFactor = (user: PublicUser | null) =>
  user?.role === 'hospital' && !!user.staffTwoFactorRequired && !user.twoFactorEnabled;

export function StaffTwoFactorNotice() {
  return (
    <Alert color="red" icon={<IconShieldLock aria-hidden />} title="Two-factor sign-in required" role="alert">
      <Text size="sm" mb="sm">
        {STAFF_MESSAGES.twoFactorRequired}
      </Text>
      <Button component={Link} to="/profile/edit" size="xs">
        Set up two-factor sign-in
      </Button>
    </Alert>
  );
}
