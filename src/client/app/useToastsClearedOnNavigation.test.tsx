// Toasts follow the page (issue 57): a change of path clears the toast on screen, but for one shown
// for that move, which survives it once.
import { act, screen, waitFor } from '@testing-library/react';
import { useLocation, useNavigate } from 'react-router';
import { describe, expect, it } from 'vitest';
import { notifySuccess } from '../notify';
import { renderApp } from '../test/render';
import { useToastsClearedOnNavigation } from './useToastsClearedOnNavigation';

function Pages() {
  const { pathname } = useLocation();
  const navigate = useNavigate();
  useToastsClearedOnNavigation(pathname);
  return (
    <>
      <button onClick={() => void navigate('/a')}>A</button>
      <button onClick={() => void navigate('/b')}>B</button>
    </>
  );
}

describe('toasts on navigation', () => {
  it('clears a toast on the next page, keeps one shown for the move only through that move', async () => {
    const { user } = renderApp(<Pages />);
    act(() => notifySuccess('Saved', 'Done.'));
    expect(await screen.findByText('Saved')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'A' }));
    await waitFor(() => expect(screen.queryByText('Saved')).not.toBeInTheDocument());

    act(() => notifySuccess('Account Created', 'You can now log in.', { keepOnNavigation: true }));
    await user.click(screen.getByRole('button', { name: 'B' }));
    expect(screen.getByText('Account Created')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'A' }));
    await waitFor(() => expect(screen.queryByText('Account Created')).not.toBeInTheDocument());
  });

  it('shows one toast at a time, the newer one', async () => {
    renderApp(<Pages />);
    act(() => {
      notifySuccess('First', 'one');
      notifySuccess('Second', 'two');
    });
    expect(await screen.findByText('Second')).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByText('First')).not.toBeInTheDocument());
    expect(screen.getAllByRole('alert')).toHaveLength(1);
  });
});
