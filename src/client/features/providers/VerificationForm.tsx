// The request for verification (POST /api/hospital/verification), checked with the shared schema.
import { Button, SimpleGrid, Stack, Text, TextInput } from '@mantine/core';
import { verificationRequestSchema } from '../../../shared/providers';
import { errorMessage } from '../../api/request';
import { FormActions } from '../../components/FormActions';
import { SubmitForm } from '../../components/SubmitForm';
import { useSchemaForm } from '../../components/useSchemaForm';
import { notifyError, notifySuccess } from '../../notify';
import { useRequestVerification } from './api';

export function VerificationForm({ onDone }: { onDone: () => void }) {
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
