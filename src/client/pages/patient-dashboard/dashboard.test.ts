import { describe, expect, it } from 'vitest';
import { newNotificationCount, verifiedCount } from './dashboard';

const records = [
  { createdAt: '2025-01-01T10:00:00.000Z', isBlockchainVerified: true },
  { createdAt: '2025-01-03T10:00:00.000Z', isBlockchainVerified: false },
  { createdAt: '2025-01-05T10:00:00.000Z', isBlockchainVerified: true },
];

describe('patient dashboard stats', () => {
  it('counts records created after the last sign-in as new, all of them without one', () => {
    expect(newNotificationCount(records, '2025-01-02T00:00:00.000Z')).toBe(2);
    expect(newNotificationCount(records, '2025-01-05T10:00:00.000Z')).toBe(0);
    expect(newNotificationCount(records, null)).toBe(3);
  });

  it('counts verified records', () => {
    expect(verifiedCount(records)).toBe(2);
    expect(verifiedCount([])).toBe(0);
  });
});
