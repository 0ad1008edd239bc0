// Profile summary (docs/spec.md#patient-dashboard) with the spec's fallbacks, and the Edit Profile button.
import { Button, Group, Paper, Stack, Text, Title } from '@mantine/core';
import { IconEdit } from '@tabler/icons-react';
import type { Patient } from '../../../shared/patients';
import { formatDate } from '../../format';
import { profileSummary } from './profileSummary';
import { LoadFailed } from '../../components/LoadFailed';
import { languageName } from './LanguageSelect';

export function ProfileSummary(props: {
  profile: Patient | null;
  isLoading: boolean;
  /** Set when the profile could not be loaded: asks for it again. */
  retryLoad?: () => void;
  onEdit: () => void;
}) {
  return (
    <Paper withBorder p="md" radius="md" component="section" aria-labelledby="profile-summary-title">
      <Title order={2} size="h4" id="profile-summary-title" mb="sm">
        Profile Summary
      </Title>
      {props.isLoading ? (
        <Text c="dimmed">Loading profile...</Text>
      ) : props.retryLoad ? (
        <LoadFailed what="Your profile" onRetry={props.retryLoad} />
      ) : (
        <Stack gap={6} component="dl" m={0}>
          {profileSummary(props.profile, (v) => formatDate(v), languageName).map((row) => (
            <Group key={row.label} justify="space-between" wrap="nowrap" gap="xs">
              <Text size="sm" c="dimmed" component="dt">
                {row.label}
              </Text>
              <Text size="sm" fw={500} component="dd" m={0} ta="right">
                {row.value}
              </Text>
            </Group>
          ))}
        </Stack>
      )}
      <Button
        mt="md"
        fullWidth
        variant="light"
        leftSection={<IconEdit size={16} aria-hidden />}
        onClick={props.onEdit}
      >
        Edit Profile
      </Button>
    </Paper>
  );
}
