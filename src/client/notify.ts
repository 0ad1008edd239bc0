// Toasts (docs/spec.md#messages): one visible at a time, so a new toast replaces the one on screen
// instead of waiting behind it; failures use the destructive (red) style.
import { notifications } from '@mantine/notifications';
import { IconAlertCircle, IconCircleCheck, IconInfoCircle, type Icon } from '@tabler/icons-react';
import { createElement, type ReactNode } from 'react';

interface ToastOptions {
  /** Milliseconds on screen; the default is the library's 5000. */
  autoClose?: number | false;
}

/** Icons rather than emoji: they render everywhere, also where no emoji font is installed. */
function show(
  color: string,
  icon: Icon,
  title: ReactNode | undefined,
  message: ReactNode,
  options: ToastOptions,
) {
  notifications.clean();
  notifications.show({
    color,
    icon: createElement(icon, { size: 20, 'aria-hidden': true }),
    title,
    message,
    autoClose: options.autoClose,
  });
}

export function notifyError(title: ReactNode | undefined, message: ReactNode, options: ToastOptions = {}) {
  show('red', IconAlertCircle, title, message, options);
}

export function notifySuccess(title: ReactNode | undefined, message: ReactNode, options: ToastOptions = {}) {
  show('teal', IconCircleCheck, title, message, options);
}

export function notifyInfo(title: ReactNode | undefined, message: ReactNode, options: ToastOptions = {}) {
  show('blue', IconInfoCircle, title, message, options);
}

/**
 * Copies `text` and says so with the `copied` toast, or with "Copy Failed" and `failed` when the
 * browser refuses (no permission, no secure context). True when it was copied.
 */
export async function copyWithToast(
  text: string,
  copied: { title: string; message: string },
  failed: string,
) {
  try {
    await navigator.clipboard.writeText(text);
    notifySuccess(copied.title, copied.message);
    return true;
  } catch {
    notifyError('Copy Failed', failed);
    return false;
  }
}

/** A ledger hash (audit rows, the verification banner). */
export const copyHash = (hash: string) =>
  copyWithToast(
    hash,
    { title: 'Blockchain Hash Copied', message: 'The full hash is on your clipboard.' },
    'Could not copy the hash. Please select and copy it manually.',
  );
