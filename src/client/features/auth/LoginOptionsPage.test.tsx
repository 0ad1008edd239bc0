// The landing page links to the public record check (issue 57).
import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { renderApp } from '../../test/render';
import LoginOptionsPage from './LoginOptionsPage';

describe('LoginOptionsPage', () => {
  it('links to /verify', () => {
    renderApp(<LoginOptionsPage />);
    expect(screen.getByRole('link', { name: 'Verify a record' })).toHaveAttribute('href', '/verify');
  });
});
