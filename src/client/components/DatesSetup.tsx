// Date pickers and calendars: their styles and locale, loaded only with the pages that use them
// (the public pages stay light).
import '@mantine/dates/styles.css';
import 'dayjs/locale/en';
import { DatesProvider } from '@mantine/dates';
import type { ReactNode } from 'react';

export function DatesSetup({ children }: { children: ReactNode }) {
  return <DatesProvider settings={{ locale: 'en', firstDayOfWeek: 0 }}>{children}</DatesProvider>;
}
