// One login screen, shared by the hospital, patient and administrator logins: e-mail, password,
// Remember me, "Forgot password?", Sign In ("Signing In..." and disabled while loading).
// Success with the portal's role goes to its page; another role gets "Access Denied" (the session
// is stored by then, as the spec says); a failure gets "Login Failed".
import {
  Anchor,
  Button,
  Checkbox,
  Group,
  Paper,
  PasswordInput,
  Stack,
  Text,
  TextInput,
  ThemeIcon,
  Title,
} from '@mantine/core';
import { IconArrowLeft } from '@tabler/icons-react';
import { lazy, Suspense, useState, type FormEvent, type ReactNode } from 'react';
import { Link, useNavigate } from 'react-router';
import { useAuth } from '../../auth/context';
import { PublicLayout } from '../../components/layout/PublicLayout';
import { notifyError } from '../../notify';
import {
  accessDeniedToast,
  loginFailedToast,
  PORTAL_ROLE,
  SUCCESS_PATH,
  type LoginPortal,
} from './loginMessages';

// Fetched when "Forgot password?" is first clicked: the sign-in page itself stays light.
const ForgotPasswordDialog = lazy(() => import('../password-reset/ForgotPasswordDialog'));

interface LoginFormProps {
  portal: LoginPortal;
  title: string;
  subtitle: string;
  emailLabel: string;
  icon: ReactNode;
  /** Links under the form (e.g. "Don't have an account? Sign up"). */
  footer?: ReactNode;
}

export function LoginForm({ portal, title, subtitle, emailLabel, icon, footer }: LoginFormProps) {
  const { login } = useAuth();
  const navigate = useNavigate();
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [remember, setRemember] = useState(false);
  const [loading, setLoading] = useState(false);
  const [forgotOpen, setForgotOpen] = useState(false);

  async function handleSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setLoading(true);
    try {
      const user = await login({ email, password, remember });
      if (user.role === PORTAL_ROLE[portal]) {
        await navigate(SUCCESS_PATH[portal]);
        return;
      }
      const denied = accessDeniedToast(portal);
      notifyError(denied.title, denied.message);
    } catch (error) {
      const failed = loginFailedToast(portal, error);
      notifyError(failed.title, failed.message);
    }
    setLoading(false);
  }

  return (
    <PublicLayout size="xs">
      <Button
        component={Link}
        to="/"
        variant="subtle"
        leftSection={<IconArrowLeft size={16} aria-hidden />}
        w="fit-content"
        mb="sm"
      >
        Back
      </Button>
      <Paper withBorder shadow="md" p="xl" radius="lg">
        <Stack gap="xs" align="center" mb="lg">
          <ThemeIcon size={56} radius="xl" variant="light">
            {icon}
          </ThemeIcon>
          <Title order={1} fz={26} ta="center">
            {title}
          </Title>
          <Text c="dimmed" ta="center">
            {subtitle}
          </Text>
        </Stack>
        <form onSubmit={(e) => void handleSubmit(e)}>
          <Stack gap="md">
            <TextInput
              label={emailLabel}
              type="email"
              autoComplete="username"
              required
              value={email}
              onChange={(e) => setEmail(e.currentTarget.value)}
            />
            <PasswordInput
              label="Password"
              autoComplete="current-password"
              required
              visibilityToggleFocusable
              value={password}
              onChange={(e) => setPassword(e.currentTarget.value)}
            />
            <Group justify="space-between">
              <Checkbox
                label="Remember me"
                checked={remember}
                onChange={(e) => setRemember(e.currentTarget.checked)}
              />
              <Anchor component="button" type="button" size="sm" onClick={() => setForgotOpen(true)}>
                Forgot password?
              </Anchor>
            </Group>
            <Button type="submit" fullWidth size="md" disabled={loading}>
              {loading ? 'Signing In...' : 'Sign In'}
            </Button>
          </Stack>
        </form>
        {footer && (
          <Stack gap={4} align="center" mt="lg">
            {footer}
          </Stack>
        )}
        <Group justify="center" mt="md">
          <Anchor component={Link} to="/" size="sm">
            Back to login options
          </Anchor>
        </Group>
      </Paper>
      {forgotOpen && (
        <Suspense fallback={null}>
          <ForgotPasswordDialog opened onClose={() => setForgotOpen(false)} />
        </Suspense>
      )}
    </PublicLayout>
  );
}
