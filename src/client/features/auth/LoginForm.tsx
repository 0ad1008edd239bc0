// One login screen, shared by the hospital, patient and administrator logins: e-mail, password,
// Remember me, "Forgot password?", Sign In ("Signing In..." and disabled while loading).
// The form sends its portal: the server refuses another role's right password with 403 before
// anything is signed in or recorded (so lastLoginAt, which drives "New Notifications", stays), and
// the form shows "Access Denied"; success goes to the portal's page; a failure gets "Login Failed".
import { Anchor, Button, Checkbox, Group, PasswordInput, Stack, Text, TextInput } from '@mantine/core';
import { lazy, Suspense, useState, type ReactNode } from 'react';
import { Link, useNavigate } from 'react-router';
import { z } from 'zod';
import { twoFactorCodeBodySchema } from '../../../shared/account';
import { loginSchema } from '../../../shared/auth';
import type { PublicUser } from '../../../shared/users';
import { errorMessage, errorStatus } from '../../api/request';
import { useAuth } from '../../auth/context';
import { AccountCard, BackButton } from '../../components/layout/AccountCard';
import { PublicLayout } from '../../components/layout/PublicLayout';
import { SubmitForm } from '../../components/SubmitForm';
import { useSchemaForm } from '../../components/useSchemaForm';
import { notifyError } from '../../notify';
import {
  accessDeniedToast,
  isWrongPortal,
  loginFailedToast,
  PORTAL_ROLE,
  SUCCESS_PATH,
  type LoginPortal,
} from './loginMessages';

const credentialsSchema = loginSchema.pick({ email: true, password: true }).extend({ remember: z.boolean() });

// Fetched when "Forgot password?" is first clicked: the sign-in page itself stays light.
const ForgotPasswordDialog = lazy(() => import('../password-reset/ForgotPasswordDialog'));

export interface LoginFormProps {
  portal: LoginPortal;
  title: string;
  subtitle: string;
  emailLabel: string;
  icon: ReactNode;
  /** Links under the form (e.g. "Don't have an account? Sign up"). */
  footer?: ReactNode;
}

export function LoginForm({ portal, title, subtitle, emailLabel, icon, footer }: LoginFormProps) {
  const { login, verifyTwoFactor } = useAuth();
  const navigate = useNavigate();
  const credentials = useSchemaForm(credentialsSchema, { email: '', password: '', remember: false });
  const codeForm = useSchemaForm(twoFactorCodeBodySchema, { code: '' });
  const [loading, setLoading] = useState(false);
  const [forgotOpen, setForgotOpen] = useState(false);
  /** Two-factor sign-in: the password was right, the code step is shown. */
  const [codeStep, setCodeStep] = useState(false);

  async function signedIn(user: PublicUser) {
    if (user.role === PORTAL_ROLE[portal]) {
      await navigate(SUCCESS_PATH[portal]);
      return true;
    }
    const denied = accessDeniedToast(portal);
    notifyError(denied.title, denied.message);
    return false;
  }

  async function handleSubmit(values: z.output<typeof credentialsSchema>) {
    setLoading(true);
    try {
      const outcome = await login({ ...values, portal });
      if ('twoFactorRequired' in outcome) {
        setCodeStep(true);
        codeForm.reset();
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

  async function handleCode({ code }: z.output<typeof twoFactorCodeBodySchema>) {
    setLoading(true);
    try {
      if (await signedIn(await verifyTwoFactor(code))) return;
    } catch (error) {
      // An expired or used-up pending sign-in: back to the password.
      if (errorStatus(error) === 401 && /sign in with your password/.test(errorMessage(error, ''))) {
        setCodeStep(false);
      }
      codeForm.setFieldError('code', errorMessage(error, 'The code could not be checked. Please try again.'));
    }
    setLoading(false);
  }

  return (
    <PublicLayout size="xs">
      <BackButton />
      <AccountCard title={title} subtitle={subtitle} icon={icon}>
        {codeStep ? (
          <SubmitForm onSubmit={codeForm.onSubmit(handleCode)} aria-label="Two-factor code">
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
                {...codeForm.getInputProps('code')}
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
                  credentials.setFieldValue('password', '');
                }}
              >
                Start over
              </Anchor>
            </Stack>
          </SubmitForm>
        ) : (
          <SubmitForm onSubmit={credentials.onSubmit(handleSubmit)}>
            <Stack gap="md">
              <TextInput
                label={emailLabel}
                type="email"
                autoComplete="username"
                required
                {...credentials.getInputProps('email')}
              />
              <PasswordInput
                label="Password"
                autoComplete="current-password"
                required
                visibilityToggleFocusable
                {...credentials.getInputProps('password')}
              />
              <Group justify="space-between">
                <Checkbox
                  label="Remember me"
                  {...credentials.getInputProps('remember', { type: 'checkbox' })}
                />
                <Anchor component="button" type="button" size="sm" onClick={() => setForgotOpen(true)}>
                  Forgot password?
                </Anchor>
              </Group>
              <Button type="submit" fullWidth size="md" disabled={loading}>
                {loading ? 'Signing In...' : 'Sign In'}
              </Button>
            </Stack>
          </SubmitForm>
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
        <Suspense fallback={null}>
          <ForgotPasswordDialog opened onClose={() => setForgotOpen(false)} />
        </Suspense>
      )}
    </PublicLayout>
  );
}
