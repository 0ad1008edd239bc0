import { Anchor, Text } from '@mantine/core';
import { IconUser } from '@tabler/icons-react';
import { Link } from 'react-router';
import { LoginForm } from './LoginForm';

export default function PatientLoginPage() {
  return (
    <LoginForm
      portal="patient"
      title="Patient Login"
      subtitle="Access Your Health Records"
      emailLabel="Email Address"
      icon={<IconUser size={30} aria-hidden />}
      footer={
        <Text size="sm">
          Don&apos;t have an account?{' '}
          <Anchor component={Link} to="/signup">
            Sign up
          </Anchor>
        </Text>
      }
    />
  );
}
