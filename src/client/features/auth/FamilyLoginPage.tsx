import { Text } from '@mantine/core';
import { IconUsers } from '@tabler/icons-react';
import { LoginForm } from './LoginForm';

/** The family members' sign-in page (docs/decisions.md#family-proxy-access): accounts come from an invitation. */
export default function FamilyLoginPage() {
  return (
    <LoginForm
      portal="family"
      title="Family Login"
      subtitle="See the records a family member shares with you"
      emailLabel="Email Address"
      icon={<IconUsers size={30} aria-hidden />}
      footer={
        <Text size="sm" c="dimmed">
          No account yet? Open the invitation link the patient sent you.
        </Text>
      }
    />
  );
}
