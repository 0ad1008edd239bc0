// In place of what a request could not fetch (a list, a record, a profile): says so and asks again
// on Try again. Never the list's "No ... yet", which would be untrue: a patient told "No Activity
// Yet" would believe nobody opened their records.
import { Alert, Button, Group, Text } from '@mantine/core';

export function LoadFailed({ what, onRetry }: { what: string; onRetry: () => void }) {
  return (
    <Alert color="red" title={`${what} could not be loaded`} role="alert">
      <Text size="sm">Check your connection and try again.</Text>
      <Group mt="sm">
        <Button size="xs" variant="light" onClick={onRetry}>
          Try again
        </Button>
      </Group>
    </Alert>
  );
}
