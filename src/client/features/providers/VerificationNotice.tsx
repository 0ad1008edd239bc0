// A self-signed-up hospital's dashboard says plainly that MedLedger has not verified it, what its
// patients see because of that, and (to its admins) how to apply (docs/decisions.md#verified-providers).
import { Alert, Button, Group, SimpleGrid, Stack, Text, TextInput } from '@mantine/core';
import { IconShieldQuestion } from '@tabler/icons-react';
import { useState } from 'react';
import { PROVIDER_NOT_VERIFIED_LABEL } from '../../../shared/constants';
import { verificationRequestSchema } from '../../../shared/providers';
import { errorMessage } from '../../api/request';
import { useAuth } from '../../auth/context';
import { AppModal } from '../../components/AppModal';
import { FormActions } from '../../components/FormActions';
import { SubmitForm } from '../../components/SubmitForm';
import { useSchemaForm } from '../../components/useSchemaForm';
import { formatDate } from '../../format';
import { notifyError, notifySuccess } from '../../notify';
import { isHospitalAdmin } from '../staff/permissions';
import { useRequestVerification, useVerificationStatus } from './api';

export function VerificationNotice() {
  const { user } = useAuth();
  const admin = isHospitalAdmin(user);
  const status = useVerificationStatus(admin && user?.providerVerified === false);
  const [applying, setApplying] = useState(false);
  // Older stored users (no flag) and verified hospitals see nothing; so does one verified since.
  if (user?.role !== 'hospital' || user.providerVerified !== false || status.data?.verified) return null;
  const request = status.data?.request ?? null;

  return (
    <Alert
      color="blue"
      variant="light"
      icon={<IconShieldQuestion aria-hidden />}
      title="Your hospital is not verified by MedLedger"
      role="note"
      mb="md"
    >
      <Stack gap="xs">
        <Text size="sm">
          Your hospital signed up on its own, so MedLedger has not checked that it is a licensed provider.
          Your patients, and anyone checking one of your records, see &ldquo;{PROVIDER_NOT_VERIFIED_LABEL}
          &rdquo; beside every record you upload. Your records, staff and ledger work as usual.
        </Text>
        {!admin ? (
          <Text size="sm">A hospital admin of your organization can apply for verification.</Text>
        ) : request?.status === 'pending' ? (
          <Text size="sm" role="status">
            Your request for verification was sent on {formatDate(request.createdAt)} and is waiting for
            review. MedLedger will e-mail you.
          </Text>
        ) : (
          <Group gap="sm">
            {request?.status === 'rejected' && (
              <Text size="sm">Your last request was not approved. You may apply again.</Text>
            )}
            <Button size="xs" onClick={() => setApplying(true)}>
              Apply for verification
            </Button>
          </Group>
        )}
      </Stack>
      <AppModal opened={applying} onClose={() => setApplying(false)} title="Apply for verification">
        {applying && <VerificationForm onDone={() => setApplying(false)} />}
      </AppModal>
    </Alert>
  );
}

function VerificationForm({ onDone }: { onDone: () => void }) {
  const form = useSchemaForm(verificationRequestSchema, {
    npiNumber: '',
    licenseNumber: '',
    website: '',
    address: '',
    contactPhone: '',
  });
  const send = useRequestVerification();
  const submit = async (values: ReturnType<typeof verificationRequestSchema.parse>) => {
    try {
      const answer = await send.mutateAsync(values);
      notifySuccess('Request Sent', answer.message);
      onDone();
    } catch (error) {
      notifyError('Request Failed', errorMessage(error, 'The request could not be sent. Please try again.'));
    }
  };
  return (
    <SubmitForm onSubmit={form.onSubmit(submit)}>
      <Stack>
        <Text size="sm">
          MedLedger reviews the request with what identifies your hospital as a provider, and e-mails you the
          answer. Your hospital&rsquo;s name and your e-mail address are sent with it.
        </Text>
        <SimpleGrid cols={{ base: 1, sm: 2 }}>
          <TextInput label="NPI Number" {...form.getInputProps('npiNumber')} />
          <TextInput label="License Number" {...form.getInputProps('licenseNumber')} />
          <TextInput label="Website" type="url" placeholder="https://" {...form.getInputProps('website')} />
          <TextInput
            label="Contact Phone"
            type="tel"
            autoComplete="tel"
            {...form.getInputProps('contactPhone')}
          />
        </SimpleGrid>
        <TextInput label="Address" {...form.getInputProps('address')} />
        <FormActions onCancel={onDone}>
          <Button type="submit" loading={send.isPending}>
            Send request
          </Button>
        </FormActions>
      </Stack>
    </SubmitForm>
  );
}
