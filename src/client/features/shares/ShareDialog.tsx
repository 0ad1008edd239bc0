// "Share with a specialist" (docs/decisions.md#specialist-share-links): the recipient's e-mail, how
// many hours the link works and a note, checked with the shared schema; the server mails the link.
import { Alert, Button, NumberInput, Stack, Text, TextInput, Textarea } from '@mantine/core';
import { AppModal } from '../../components/AppModal';
import { schemaResolver, useForm } from '@mantine/form';
import { IconInfoCircle } from '@tabler/icons-react';
import {
  SHARE_DEFAULT_HOURS,
  SHARE_MAX_HOURS,
  shareInputSchema,
  type ShareInput,
} from '../../../shared/shares';
import { errorMessage } from '../../api/request';
import { notifyError, notifySuccess } from '../../notify';
import { useCreateShare } from './api';
import { FormActions } from '../../components/FormActions';

interface Props {
  recordId: string;
  recordTitle: string;
  opened: boolean;
  onClose: () => void;
}

export function ShareDialog({ recordId, recordTitle, opened, onClose }: Props) {
  const create = useCreateShare(recordId);
  const form = useForm<ShareInput>({
    initialValues: { recipientEmail: '', expiresInHours: SHARE_DEFAULT_HOURS, note: '' },
    validate: schemaResolver(shareInputSchema, { sync: true }),
  });

  async function submit(values: ShareInput) {
    try {
      const share = await create.mutateAsync(shareInputSchema.parse(values));
      notifySuccess('Link Sent', `A link to this record was e-mailed to ${share.recipientEmail}.`);
      form.reset();
      onClose();
    } catch (error) {
      notifyError('Sharing Failed', errorMessage(error, 'The record could not be shared. Please try again.'));
    }
  }

  return (
    <AppModal opened={opened} onClose={onClose} title="Share with a Specialist">
      <form noValidate onSubmit={form.onSubmit((values) => void submit(values))}>
        <Stack>
          <Text size="sm">
            The specialist receives a link by e-mail that opens &ldquo;{recordTitle}&rdquo; — this record, its
            attachments and its verification, nothing else — without an account, until it expires or you
            revoke it. Every opening is recorded in the activity trail.
          </Text>
          <TextInput
            label="Specialist's email"
            type="email"
            required
            autoComplete="off"
            {...form.getInputProps('recipientEmail')}
          />
          <NumberInput
            label="Link valid for (hours)"
            description={`From 1 hour to ${SHARE_MAX_HOURS} hours (30 days).`}
            required
            min={1}
            max={SHARE_MAX_HOURS}
            allowDecimal={false}
            {...form.getInputProps('expiresInHours')}
          />
          <Textarea label="Note to the specialist" autosize minRows={2} {...form.getInputProps('note')} />
          <Alert variant="light" icon={<IconInfoCircle aria-hidden />} role="note">
            Turning off &ldquo;Share with Specialists&rdquo; in your consent settings revokes every link at
            once; the record&apos;s own Specialists switch stops its links from opening.
          </Alert>
          <FormActions onCancel={onClose} busy={create.isPending}>
            <Button type="submit" loading={create.isPending}>
              Send Link
            </Button>
          </FormActions>
        </Stack>
      </form>
    </AppModal>
  );
}
