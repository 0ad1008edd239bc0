// In place of what a request could not fetch (a list, a record, a profile): says so and asks again
// on Try again. Never the list's "No ... yet", which would be untrue: a patient told "No Activity
// Yet" would believe nobody opened their records.
import { Alert, Button, Group, Text } from '@mantine/core';
import { errorMessage, errorStatus } from '../api/request';

const CONNECTION = 'Check your connection and try again.';

/** The server's own answer to a request it refused (not found, no access); else the connection. */
function reason(error: unknown): string {
  const status = errorStatus(error);
  const refused = status !== undefined && status >= 400 && status < 500 && status !== 408 && status !== 429;
  return refused ? errorMessage(error, CONNECTION) : CONNECTION;
}

/** Try again for a query (TanStack Query's result) whose request failed; undefined while it has not. */
export function retryIfFailed(query: {
  isError: boolean;
  refetch: () => Promise<unknown>;
}): (() => void) | undefined {
  return query.isError ? () => void query.refetch() : undefined;
}

export function LoadFailed({ what, onRetry, error }: { what: string; onRetry: () => void; error?: unknown }) {
  return (
    <Alert color="red" title={`${what} could not be loaded`} role="alert">
      <Text size="sm">{reason(error)}</Text>
      <Group mt="sm">
        <Button size="xs" variant="light" onClick={onRetry}>
          Try again
        </Button>
      </Group>
    </Alert>
  );
}
