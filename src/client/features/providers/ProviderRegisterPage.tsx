// /provider-register?token=... (docs/spec.md#other-pages): the hospital account is created from the e-mailed
// one-time link. No token: "Invalid Link" and back to / after 3 s. Success: back to the hospital
// login after 2 s.
import { Alert, Button, Stack } from '@mantine/core';
import { useForm } from '@mantine/form';
import { IconGift } from '@tabler/icons-react';
import { useEffect } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import {
  REDIRECT_AFTER_INVALID_TOKEN_MS,
  REDIRECT_AFTER_REGISTRATION_MS,
  TRIAL_DAYS,
} from '../../../shared/constants';
import { PROVIDER_MESSAGES } from '../../../shared/providers';
import { errorMessage } from '../../api/request';
import { NewPasswordFields } from './NewPasswordInput';
import { AccountCard, HaveAccountLink, HomeLogo } from '../../components/layout/AccountCard';
import { PublicLayout } from '../../components/layout/PublicLayout';
import { NameFields } from '../../components/NameFields';
import { useProviderRegister } from './api';
import { notifyError, notifySuccess } from '../../notify';
import { registerProblem, type ProviderRegisterValues } from './registerForm';
import { localTimeZone } from '../../../shared/time-zone';

export default function ProviderRegisterPage() {
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const token = params.get('token')?.trim() ?? '';
  const form = useForm<ProviderRegisterValues>({
    initialValues: { firstName: '', lastName: '', password: '', confirmPassword: '' },
  });
  const register = useProviderRegister();
  const done = register.isSuccess;

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

  async function handleSubmit(values: ProviderRegisterValues) {
    const problem = registerProblem(values);
    if (problem) {
      notifyError(problem.title, problem.message);
      return;
    }
    try {
      await register.mutateAsync({
        token,
        password: values.password,
        firstName: values.firstName.trim(),
        lastName: values.lastName.trim(),
        timeZone: localTimeZone(),
      });
      notifySuccess(
        'Account Created Successfully!',
        `Welcome to MedLedger! Your ${TRIAL_DAYS}-day free trial has started. You can now log in.`,
        { autoClose: 6000 },
      );
    } catch (error) {
      notifyError('Registration Failed', errorMessage(error, 'Something went wrong. Please try again.'));
    }
  }

  return (
    <PublicLayout size="sm">
      <HomeLogo />
      <AccountCard
        title="Complete Your Registration"
        subtitle="Your application has been approved. Create the account for your organization."
      >
        {!token ? (
          <Alert color="red" title="This link cannot be used" role="alert">
            {PROVIDER_MESSAGES.tokenMissing} Taking you back to the home page...
          </Alert>
        ) : (
          <form onSubmit={form.onSubmit((v) => void handleSubmit(v))}>
            <Stack gap="md">
              <NameFields
                firstName={form.getInputProps('firstName')}
                lastName={form.getInputProps('lastName')}
              />
              <NewPasswordFields
                label="Password"
                values={form.values}
                onChange={(field, v) => form.setFieldValue(field, v)}
              />
              <Alert
                color="blue"
                variant="light"
                icon={<IconGift aria-hidden />}
                title={`${TRIAL_DAYS}-day free trial`}
                role="note"
              >
                Your account starts with a {TRIAL_DAYS}-day free trial. No payment is needed now; after the
                trial a payment method is needed to keep adding and changing records.
              </Alert>
              <Button type="submit" size="md" fullWidth disabled={register.isPending || done}>
                {register.isPending ? 'Creating Account...' : 'Complete Registration'}
              </Button>
            </Stack>
          </form>
        )}
        <HaveAccountLink to="/hospital-login" label="Log in" />
      </AccountCard>
    </PublicLayout>
  );
}
