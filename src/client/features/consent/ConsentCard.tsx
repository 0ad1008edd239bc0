// Consent card (docs/spec.md#patient-dashboard; docs/decisions.md#consent: saves are persisted,
// ledgered and audited): switches Share with Specialists and Family Access (both on until the
// patient saves a choice), each saved as it is flipped, and the Manage Consent modal.
import { Button, Paper, Stack, Switch, Text, Title, Alert } from '@mantine/core';
import { AppModal } from '../../components/AppModal';
import { IconShieldLock } from '@tabler/icons-react';
import { useState } from 'react';
import { consentInputSchema, DEFAULT_CONSENT, type ConsentInput } from '../../../shared/consent';
import { notifyError, notifySuccess } from '../../notify';
import { useConsent, useSaveConsent } from './api';
import { formatDateTime } from '../../format';
import { FamilyAccessHolders } from '../proxy/FamilyAccessHolders';

/** What the family switch grants (docs/decisions.md#family-proxy-access). */
const FAMILY_SWITCH_TEXT =
  'Family contacts marked “Can Access Medical Records” get an e-mailed invitation; once they accept, ' +
  'they can read (view, download, verify) your current records whose own Family switch is on, and ' +
  'your upcoming appointments. Nothing else. Turning this off ends their access at once.';
import { OpenShareList } from '../shares/ShareList';
import { FormActions } from '../../components/FormActions';
import { SubmitForm } from '../../components/SubmitForm';
import { useSchemaForm } from '../../components/useSchemaForm';

function useConsentSaver(userId: string) {
  const save = useSaveConsent(userId);
  return {
    isPending: save.isPending,
    async run(consent: ConsentInput): Promise<boolean> {
      try {
        await save.mutateAsync(consent);
        notifySuccess(
          'Consent Updated',
          'Your sharing preferences were saved and recorded on the blockchain.',
        );
        return true;
      } catch {
        notifyError('Update Failed', 'Unable to update your sharing preferences. Please try again.');
        return false;
      }
    },
  };
}

function ManageConsentModal(props: {
  opened: boolean;
  onClose: () => void;
  current: ConsentInput;
  userId: string;
}) {
  const form = useSchemaForm(consentInputSchema, props.current);
  const saver = useConsentSaver(props.userId);
  const save = async (consent: ConsentInput) => {
    if (await saver.run(consent)) props.onClose();
  };
  return (
    <AppModal opened={props.opened} onClose={props.onClose} title="Manage Consent">
      <SubmitForm onSubmit={form.onSubmit(save)}>
        <Stack>
          <Switch
            label="Healthcare Providers"
            description="Lets you and your hospital send a record to a specialist as a time-limited link that opens that record without an account. Turning it off revokes every link at once."
            {...form.getInputProps('shareWithSpecialists', { type: 'checkbox' })}
          />
          <Switch
            label="Family Members"
            description={FAMILY_SWITCH_TEXT}
            {...form.getInputProps('shareWithFamily', { type: 'checkbox' })}
          />
          <FamilyAccessHolders />
          <OpenShareList />
          <Alert variant="light" icon={<IconShieldLock aria-hidden />} role="note">
            Consent changes are recorded on the blockchain for a tamper-evident history.
          </Alert>
          <FormActions onCancel={props.onClose} busy={saver.isPending}>
            <Button type="submit" loading={saver.isPending}>
              Save Consent Settings
            </Button>
          </FormActions>
        </Stack>
      </SubmitForm>
    </AppModal>
  );
}

export function ConsentCard({ userId }: { userId: string }) {
  const consent = useConsent(userId);
  const saver = useConsentSaver(userId);
  const [managing, setManaging] = useState(false);
  // docs/spec.md#calls: when the settings cannot be read, specialists on and family off.
  const current: ConsentInput = consent.data
    ? {
        shareWithSpecialists: consent.data.shareWithSpecialists,
        shareWithFamily: consent.data.shareWithFamily,
      }
    : consent.isError
      ? { shareWithSpecialists: true, shareWithFamily: false }
      : DEFAULT_CONSENT;
  const disabled = consent.isLoading || saver.isPending;

  return (
    <Paper withBorder p="md" radius="md" component="section" aria-labelledby="consent-title">
      <Title order={2} size="h4" id="consent-title" mb="sm">
        Consent &amp; Sharing
      </Title>
      <Stack gap="sm">
        <Switch
          label="Share with Specialists"
          checked={current.shareWithSpecialists}
          disabled={disabled}
          onChange={(e) => void saver.run({ ...current, shareWithSpecialists: e.currentTarget.checked })}
        />
        <Switch
          label="Family Access"
          checked={current.shareWithFamily}
          disabled={disabled}
          onChange={(e) => void saver.run({ ...current, shareWithFamily: e.currentTarget.checked })}
        />
        {consent.data?.updatedAt && (
          <Text size="xs" c="dimmed">
            Last changed {formatDateTime(consent.data.updatedAt)}
          </Text>
        )}
        <Button variant="light" onClick={() => setManaging(true)} disabled={consent.isLoading}>
          Manage Consent
        </Button>
      </Stack>
      {managing && (
        <ManageConsentModal opened onClose={() => setManaging(false)} current={current} userId={userId} />
      )}
    </Paper>
  );
}
