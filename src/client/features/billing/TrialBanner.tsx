// The hospital dashboard's subscription banner: days left in the 7-day trial, and once it has
// ended without a subscription, that a payment method is needed (writes answer 402 until then).
// With Stripe configured the button opens Stripe Checkout; otherwise it names the support address.
import { Alert, Anchor, Button, Group, Text } from '@mantine/core';
import { IconAlertTriangle, IconClockHour4 } from '@tabler/icons-react';
import { useState } from 'react';
import { errorMessage } from '../../api/request';
import { notifyError } from '../../notify';
import { plural } from '../../format';
import { useBillingStatus, useCheckout } from './api';

export function TrialBanner() {
  const { data } = useBillingStatus();
  const checkout = useCheckout();
  const [opening, setOpening] = useState(false);
  if (!data) return null;

  async function startCheckout() {
    setOpening(true);
    try {
      const { url } = await checkout.mutateAsync();
      window.location.assign(url);
    } catch (error) {
      notifyError(
        'Payment Unavailable',
        errorMessage(error, 'The payment page could not be opened. Please try again.'),
      );
      setOpening(false);
    }
  }

  if (!data.writeAllowed) {
    return (
      <Alert
        color="orange"
        icon={<IconAlertTriangle aria-hidden />}
        title="Payment method needed"
        role="alert"
        mb="md"
      >
        <Text size="sm">{data.message}</Text>
        <Group mt="sm">
          {data.checkoutAvailable ? (
            <Button size="xs" color="orange" onClick={() => void startCheckout()} disabled={opening}>
              {opening ? 'Opening...' : 'Add payment method'}
            </Button>
          ) : (
            <Text size="sm">
              To activate your subscription, contact{' '}
              <Anchor href={`mailto:${data.supportEmail}`}>{data.supportEmail}</Anchor>.
            </Text>
          )}
        </Group>
      </Alert>
    );
  }

  if (data.status === 'trialing' && data.trialDaysLeft !== null) {
    const days = plural(data.trialDaysLeft, 'day', 'days');
    return (
      <Alert color="blue" variant="light" icon={<IconClockHour4 aria-hidden />} mb="md" role="status">
        <Text size="sm">
          Free trial: {days} left. After the trial a payment method is needed to keep adding and changing
          records.
        </Text>
      </Alert>
    );
  }
  return null;
}

export default TrialBanner;
