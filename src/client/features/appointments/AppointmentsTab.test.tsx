// The Appointments tab's calendar: the Month / Week / Day switch, the week's navigation (into the
// next month, which the tab then loads), the month's markers and the printed day schedule, in the
// hospital's zone (New York) whatever zone runs the test.
import { screen, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Appointment } from '../../../shared/appointments';
import { hospitalUser, renderApp } from '../../test/render';
import { AppointmentsTab } from './AppointmentsTab';

const ZONE = 'America/New_York';
const hospital = { ...hospitalUser, timeZone: ZONE };

const appointment = (over: Partial<Appointment>): Appointment => ({
  id: 'a-1',
  patientId: 'p-1',
  practitionerId: null,
  hospitalId: hospital.id,
  patientName: 'Ada Lovelace',
  patientMrn: 'MRN2025000001',
  doctorName: 'Dr. Grey',
  department: 'cardiology',
  appointmentType: 'consultation',
  // 10:00 in New York (summer time, UTC-4) on Wednesday, June 26, 2030.
  appointmentDate: '2030-06-26T14:00:00.000Z',
  location: null,
  notes: null,
  status: 'scheduled',
  blockchainHash: null,
  createdAt: '2030-01-02T10:00:00.000Z',
  updatedAt: '2030-01-02T10:00:00.000Z',
  timeZone: ZONE,
  ...over,
});

const list = [
  // Given out of time order: the views sort by time.
  appointment({
    id: 'a-2',
    patientId: 'p-2',
    patientName: 'Grace <Brewster> Murray',
    patientMrn: 'MRN2025000002',
    doctorName: 'Dr. House',
    appointmentType: 'follow-up',
    status: 'confirmed',
    appointmentDate: '2030-06-26T18:30:00.000Z', // 2:30 PM
  }),
  appointment({}),
  appointment({ id: 'a-3', status: 'cancelled', patientName: 'Cancelled Patient' }),
  // Monday, July 8, 2030, 9:00 AM: the week after next's, in the next month.
  appointment({ id: 'a-4', patientName: 'Mary Seacole', appointmentDate: '2030-07-08T13:00:00.000Z' }),
];

function renderTab() {
  return renderApp(<AppointmentsTab />, {
    user: hospital,
    routes: {
      'GET /api/appointments/hospital/u-hospital': {
        body: { items: list, total: list.length, page: 1, pageSize: 100 },
      },
      'GET /api/hospital/practitioners': { body: [] },
      'GET /api/patients': { body: { items: [], total: 0, page: 1, pageSize: 20 } },
    },
  });
}

const title = () => screen.getByTestId('calendar-title').textContent;

describe('AppointmentsTab calendar', () => {
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['Date'] });
    // Wednesday, June 26, 2030, noon in New York.
    vi.setSystemTime(new Date('2030-06-26T16:00:00.000Z'));
  });
  afterEach(() => vi.useRealTimers());

  it('switches between the month, the week and the day, named radios of one labelled group', async () => {
    const { user } = renderTab();
    const views = await screen.findByRole('radiogroup', { name: 'Calendar view' });
    expect(within(views).getAllByRole('radio')).toHaveLength(3);
    expect(within(views).getByRole('radio', { name: 'Month' })).toBeChecked();
    expect(title()).toBe('June 2030');
    // The month's markers keep the whole time and name (they wrap; a phone gets the count).
    const marker = (await screen.findAllByTestId('calendar-marker'))[0];
    expect(marker).toHaveTextContent('10:00 AM Ada Lovelace');
    const june26 = screen.getByRole('gridcell', { name: /Jun 26 2030, 2 appointments/ });
    expect(within(june26).getByTestId('calendar-count')).toHaveTextContent('2');

    await user.click(within(views).getByRole('radio', { name: 'Week' }));
    expect(title()).toBe('Jun 23, 2030 – Jun 29, 2030');
    const days = screen.getAllByTestId('week-day');
    expect(days.map((d) => d.dataset.day)).toEqual([
      '2030-06-23',
      '2030-06-24',
      '2030-06-25',
      '2030-06-26',
      '2030-06-27',
      '2030-06-28',
      '2030-06-29',
    ]);
    const wednesday = screen.getByRole('region', { name: 'Wednesday, Jun 26, 2030' });
    expect(
      within(wednesday)
        .getAllByTestId('week-appointment')
        .map((b) => b.textContent),
    ).toEqual(['10:00 AMAda Lovelace', '2:30 PMGrace <Brewster> Murray']);
    expect(screen.queryByText('Cancelled Patient')).not.toBeInTheDocument();

    await user.click(within(views).getByRole('radio', { name: 'Day' }));
    expect(title()).toBe('Wednesday, June 26, 2030');
    const rows = screen.getAllByTestId('day-appointment');
    expect(rows).toHaveLength(2);
    expect(rows[0]).toHaveTextContent(
      /10:00 AM.*Scheduled.*Ada Lovelace.*MRN2025000001.*Consultation · Dr\. Grey/,
    );
    expect(rows[1]).toHaveTextContent(/2:30 PM.*Confirmed.*Grace <Brewster> Murray.*Follow-up · Dr\. House/);
    await user.click(screen.getByRole('button', { name: 'Next day' }));
    expect(title()).toBe('Thursday, June 27, 2030');
    expect(screen.getByText('No appointments on this day.')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Today' }));
    expect(title()).toBe('Wednesday, June 26, 2030');
  });

  it('moves the week back and forth, loading the next month when the week reaches it', async () => {
    const { user, network } = renderTab();
    await user.click(await screen.findByRole('radio', { name: 'Week' }));
    await user.click(screen.getByRole('button', { name: 'Next week' }));
    expect(title()).toBe('Jun 30, 2030 – Jul 6, 2030');
    await user.click(screen.getByRole('button', { name: 'Next week' }));
    expect(title()).toBe('Jul 7, 2030 – Jul 13, 2030');
    // July's grid (June 30 to August 3) is asked for, from midnight in New York.
    await vi.waitFor(() =>
      expect(
        network
          .to('GET /api/appointments/hospital/u-hospital')
          .map((c) => new URL(c.url, 'http://localhost').searchParams.get('from')),
      ).toContain('2030-06-23T04:00:00.000Z'),
    );
    const calls = network
      .to('GET /api/appointments/hospital/u-hospital')
      .map((c) => new URL(c.url, 'http://localhost').searchParams);
    expect(calls.some((q) => q.get('to') === '2030-08-04T03:59:59.999Z')).toBe(true);
    const monday = screen.getByRole('region', { name: 'Monday, Jul 8, 2030' });
    expect(within(monday).getByTestId('week-appointment')).toHaveTextContent('9:00 AMMary Seacole');

    await user.click(screen.getByRole('button', { name: 'Previous week' }));
    await user.click(screen.getByRole('button', { name: 'Previous week' }));
    expect(title()).toBe('Jun 23, 2030 – Jun 29, 2030');
    await user.click(screen.getByRole('button', { name: 'Next week' }));
    await user.click(screen.getByRole('button', { name: 'Today' }));
    expect(title()).toBe('Jun 23, 2030 – Jun 29, 2030');
  });

  it("prints the day's schedule with the hospital, the date and the zone, its texts escaped", async () => {
    const printed = document.implementation.createHTMLDocument('');
    const print = vi.fn();
    const open = vi.fn(() => ({ document: printed, focus: vi.fn(), print }));
    vi.stubGlobal('open', open);
    const { user } = renderTab();
    await user.click(await screen.findByRole('radio', { name: 'Day' }));
    await screen.findAllByTestId('day-appointment');
    await user.click(screen.getByRole('button', { name: 'Print day schedule' }));

    expect(print).toHaveBeenCalledTimes(1);
    expect(printed.title).toBe("St. Mary's: schedule for Wednesday, June 26, 2030");
    expect(printed.querySelector('h1')?.textContent).toBe("St. Mary's");
    expect(printed.querySelector('h2')?.textContent).toBe('Day schedule: Wednesday, June 26, 2030');
    expect(printed.body.textContent).toContain('Times in America/New_York · 2 appointments');
    const cells = [...printed.querySelectorAll('tr')].map((tr) =>
      [...tr.querySelectorAll('th, td')].map((c) => c.textContent),
    );
    expect(cells).toEqual([
      ['Time', 'Patient', 'MRN', 'Type', 'Practitioner', 'Status'],
      ['10:00 AM', 'Ada Lovelace', 'MRN2025000001', 'Consultation', 'Dr. Grey', 'Scheduled'],
      ['2:30 PM', 'Grace <Brewster> Murray', 'MRN2025000002', 'Follow-up', 'Dr. House', 'Confirmed'],
    ]);
    // The name was text, not markup.
    expect(printed.querySelector('brewster')).toBeNull();
  });

  it('says so when the browser blocks the print window', async () => {
    vi.stubGlobal(
      'open',
      vi.fn(() => null),
    );
    const { user } = renderTab();
    await user.click(await screen.findByRole('radio', { name: 'Day' }));
    await user.click(screen.getByRole('button', { name: 'Print day schedule' }));
    expect(
      await screen.findByText('Allow pop-ups for this site to print the day schedule.'),
    ).toBeInTheDocument();
  });
});
