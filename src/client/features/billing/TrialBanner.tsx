// The hospital dashboard's subscription banner: days left in the 7-day trial, and once it has
// ended without a subscription, that a payment method is needed (writes answer 402 until then).
// With Stripe configured the button opens Stripe Checkout; otherwise it names the support address.
import { Alert, Anchor, Button, Group, Text } from '@mantine/core';
import { IconAlertTriangle, IconClockHour4 } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import type { BillingStatus } from '../../../shared/providers';
import { apiJson, errorMessage } from '../../api/request';
import { notifyError } from '../../notify';
import { plural } from '../../format';

export const BILLING_STATUS_KEY = ['/api/billing/status'] as const;

export function TrialBanner() {
  const { data } = useQuery<BillingStatus>({ queryKey: BILLING_STATUS_KEY });
  const [opening, setOpening] = useState(false);
  if (!data) return null;

  async function startCheckout() {
    setOpening(true);
    try {
      const { url } = await apiJson<{ url: string }>('POST', '/api/billing/checkout');
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
