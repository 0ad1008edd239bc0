// /join-staff?token=...&email=... (docs/decisions.md#staff-accounts): the page a staff invitation
// e-mail links to. The invited person creates their own account at the inviting hospital (no
// hospital name: they join it), with the e-mail the invitation was sent to, then signs in at
// /hospital-login. The server's refusals are shown as it words them: 400 (a cancelled or forged
// link, another address), 409 (already used), 410 (expired). A public page: like sign-up, it checks
// with the browser's `required` and the signup rules (signupForm.ts), and loads no Zod.
import { Alert, Button, Stack, Text, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { IconCircleCheck } from '@tabler/icons-react';
import { useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { STAFF_MESSAGES } from '../../../shared/staff-messages';
import { errorMessage } from '../../api/request';
import { AccountCard, HaveAccountLink } from '../../components/layout/AccountCard';
import { PublicLayout } from '../../components/layout/PublicLayout';
import { NameFields } from '../../components/NameFields';
import { notifyError } from '../../notify';
import { useRegister } from '../auth/api';
import { PasswordFields } from '../auth/PasswordFields';
import { signupProblem } from '../auth/signupForm';

interface JoinValues {
  firstName: string;
  lastName: string;
  password: string;
  confirmPassword: string;
}

export default function JoinStaffPage() {
  const [params] = useSearchParams();
  const token = params.get('token')?.trim() ?? '';
  const email = params.get('email')?.trim() ?? '';
  const form = useForm<JoinValues>({
    initialValues: { firstName: '', lastName: '', password: '', confirmPassword: '' },
  });
  const register = useRegister();
  // The server's refusal, shown above the form until the next submit.
  const [refusal, setRefusal] = useState<string | null>(null);
  const values = form.values;

  async function handleSubmit(values: JoinValues) {
    const problem = signupProblem(values);
    if (problem) {
      notifyError(problem.title, problem.message);
      return;
    }
    setRefusal(null);
    try {
      await register.mutateAsync({
        role: 'hospital',
        inviteToken: token,
        email,
        password: values.password,
        firstName: values.firstName.trim(),
        lastName: values.lastName.trim(),
      });
    } catch (error) {
      const message = errorMessage(error, 'Something went wrong. Please try again.');
      setRefusal(message);
      notifyError('Could Not Join', message);
    }
  }

  return (
    <PublicLayout size="sm">
      <AccountCard title="Join Your Hospital" subtitle="Create your own MedLedger staff account">
        {!token || !email ? (
          <Alert color="red" title="Invalid Link" role="alert">
            {STAFF_MESSAGES.inviteInvalid}
          </Alert>
        ) : register.isSuccess ? (
          <Stack gap="md">
            <Alert color="teal" icon={<IconCircleCheck aria-hidden />} title="Account created" role="status">
              Your staff account is ready. Sign in with {email} and the password you chose.
            </Alert>
            <Button component={Link} to="/hospital-login">
              Go to Healthcare Provider Login
            </Button>
          </Stack>
        ) : (
          <form onSubmit={form.onSubmit((v) => void handleSubmit(v))}>
            <Stack gap="md">
              {refusal && (
                <Alert color="red" title="Could not join" role="alert">
                  {refusal}
                </Alert>
              )}
              <TextInput
                label="Email Address"
                type="email"
                description="The address your invitation was sent to"
                readOnly
                autoComplete="email"
                value={email}
              />
              <NameFields
                firstName={form.getInputProps('firstName')}
                lastName={form.getInputProps('lastName')}
              />
              <PasswordFields
                password={values.password}
                confirmPassword={values.confirmPassword}
                onPasswordChange={(v) => form.setFieldValue('password', v)}
                onConfirmChange={(v) => form.setFieldValue('confirmPassword', v)}
              />
              <Text size="xs" c="dimmed">
                Your hospital admin chose your role; they can change it later.
              </Text>
              <Button type="submit" size="md" fullWidth disabled={register.isPending}>
                {register.isPending ? 'Creating Account...' : 'Create Account'}
              </Button>
            </Stack>
          </form>
        )}
        <HaveAccountLink to="/hospital-login" label="Sign in" />
      </AccountCard>
    </PublicLayout>
  );
}
