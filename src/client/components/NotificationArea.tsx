// Toast area (docs/spec.md#states and #constants): one toast at a time, 5000 ms by default, top
// right below the header, at most 420px wide; F8 moves focus to it. Each toast is role="alert", so
// screen readers announce it.
import { Notifications } from '@mantine/notifications';
import { useHotkeys } from '@mantine/hooks';
import { TOAST_DEFAULT_MS } from '../../shared/constants';
import classes from './NotificationArea.module.css';

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
      position="top-right"
      containerWidth={420}
      classNames={{ root: classes.root }}
    />
  );
}
