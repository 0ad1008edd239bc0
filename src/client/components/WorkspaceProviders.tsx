// What the signed-in workspaces need beyond the public pages: date pickers and calendars (styles,
// locale) and confirmation modals. Loaded only with those pages, so the public pages stay light.
import '@mantine/dates/styles.css';
import 'dayjs/locale/en';
import { DatesProvider } from '@mantine/dates';
import { ModalsProvider } from '@mantine/modals';
import type { ReactNode } from 'react';

export function WorkspaceProviders({ children }: { children: ReactNode }) {
  return (
    <DatesProvider settings={{ locale: 'en', firstDayOfWeek: 0 }}>
      <ModalsProvider>{children}</ModalsProvider>
    </DatesProvider>
  );
}
