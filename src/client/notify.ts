// Toasts (spec section 8): one visible at a time, so a new toast replaces the one on screen
// instead of waiting behind it; failures use the destructive (red) style.
import { notifications } from '@mantine/notifications';
import type { ReactNode } from 'react';

interface ToastOptions {
  /** Milliseconds on screen; the default is the library's 5000. */
  autoClose?: number | false;
}

function show(color: string, title: ReactNode | undefined, message: ReactNode, options: ToastOptions) {
  notifications.clean();
  notifications.show({ color, title, message, autoClose: options.autoClose });
}

export function notifyError(title: ReactNode | undefined, message: ReactNode, options: ToastOptions = {}) {
  show('red', title, message, options);
}

export function notifySuccess(title: ReactNode | undefined, message: ReactNode, options: ToastOptions = {}) {
  show('teal', title, message, options);
}

export function notifyInfo(title: ReactNode | undefined, message: ReactNode, options: ToastOptions = {}) {
  show('blue', title, message, options);
}
