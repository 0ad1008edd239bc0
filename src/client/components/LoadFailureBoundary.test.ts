import { describe, expect, it } from 'vitest';
import { failureMessage } from './LoadFailureBoundary';

describe('failureMessage', () => {
  it('names a chunk that could not be loaded, in the words of each browser and of Vite', () => {
    for (const message of [
      'Failed to fetch dynamically imported module: https://x.test/assets/VerifyPage-abc.js',
      'error loading dynamically imported module: https://x.test/assets/a.js',
      'Importing a module script failed.',
      'Unable to preload CSS for /assets/WorkspaceProviders-abc.css',
    ]) {
      expect(failureMessage(new TypeError(message)).title).toBe('This part of MedLedger could not be loaded');
    }
  });

  it('does not blame the connection for a fault of the page itself', () => {
    expect(failureMessage(new TypeError("Cannot read properties of undefined (reading 'id')"))).toEqual({
      title: 'Something went wrong here',
      text: 'Reload the page to try again.',
    });
    expect(failureMessage('thrown string').title).toBe('Something went wrong here');
  });
});
