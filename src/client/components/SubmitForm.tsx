// A form whose submit runs `onSubmit` instead of the browser's navigation, and without the browser's
// own validation bubbles (noValidate): the fields show the schema's messages (useSchemaForm).
import type { ComponentPropsWithoutRef } from 'react';

type Props = Omit<ComponentPropsWithoutRef<'form'>, 'onSubmit' | 'noValidate'> & { onSubmit: () => unknown };

export function SubmitForm({ onSubmit, ...form }: Props) {
  return (
    <form
      noValidate
      {...form}
      onSubmit={(e) => {
        e.preventDefault();
        void onSubmit();
      }}
    />
  );
}
