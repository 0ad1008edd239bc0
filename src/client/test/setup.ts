// Component tests (the `dom` project of vitest.config.ts): jest-dom's matchers, a clean document,
// local storage and network fake after each test, and what happy-dom lacks for Mantine.
import '@testing-library/jest-dom/vitest';
import { cleanup } from '@testing-library/react';
import { afterEach, vi } from 'vitest';

afterEach(() => {
  cleanup();
  localStorage.clear();
  vi.unstubAllGlobals();
});

// Mantine's Combobox scrolls the selected option into view; happy-dom has no layout.
Element.prototype.scrollIntoView ??= () => undefined;
// Mantine's autosizing Textarea listens for web fonts loading; happy-dom has no document.fonts.
if (!('fonts' in document)) Object.defineProperty(document, 'fonts', { value: new EventTarget() });
