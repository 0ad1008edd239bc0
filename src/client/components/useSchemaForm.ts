// Every form's state (docs/architecture.md, client forms): @mantine/form checked with the shared Zod
// schema on submit (an input's error clears when it changes), and the submit handler receives the
// schema's parsed output (trimmed text, coerced numbers), never the raw input.
import { schemaResolver, useForm, type UseFormInput } from '@mantine/form';
import type { z } from 'zod';

export function useSchemaForm<S extends z.ZodType<unknown, Record<string, unknown>>>(
  schema: S,
  initialValues: z.input<S>,
  options: Omit<UseFormInput<z.input<S>, z.output<S>>, 'initialValues' | 'validate' | 'transformValues'> = {},
) {
  return useForm<z.input<S>, z.output<S>>({
    ...options,
    initialValues,
    validate: schemaResolver(schema, { sync: true }),
    transformValues: (values) => schema.parse(values),
  });
}
