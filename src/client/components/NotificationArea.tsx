// Toast area (docs/spec.md#states and #constants): one toast at a time (a newer one replaces it,
// notify.ts), 5000 ms by default, at most 420px wide; F8 moves focus to it. Each toast is
// role="alert", so screen readers announce it. Bottom right, where it covers neither a dialog's
// text (dialogs sit centred, towards the top), nor the header, nor the trial banner under it
// (issue 57); the app clears it on a change of page (app/useToastsClearedOnNavigation.ts).
import { Notifications } from '@mantine/notifications';
import { useHotkeys } from '@mantine/hooks';
import { TOAST_DEFAULT_MS } from '../../shared/constants';

export const NOTIFICATION_AREA_ID = 'notification-area';

export function NotificationArea() {
  // F8 works from inside form fields too (empty ignore list).
  useHotkeys([['F8', () => document.getElementById(NOTIFICATION_AREA_ID)?.focus()]], []);
  return (
    <Notifications
      id={NOTIFICATION_AREA_ID}
      tabIndex={-1}
      role="region"
      aria-label="Notifications (F8)"
      limit={1}
      autoClose={TOAST_DEFAULT_MS}
      position="bottom-right"
      containerWidth={420}
    />
  );
}
