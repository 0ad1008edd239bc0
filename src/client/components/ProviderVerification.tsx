// Whether a record's issuing hospital is a verified provider (issue 9, item 7): it came through an
// approved provider application or a MedLedger administrator verified it. Shown in the record
// views, the patient's records list and the public /verify answer.
import { Group, Text } from '@mantine/core';
import { IconAlertTriangle, IconShieldCheck } from '@tabler/icons-react';
import { PROVIDER_NOT_VERIFIED_LABEL, PROVIDER_VERIFIED_LABEL } from '../../shared/constants';
import { readableText } from '../theme';

export function ProviderVerification({ verified, size = 'xs' }: { verified: boolean; size?: 'xs' | 'sm' }) {
  const Icon = verified ? IconShieldCheck : IconAlertTriangle;
  return (
    <Group gap={4} wrap="nowrap" data-testid="provider-verification" data-verified={verified}>
      <Icon
        size={size === 'xs' ? 14 : 16}
        color={`var(--mantine-color-${verified ? 'blue' : 'orange'}-7)`}
        aria-hidden
      />
      <Text size={size} c={readableText(verified ? 'blue' : 'orange')} fw={500}>
        {verified ? PROVIDER_VERIFIED_LABEL : PROVIDER_NOT_VERIFIED_LABEL}
      </Text>
    </Group>
  );
}
