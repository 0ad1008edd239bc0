// One login screen, shared by the hospital, patient and administrator logins: e-mail, password,
// Remember me, "Forgot password?", Sign In ("Signing In..." and disabled while loading).
// The form sends its portal: the server refuses another role's right password with 403 before
// anything is signed in or recorded (so lastLoginAt, which drives "New Notifications", stays), and
// the form shows "Access Denied"; success goes to the portal's page; a failure gets "Login Failed".
import { Anchor, Button, Checkbox, Group, PasswordInput, Stack, Text, TextInput } from '@mantine/core';
import { lazy, useState, type FormEvent, type ReactNode } from 'react';
import { Link, useNavigate } from 'react-router';
import type { PublicUser } from '../../../shared/users';
import { errorMessage, errorStatus } from '../../api/request';
import { useAuth } from '../../auth/context';
import { AccountCard, BackButton } from '../../components/layout/AccountCard';
import { LoadFailureBoundary } from '../../components/LoadFailureBoundary';
import { PublicLayout } from '../../components/layout/PublicLayout';
import { notifyError } from '../../notify';
import {
  accessDeniedToast,
  isWrongPortal,
  loginFailedToast,
  PORTAL_ROLE,
  SUCCESS_PATH,
  type LoginPortal,
} from './loginMessages';

// Fetched when "Forgot password?" is first clicked: the sign-in page itself stays light.
const ForgotPasswordDialog = lazy(() => import('../password-reset/ForgotPasswordDialog'));

/**
 * Downloads the code of the page a sign-in leads to while the password is checked (the app's
 * pageChunks.ts, handed down by the route so that this form does not reach up into the app).
 */
export interface WorkspacePreload {
  /** The form was focused: a sign-in is coming, so the list of each page's code is fetched. */
  prepare: () => void;
  /** The form was sent: the code of the page at `path` starts downloading. */
  start: (path: string) => void;
}

export interface LoginFormProps {
  portal: LoginPortal;
  title: string;
  subtitle: string;
  emailLabel: string;
  icon: ReactNode;
  /** Links under the form (e.g. "Don't have an account? Sign up"). */
  footer?: ReactNode;
  preload?: WorkspacePreload;
}

export function LoginForm({ portal, title, subtitle, emailLabel, icon, footer, preload }: LoginFormProps) {
  const { login, verifyTwoFactor } = useAuth();
  const navigate = useNavigate();
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [remember, setRemember] = useState(false);
  const [loading, setLoading] = useState(false);
  const [forgotOpen, setForgotOpen] = useState(false);
  /** Two-factor sign-in: the password was right, the code step is shown. */
  const [codeStep, setCodeStep] = useState(false);
  const [code, setCode] = useState('');
  const [codeError, setCodeError] = useState<string | null>(null);

  async function signedIn(user: PublicUser) {
    if (user.role === PORTAL_ROLE[portal]) {
      await navigate(SUCCESS_PATH[portal]);
      return true;
    }
    const denied = accessDeniedToast(portal);
    notifyError(denied.title, denied.message);
    return false;
  }

  async function handleSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setLoading(true);
    // The portal's page is where a sign-in goes: its code downloads while the password is checked.
    preload?.start(SUCCESS_PATH[portal]);
    try {
      const outcome = await login({ email, password, remember, portal });
      if ('twoFactorRequired' in outcome) {
        setCodeStep(true);
        setCode('');
        setCodeError(null);
      } else if (await signedIn(outcome.user)) {
        return;
      }
    } catch (error) {
      const failed = isWrongPortal(portal, error)
        ? accessDeniedToast(portal)
        : loginFailedToast(portal, error);
      notifyError(failed.title, failed.message);
    }
    setLoading(false);
  }

  async function handleCode(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (!code.trim()) {
      setCodeError('Enter the 6-digit code from your authenticator app or a recovery code');
      return;
    }
    setLoading(true);
    try {
      if (await signedIn(await verifyTwoFactor(code))) return;
    } catch (error) {
      // An expired or used-up pending sign-in: back to the password.
      if (errorStatus(error) === 401 && /sign in with your password/.test(errorMessage(error, ''))) {
        setCodeStep(false);
      }
      setCodeError(errorMessage(error, 'The code could not be checked. Please try again.'));
    }
    setLoading(false);
  }

  return (
    <PublicLayout size="xs">
      <BackButton />
      <AccountCard title={title} subtitle={subtitle} icon={icon}>
        {codeStep ? (
          <form onSubmit={(e) => void handleCode(e)} aria-label="Two-factor code">
            <Stack gap="md">
              <Text size="sm">
                Two-factor sign-in is on for this account. Enter the 6-digit code from your authenticator app,
                or one of your recovery codes.
              </Text>
              <TextInput
                label="Authentication code"
                autoComplete="one-time-code"
                inputMode="text"
                required
                autoFocus
                value={code}
                error={codeError}
                onChange={(e) => setCode(e.currentTarget.value)}
              />
              <Button type="submit" fullWidth size="md" disabled={loading}>
                {loading ? 'Verifying...' : 'Verify'}
              </Button>
              <Anchor
                component="button"
                type="button"
                size="sm"
                onClick={() => {
                  setCodeStep(false);
                  setPassword('');
                }}
              >
                Start over
              </Anchor>
            </Stack>
          </form>
        ) : (
          // Focus means a sign-in is coming: the list of its page's code is fetched by then.
          <form onSubmit={(e) => void handleSubmit(e)} onFocus={preload?.prepare}>
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
        )}
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
      </AccountCard>
      {forgotOpen && (
        // A dialog whose code cannot be fetched says so under the card; the sign-in form stays.
        <LoadFailureBoundary loading={null}>
          <ForgotPasswordDialog opened onClose={() => setForgotOpen(false)} />
        </LoadFailureBoundary>
      )}
    </PublicLayout>
  );
}
