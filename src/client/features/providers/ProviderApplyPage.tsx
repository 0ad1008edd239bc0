// /provider-apply (docs/spec.md#other-pages): a public application in three sections. Messages come from the
// shared schema, so the form and the server say the same thing. On success: an alert and a toast,
// then back to / after 3 seconds.
import {
  Alert,
  Anchor,
  Button,
  Group,
  Paper,
  SimpleGrid,
  Stack,
  Text,
  TextInput,
  Textarea,
  Title,
} from '@mantine/core';
import { IconCircleCheck } from '@tabler/icons-react';
import { useForm } from '@mantine/form';
import { useEffect, useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { REDIRECT_AFTER_APPLICATION_MS } from '../../../shared/constants';
import { PublicLayout } from '../../components/layout/PublicLayout';
import { notifyError, notifySuccess } from '../../notify';
import {
  EMPTY_APPLICATION,
  applicationErrors,
  applicationFailureMessage,
  type ApplicationValues,
} from './applicationForm';
import { useApply } from './api';
import { PublicPageHeader } from '../../components/layout/PublicPageHeader';

export default function ProviderApplyPage() {
  const navigate = useNavigate();
  // After the first submit, messages follow the typing.
  const [checked, setChecked] = useState(false);
  const form = useForm<ApplicationValues>({ initialValues: EMPTY_APPLICATION, validate: applicationErrors });
  const apply = useApply();
  const submitting = apply.isPending;
  const submitted = apply.isSuccess;

  useEffect(() => {
    if (!submitted) return;
    const timer = window.setTimeout(() => void navigate('/'), REDIRECT_AFTER_APPLICATION_MS);
    return () => window.clearTimeout(timer);
  }, [submitted, navigate]);

  async function handleSubmit(values: ApplicationValues) {
    try {
      await apply.mutateAsync(values);
      notifySuccess(
        'Application Submitted Successfully!',
        'Your application will be reviewed by the MedLedger team and you will receive an email once it has been processed.',
        { autoClose: 6000 },
      );
    } catch (error) {
      notifyError('Application Failed', applicationFailureMessage(error));
    }
  }

  const field = (key: keyof ApplicationValues) => {
    const props = form.getInputProps(key);
    return {
      ...props,
      onChange: (event: unknown) => {
        (props.onChange as (value: unknown) => void)(event);
        if (checked) form.validateField(key);
      },
    };
  };

  return (
    <PublicLayout size="md">
      <PublicPageHeader />
      <Paper withBorder shadow="md" p="xl" radius="lg">
        <Stack gap={4} mb="lg">
          <Title order={1} fz={26}>
            Join MedLedger as a Healthcare Provider
          </Title>
          <Text c="dimmed">
            Tell us about your organization. Once your application is approved we email you a link to create
            your account, with a 7-day free trial and no upfront payment.
          </Text>
        </Stack>
        {submitted && (
          <Alert
            color="teal"
            icon={<IconCircleCheck aria-hidden />}
            title="Application submitted"
            mb="lg"
            role="status"
          >
            Thank you! We will review your application and send you an email. Taking you back to the home
            page...
          </Alert>
        )}
        <form
          noValidate
          onSubmit={(event) => {
            setChecked(true);
            form.onSubmit((values) => void handleSubmit(values))(event);
          }}
        >
          <Stack gap="xl">
            <Stack gap="sm" component="fieldset" style={{ border: 0, padding: 0, margin: 0 }}>
              <Title order={2} fz="lg" component="legend">
                Hospital/Organization Information
              </Title>
              <TextInput
                label="Hospital/Organization Name"
                required
                autoComplete="organization"
                {...field('hospitalName')}
              />
              <TextInput
                label="Website"
                placeholder="https://www.example-hospital.org"
                autoComplete="url"
                {...field('website')}
              />
              <Textarea
                label="Address"
                autosize
                minRows={2}
                autoComplete="street-address"
                {...field('address')}
              />
            </Stack>
            <Stack gap="sm" component="fieldset" style={{ border: 0, padding: 0, margin: 0 }}>
              <Title order={2} fz="lg" component="legend">
                Contact Information
              </Title>
              <SimpleGrid cols={{ base: 1, sm: 2 }}>
                <TextInput label="Contact Name" required autoComplete="name" {...field('contactName')} />
                <TextInput
                  label="Contact Email"
                  type="email"
                  required
                  autoComplete="email"
                  {...field('contactEmail')}
                />
              </SimpleGrid>
              <TextInput label="Contact Phone" type="tel" autoComplete="tel" {...field('contactPhone')} />
            </Stack>
            <Stack gap="sm" component="fieldset" style={{ border: 0, padding: 0, margin: 0 }}>
              <Title order={2} fz="lg" component="legend">
                Credentials (Optional)
              </Title>
              <SimpleGrid cols={{ base: 1, sm: 2 }}>
                <TextInput label="NPI Number" {...field('npiNumber')} />
                <TextInput label="License Number" {...field('licenseNumber')} />
              </SimpleGrid>
            </Stack>
            <Group justify="flex-end">
              <Button variant="default" component={Link} to="/">
                Cancel
              </Button>
              <Button type="submit" disabled={submitting || submitted}>
                {submitting ? 'Submitting...' : 'Submit Application'}
              </Button>
            </Group>
          </Stack>
        </form>
        <Text ta="center" size="sm" mt="lg">
          Already registered?{' '}
          <Anchor component={Link} to="/hospital-login">
            Log in here
          </Anchor>
        </Text>
      </Paper>
    </PublicLayout>
  );
}
