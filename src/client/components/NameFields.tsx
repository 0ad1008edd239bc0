// First Name and Last Name side by side (sign-up, provider registration).
import { SimpleGrid, TextInput } from '@mantine/core';
import type { GetInputPropsReturnType } from '@mantine/form';

export function NameFields({
  firstName,
  lastName,
}: {
  firstName: GetInputPropsReturnType;
  lastName: GetInputPropsReturnType;
}) {
  return (
    <SimpleGrid cols={{ base: 1, xs: 2 }}>
      <TextInput label="First Name" required autoComplete="given-name" {...firstName} />
      <TextInput label="Last Name" required autoComplete="family-name" {...lastName} />
    </SimpleGrid>
  );
}
