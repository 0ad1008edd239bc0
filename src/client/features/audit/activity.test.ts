import { describe, expect, it } from 'vitest';
import { activityDescription } from './activity';

describe('activity trail', () => {
  it('describes activity by its details, else by its action', () => {
    expect(activityDescription({ action: 'record_view', details: 'Viewed "Scan"' })).toBe('Viewed "Scan"');
    expect(activityDescription({ action: 'consent_change', details: null })).toBe(
      'Your sharing consent was changed',
    );
    expect(activityDescription({ action: 'odd_thing', details: '' })).toBe('odd thing action performed');
  });
});
