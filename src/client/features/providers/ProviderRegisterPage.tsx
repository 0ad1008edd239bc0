// /provider-register?token=... (docs/spec.md#other-pages): the hospital account is created from the e-mailed
// one-time link. No token: "Invalid Link" and back to / after 3 s. Success: back to the hospital
// login after 2 s.
import { Alert, Anchor, Button, Paper, SimpleGrid, Stack, Text, TextInput, Title } from '@mantine/core';
import { IconGift } from '@tabler/icons-react';
import { useEffect, useState, type FormEvent } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import {
  REDIRECT_AFTER_INVALID_TOKEN_MS,
  REDIRECT_AFTER_REGISTRATION_MS,
  TRIAL_DAYS,
} from '../../../shared/constants';
import { PROVIDER_MESSAGES } from '../../../shared/providers';
import { apiJson, errorMessage } from '../../api/request';
import { NewPasswordInput } from './NewPasswordInput';
import { PasswordStrength } from '../../components/PasswordStrength';
import { Logo } from '../../components/Logo';
import { PublicLayout } from '../../components/layout/PublicLayout';
import { notifyError, notifySuccess } from '../../notify';
import { registerProblem, type ProviderRegisterValues } from './registerForm';
import { localTimeZone } from '../../../shared/time';

export default function ProviderRegisterPage() {
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const token = params.get('token')?.trim() ?? '';
  const [values, setValues] = useState<ProviderRegisterValues>({
    firstName: '',
    lastName: '',
    password: '',
    confirmPassword: '',
  });
  const [submitting, setSubmitting] = useState(false);
  const [done, setDone] = useState(false);
  const set = (key: keyof ProviderRegisterValues, value: string) =>
    setValues((v) => ({ ...v, [key]: value }));

  useEffect(() => {
    if (token) return;
    notifyError('Invalid Link', PROVIDER_MESSAGES.tokenMissing);
    const timer = window.setTimeout(() => void navigate('/'), REDIRECT_AFTER_INVALID_TOKEN_MS);
    return () => window.clearTimeout(timer);
  }, [token, navigate]);

  useEffect(() => {
    if (!done) return;
    const timer = window.setTimeout(() => void navigate('/hospital-login'), REDIRECT_AFTER_REGISTRATION_MS);
    return () => window.clearTimeout(timer);
  }, [done, navigate]);

  async function handleSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const problem = registerProblem(values);
    if (problem) {
      notifyError(problem.title, problem.message);
      return;
    }
    setSubmitting(true);
    try {
      await apiJson('POST', '/api/provider-register', {
        token,
        password: values.password,
        firstName: values.firstName.trim(),
        lastName: values.lastName.trim(),
        timeZone: localTimeZone(),
      });
      setDone(true);
      notifySuccess(
        'Account Created Successfully!',
        `Welcome to MedLedger! Your ${TRIAL_DAYS}-day free trial has started. You can now log in.`,
        { autoClose: 6000 },
      );
    } catch (error) {
      notifyError('Registration Failed', errorMessage(error, 'Something went wrong. Please try again.'));
      setSubmitting(false);
    }
  }

  return (
    <PublicLayout size="sm">
      <Anchor component={Link} to="/" underline="never" aria-label="MedLedger home" mb="md" w="fit-content">
        <Logo />
      </Anchor>
      <Paper withBorder shadow="md" p="xl" radius="lg">
        <Stack gap={4} align="center" mb="lg">
          <Title order={1} fz={26}>
            Complete Your Registration
          </Title>
          <Text c="dimmed" ta="center">
            Your application has been approved. Create the account for your organization.
          </Text>
        </Stack>
        {!token ? (
          <Alert color="red" title="This link cannot be used" role="alert">
            {PROVIDER_MESSAGES.tokenMissing} Taking you back to the home page...
          </Alert>
        ) : (
          <form onSubmit={(e) => void handleSubmit(e)}>
            <Stack gap="md">
              <SimpleGrid cols={{ base: 1, xs: 2 }}>
                <TextInput
                  label="First Name"
                  required
                  autoComplete="given-name"
                  value={values.firstName}
                  onChange={(e) => set('firstName', e.currentTarget.value)}
                />
                <TextInput
                  label="Last Name"
                  required
                  autoComplete="family-name"
                  value={values.lastName}
                  onChange={(e) => set('lastName', e.currentTarget.value)}
                />
              </SimpleGrid>
              <NewPasswordInput
                label="Password"
                value={values.password}
                onChange={(v) => set('password', v)}
              />
              <PasswordStrength
                password={values.password}
                criteria={['length', 'uppercase', 'lowercase', 'number', 'symbol']}
              />
              <NewPasswordInput
                label="Confirm Password"
                value={values.confirmPassword}
                onChange={(v) => set('confirmPassword', v)}
              />
              <Alert
                color="blue"
                variant="light"
                icon={<IconGift aria-hidden />}
                title={`${TRIAL_DAYS}-day free trial`}
              >
                Your account starts with a {TRIAL_DAYS}-day free trial. No payment is needed now; after the
                trial a payment method is needed to keep adding and changing records.
              </Alert>
              <Button type="submit" size="md" fullWidth disabled={submitting || done}>
                {submitting ? 'Creating Account...' : 'Complete Registration'}
              </Button>
            </Stack>
          </form>
        )}
        <Text ta="center" size="sm" mt="lg">
          Already have an account?{' '}
          <Anchor component={Link} to="/hospital-login">
            Log in
          </Anchor>
        </Text>
      </Paper>
    </PublicLayout>
  );
}
