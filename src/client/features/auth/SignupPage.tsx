// Account creation (docs/spec.md#screens-and-routes, Signup): email and role may come from the
// query string; a given role hides the Account Type radios. Patients give their MRN and the
// activation code from their hospital (both prefilled by the e-mailed link), hospitals their name.
import {
  Anchor,
  Button,
  Group,
  Paper,
  Radio,
  SimpleGrid,
  Stack,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { IconArrowLeft } from '@tabler/icons-react';
import { useState, type FormEvent } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { apiJson, errorMessage } from '../../api/request';
import { PublicLayout } from '../../components/layout/PublicLayout';
import { notifyError, notifySuccess } from '../../notify';
import { mrnPlaceholder, normalizeMrnInput } from './mrn';
import { PasswordFields } from './PasswordFields';
import { FamilyInvitationNotice } from '../proxy/FamilyInvitationNotice';
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
  const [values, setValues] = useState<SignupValues>(() => ({
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
  }));
  const [submitting, setSubmitting] = useState(false);
  const set = <K extends keyof SignupValues>(key: K, value: SignupValues[K]) =>
    setValues((v) => ({ ...v, [key]: value }));

  async function handleSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const problem = signupProblem(values);
    if (problem) {
      notifyError(problem.title, problem.message);
      return;
    }
    setSubmitting(true);
    try {
      await apiJson('POST', '/api/auth/register', registerPayload(values));
      notifySuccess(
        'Account Created Successfully!',
        `Welcome to MedLedger, ${values.firstName.trim()}! You can now log in with your credentials.`,
      );
      await navigate(LOGIN_PATH_FOR[values.role]);
    } catch (error) {
      notifyError('Registration Failed', errorMessage(error, 'Something went wrong. Please try again.'));
      setSubmitting(false);
    }
  }

  return (
    <PublicLayout size="sm">
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
        <Stack gap={4} align="center" mb="lg">
          <Title order={1} fz={26}>
            Create Account
          </Title>
          <Text c="dimmed">Join MedLedger today</Text>
        </Stack>
        {invite && <FamilyInvitationNotice inviteToken={invite} />}
        <form onSubmit={(e) => void handleSubmit(e)}>
          <Stack gap="md">
            {!fixedRole && (
              <Radio.Group
                label="Account Type"
                required
                value={values.role}
                onChange={(value) => set('role', roleFromQuery(value) ?? 'patient')}
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
                onChange={(e) => set('mrn', normalizeMrnInput(e.currentTarget.value))}
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
                onChange={(e) => set('activationCode', e.currentTarget.value.toUpperCase())}
              />
            )}
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
            {values.role === 'hospital' && (
              <TextInput
                label="Hospital/Clinic Name"
                required
                autoComplete="organization"
                value={values.hospitalName}
                onChange={(e) => set('hospitalName', e.currentTarget.value)}
              />
            )}
            <TextInput
              label="Email Address"
              type="email"
              required
              autoComplete="email"
              value={values.email}
              onChange={(e) => set('email', e.currentTarget.value)}
            />
            <PasswordFields
              password={values.password}
              confirmPassword={values.confirmPassword}
              onPasswordChange={(v) => set('password', v)}
              onConfirmChange={(v) => set('confirmPassword', v)}
            />
            <Button type="submit" size="md" fullWidth disabled={submitting}>
              {submitting ? 'Creating Account...' : 'Create Account'}
            </Button>
          </Stack>
        </form>
        <Text ta="center" size="sm" mt="lg">
          Already have an account?{' '}
          <Anchor component={Link} to="/">
            Sign in
          </Anchor>
        </Text>
      </Paper>
    </PublicLayout>
  );
}
