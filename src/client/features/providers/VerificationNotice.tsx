// A self-signed-up hospital's dashboard says plainly that MedLedger has not verified it, what its
// patients see because of that, and (to its admins) how to apply (docs/decisions.md#verified-providers).
import { Alert, Button, Group, Loader, Stack, Text } from '@mantine/core';
import { IconShieldQuestion } from '@tabler/icons-react';
import { lazy, Suspense, useState } from 'react';
import { PROVIDER_NOT_VERIFIED_LABEL } from '../../../shared/constants';
import { useAuth } from '../../auth/context';
import { AppModal } from '../../components/AppModal';
import { formatDate } from '../../format';
import { isHospitalAdmin } from '../staff/permissions';
import { useVerificationStatus } from './api';

// The form brings the schemas library (Zod): it loads when the dialog first opens, not with the dashboard.
const VerificationForm = lazy(async () => ({
  default: (await import('./VerificationForm')).VerificationForm,
}));

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
        {applying && (
          <Suspense fallback={<Loader size="sm" aria-label="Loading the form" />}>
            <VerificationForm onDone={() => setApplying(false)} />
          </Suspense>
        )}
      </AppModal>
    </Alert>
  );
}
