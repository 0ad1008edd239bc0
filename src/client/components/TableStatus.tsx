// Under a list's table: "Loading …" while the page loads, that the list could not be loaded (with
// Try again) when the request failed, then `empty` (why there are no rows: nothing matched) when
// the page came back without any.
import { Box, Text } from '@mantine/core';
import { LoadFailed } from './LoadFailed';

export function TableStatus({
  loading,
  rows,
  what,
  empty,
  retryLoad,
}: {
  loading: boolean;
  rows: number;
  what: string;
  empty: string;
  /** Set when the page could not be loaded: asks for it again. */
  retryLoad?: () => void;
}) {
  if (loading)
    return (
      <Text p="md" c="dimmed">
        Loading {what}...
      </Text>
    );
  if (retryLoad)
    return (
      <Box p="md">
        <LoadFailed what={`The ${what}`} onRetry={retryLoad} />
      </Box>
    );
  if (rows > 0) return null;
  return (
    <Text p="md" c="dimmed" ta="center">
      {empty}
    </Text>
  );
}
