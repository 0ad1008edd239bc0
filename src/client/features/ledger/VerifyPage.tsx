// Placeholder created with the route table; the owning agent replaces this file's contents
// (keep the default export).
import { Container, Text, Title } from '@mantine/core';

export default function VerifyPage() {
  return (
    <Container size="md" py="xl">
      <Title order={1}>Verify a Record</Title>
      <Text c="dimmed" mt="sm">
        This page is being built.
      </Text>
    </Container>
  );
}
