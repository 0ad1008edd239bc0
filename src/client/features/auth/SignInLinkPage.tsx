// /sign-in-link?token=...: finishes a sign-in with the one-time link mailed when the account was
// under attack (docs/decisions.md#sign-in-security). The link is used only when the person presses
// the button, so a mail scanner that opens links does not use it up.
import { Alert, Button, Paper, Stack, Text, Title } from '@mantine/core';
import { useState } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { errorMessage } from '../../api/request';
import { useAuth } from '../../auth/context';
import { HomeLogo } from '../../components/layout/AccountCard';
import { PublicLayout } from '../../components/layout/PublicLayout';

const INVALID = 'This sign-in link is invalid, used or expired. Please sign in with your password again.';

export default function SignInLinkPage() {
  const [params] = useSearchParams();
  const token = params.get('token')?.trim() ?? '';
  const { signInWithLink } = useAuth();
  const navigate = useNavigate();
  const [pending, setPending] = useState(false);
  const [problem, setProblem] = useState<string | null>(token ? null : INVALID);

  async function finish() {
    setPending(true);
    try {
      await signInWithLink(token);
      // The home page sends each role to its own dashboard.
      await navigate('/');
    } catch (error) {
      setProblem(errorMessage(error, INVALID));
      setPending(false);
    }
  }

  return (
    <PublicLayout size="xs">
      <HomeLogo />
      <Paper withBorder shadow="md" p="xl" radius="lg">
        <Title order={1} fz={26} mb="xs">
          Finish Signing In
        </Title>
        {problem ? (
          <Stack gap="md">
            <Alert color="red" title="Invalid Link" role="alert">
              {problem}
            </Alert>
            <Button component={Link} to="/">
              Go to login
            </Button>
          </Stack>
        ) : (
          <Stack gap="md">
            <Text size="sm">
              Your account had many failed sign-in attempts, so it asked for this e-mailed link as well as
              your password. The link works once.
            </Text>
            <Button fullWidth disabled={pending} onClick={() => void finish()}>
              {pending ? 'Signing In...' : 'Sign In'}
            </Button>
          </Stack>
        )}
      </Paper>
    </PublicLayout>
  );
}
