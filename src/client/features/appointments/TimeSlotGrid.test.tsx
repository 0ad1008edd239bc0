// The slot grid reads 12-hour times like the cards ("2:30 PM"); the value it hands on stays the
// 24-hour wall-clock slot ("14:30") the dialog turns into the instant it sends.
import { screen, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { renderApp } from '../../test/render';
import { TimeSlotGrid } from './TimeSlotGrid';

describe('TimeSlotGrid', () => {
  it('labels the slots in 12-hour form and hands on the 24-hour value', async () => {
    const onChange = vi.fn();
    const { user } = renderApp(
      <TimeSlotGrid
        day="2099-06-03"
        zone="America/New_York"
        zoneNamed={false}
        doctorName="Dr. Grey"
        patientId={null}
        excludeId={null}
        appointments={[]}
        value="09:00"
        onChange={onChange}
      />,
    );
    const slots = screen.getByRole('group', { name: 'Time slots' });
    expect(within(slots).getByRole('button', { name: '9:00 AM', pressed: true })).toBeInTheDocument();
    expect(within(screen.getByTestId('slot-12:00')).getByRole('button')).toHaveTextContent(/^12:00 PM$/);
    expect(within(slots).queryByText(/^14:30/)).not.toBeInTheDocument();
    await user.click(within(slots).getByRole('button', { name: '2:30 PM' }));
    expect(onChange).toHaveBeenCalledWith('14:30');
  });
});
