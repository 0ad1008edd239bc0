// Which dashboard tabs each staff role is offered (docs/decisions.md#staff-accounts).
import { describe, expect, it } from 'vitest';
import { tabFromParam, tabsFor } from './tabs';

const ids = (role: Parameters<typeof tabsFor>[0]) => tabsFor(role).map((tab) => tab.id);

describe('dashboard tabs by staff role', () => {
  it('offer the admins every tab, clinicians no audit or staff, front desk no upload either', () => {
    expect(ids('hospital_admin')).toEqual([
      'patients',
      'upload',
      'appointments',
      'audit',
      'staff',
      'settings',
    ]);
    expect(ids('clinician')).toEqual(['patients', 'upload', 'appointments', 'settings']);
    expect(ids('front_desk')).toEqual(['patients', 'appointments', 'settings']);
  });

  it('open Patients for a tab the role is not offered', () => {
    expect(tabFromParam('staff', 'hospital_admin')).toBe('staff');
    expect(tabFromParam('audit', 'clinician')).toBe('patients');
    expect(tabFromParam('upload', 'front_desk')).toBe('patients');
    expect(tabFromParam('staff', undefined)).toBe('patients');
  });
});
