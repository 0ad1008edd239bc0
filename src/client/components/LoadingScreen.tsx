import { Center, Loader, Stack, Text } from '@mantine/core';

/** Centered spinner shown while the session state loads (docs/spec.md#screens-and-routes, route /). */
export function LoadingScreen() {
  return (
    <Center mih="100vh" role="status" aria-live="polite">
      <Stack align="center" gap="sm">
        <Loader aria-hidden />
        <Text c="dimmed">Loading...</Text>
      </Stack>
    </Center>
  );
}
