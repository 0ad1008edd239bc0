import { Button, Paper, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { IconArrowLeft, IconAlertTriangle } from '@tabler/icons-react';
import { Link } from 'react-router';
import { PublicLayout } from '../../components/layout/PublicLayout';

/** Any path the router does not know (docs/spec.md#screens-and-routes). */
export default function NotFoundPage() {
  return (
    <PublicLayout size="xs">
      <Paper withBorder shadow="md" p="xl" radius="lg">
        <Stack align="center" gap="sm">
          <ThemeIcon size={56} radius="xl" color="red" variant="light">
            <IconAlertTriangle size={30} aria-hidden />
          </ThemeIcon>
          <Title order={1} fz={26}>
            404 Page Not Found
          </Title>
          <Text c="dimmed" ta="center">
            Did you forget to add the page to the router?
          </Text>
          <Button component={Link} to="/" leftSection={<IconArrowLeft size={16} aria-hidden />} mt="sm">
            Back
          </Button>
        </Stack>
      </Paper>
    </PublicLayout>
  );
}
