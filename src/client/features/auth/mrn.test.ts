import { describe, expect, it } from 'vitest';
import { mrnPlaceholder, normalizeMrnInput } from './mrn';

describe('MRN field', () => {
  it('upper-cases what is typed', () => {
    expect(normalizeMrnInput('mrn2026abc')).toBe('MRN2026ABC');
  });

  it('drops spaces pasted with the number', () => {
    expect(normalizeMrnInput(' mrn 2026 123456 ')).toBe('MRN2026123456');
  });

  it('shows MRN, the current year and digits as placeholder', () => {
    expect(mrnPlaceholder(new Date('2031-05-01T12:00:00Z'))).toBe('MRN2031123456');
  });
});
