// Account creation (docs/spec.md#screens-and-routes, Signup): email and role may come from the
// query string; a given role hides the Account Type radios. Patients give their MRN and the
// activation code from their hospital (both prefilled by the e-mailed link), hospitals their name.
import { Button, Group, Radio, Stack, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useNavigate, useSearchParams } from 'react-router';
import { errorMessage } from '../../api/request';
import { AccountCard, BackButton, HaveAccountLink } from '../../components/layout/AccountCard';
import { PublicLayout } from '../../components/layout/PublicLayout';
import { NameFields } from '../../components/NameFields';
import { notifyError, notifySuccess } from '../../notify';
import { mrnPlaceholder, normalizeMrnInput } from './mrn';
import { PasswordFields } from './PasswordFields';
import { FamilyInvitationNotice } from '../proxy/FamilyInvitationNotice';
import { useRegister } from './api';
import {
  LOGIN_PATH_FOR,
  registerPayload,
  roleFromQuery,
  signupProblem,
  type SignupValues,
} from './signupForm';

export default function SignupPage() {
  const navigate = useNavigate();
  const [params] = useSearchParams();
  // The activation link (`?mrn=..&code=..`) is a patient's; an invitation (`?invite=..`) a family member's.
  const fromLink = params.has('code');
  const invite = params.get('invite') ?? '';
  const fixedRole = invite ? 'family' : (roleFromQuery(params.get('role')) ?? (fromLink ? 'patient' : null));
  const form = useForm<SignupValues>({
    initialValues: {
      role: fixedRole ?? 'patient',
      mrn: normalizeMrnInput(params.get('mrn') ?? ''),
      activationCode: params.get('code') ?? '',
      firstName: '',
      lastName: '',
      email: params.get('email') ?? '',
      password: '',
      confirmPassword: '',
      hospitalName: '',
      inviteToken: invite,
    },
  });
  const register = useRegister();
  const values = form.values;
  const submitting = register.isPending || register.isSuccess;

  async function handleSubmit(values: SignupValues) {
    const problem = signupProblem(values);
    if (problem) {
      notifyError(problem.title, problem.message);
      return;
    }
    try {
      // The same answer whether or not the address already had an account (docs/decisions.md#accounts-and-signup).
      const { message } = await register.mutateAsync(registerPayload(values));
      notifySuccess('Check Your Email', message);
      await navigate(LOGIN_PATH_FOR[values.role]);
    } catch (error) {
      notifyError('Registration Failed', errorMessage(error, 'Something went wrong. Please try again.'));
    }
  }

  return (
    <PublicLayout size="sm">
      <BackButton />
      <AccountCard title="Create Account" subtitle="Join MedLedger today">
        {invite && <FamilyInvitationNotice inviteToken={invite} />}
        <form onSubmit={form.onSubmit((v) => void handleSubmit(v))}>
          <Stack gap="md">
            {!fixedRole && (
              <Radio.Group
                label="Account Type"
                required
                value={values.role}
                onChange={(value) => form.setFieldValue('role', roleFromQuery(value) ?? 'patient')}
              >
                <Group mt="xs">
                  <Radio value="patient" label="Patient" />
                  <Radio value="hospital" label="Hospital" />
                </Group>
              </Radio.Group>
            )}
            {values.role === 'patient' && (
              <TextInput
                label="Medical Record Number (MRN)"
                description="Enter the MRN provided by your healthcare provider"
                placeholder={mrnPlaceholder()}
                required
                autoComplete="off"
                value={values.mrn}
                onChange={(e) => form.setFieldValue('mrn', normalizeMrnInput(e.currentTarget.value))}
              />
            )}
            {values.role === 'patient' && (
              <TextInput
                label="Activation code"
                description="The one-time code your healthcare provider gave you with your MRN"
                placeholder="ABCDE-FGHJK"
                required
                autoComplete="off"
                spellCheck={false}
                value={values.activationCode}
                onChange={(e) => form.setFieldValue('activationCode', e.currentTarget.value.toUpperCase())}
              />
            )}
            <NameFields
              firstName={form.getInputProps('firstName')}
              lastName={form.getInputProps('lastName')}
            />
            {values.role === 'hospital' && (
              <TextInput
                label="Hospital/Clinic Name"
                required
                autoComplete="organization"
                {...form.getInputProps('hospitalName')}
              />
            )}
            <TextInput
              label="Email Address"
              type="email"
              required
              autoComplete="email"
              {...form.getInputProps('email')}
            />
            <PasswordFields
              password={values.password}
              confirmPassword={values.confirmPassword}
              onPasswordChange={(v) => form.setFieldValue('password', v)}
              onConfirmChange={(v) => form.setFieldValue('confirmPassword', v)}
            />
            <Button type="submit" size="md" fullWidth disabled={submitting}>
              {submitting ? 'Creating Account...' : 'Create Account'}
            </Button>
          </Stack>
        </form>
        <HaveAccountLink to="/" label="Sign in" />
      </AccountCard>
    </PublicLayout>
  );
}
