import { describe, expect, it } from 'vitest';
import { displayName, joinedDisplayName, joinNames } from './users';

describe('joinNames', () => {
  it('joins first and last name with one space', () => {
    expect(joinNames('Ada', 'Lovelace')).toBe('Ada Lovelace');
  });

  it('leaves out a missing, empty or blank name, and gives "" when both are', () => {
    expect(joinNames('Ada', null)).toBe('Ada');
    expect(joinNames(undefined, 'Lovelace')).toBe('Lovelace');
    expect(joinNames('  ', 'Lovelace')).toBe('Lovelace');
    expect(joinNames('Ada', '')).toBe('Ada');
    expect(joinNames(' ', '\t')).toBe('');
    expect(joinNames(null, null)).toBe('');
  });
});

describe('displayName', () => {
  it("show a user's names, else their e-mail", () => {
    expect(displayName({ firstName: 'Ada', lastName: 'Lovelace', email: 'ada@example.test' })).toBe(
      'Ada Lovelace',
    );
    expect(displayName({ firstName: ' ', lastName: null, email: 'ada@example.test' })).toBe(
      'ada@example.test',
    );
  });
});

describe('joinedDisplayName', () => {
  it("shows a joined user's names, else their e-mail, and null when the join found no one", () => {
    expect(joinedDisplayName({ firstName: 'Ada', lastName: null, email: 'ada@example.test' })).toBe('Ada');
    expect(joinedDisplayName({ firstName: null, lastName: ' ', email: 'ada@example.test' })).toBe(
      'ada@example.test',
    );
    expect(joinedDisplayName({ firstName: null, lastName: null, email: null })).toBeNull();
    expect(joinedDisplayName(null)).toBeNull();
  });
});
