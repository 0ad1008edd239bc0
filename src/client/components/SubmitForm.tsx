// A form whose submit runs `onSubmit` instead of the browser's navigation, and without the browser's
// own validation bubbles (noValidate): the fields show the schema's messages (useSchemaForm).
import type { ComponentPropsWithoutRef, KeyboardEvent } from 'react';

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

/**
 * A form's onKeyDown for long forms that only their submit button may submit: Enter in a text
 * field (a date picker's included) does not send a half-filled form. Pickers still take Enter
 * (their own handlers run first, on the field); buttons and text areas keep theirs.
 */
export function enterDoesNotSubmit(event: KeyboardEvent<HTMLFormElement>) {
  const target = event.target as HTMLElement;
  if (event.key !== 'Enter' || !(target instanceof HTMLInputElement)) return;
  if (target.type === 'submit' || target.type === 'button' || target.type === 'checkbox') return;
  event.preventDefault();
}
