// Under a list's table: "Loading …" while the page loads, then `empty` (why there are no rows:
// nothing matched, or the list failed) when the page came back without any.
import { Text } from '@mantine/core';

export function TableStatus({
  loading,
  rows,
  what,
  empty,
}: {
  loading: boolean;
  rows: number;
  what: string;
  empty: string;
}) {
  if (loading)
    return (
      <Text p="md" c="dimmed">
        Loading {what}...
      </Text>
    );
  if (rows > 0) return null;
  return (
    <Text p="md" c="dimmed" ta="center">
      {empty}
    </Text>
  );
}
