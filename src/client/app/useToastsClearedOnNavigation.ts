// A toast belongs to the page it was shown on (issue 57): the app clears it when the path changes,
// but for one shown for that move (notify.ts, `keepOnNavigation`).
import { useEffect, useRef } from 'react';
import { clearToastsOnNavigation } from '../notify';

/** A toast belongs to its page: a change of path clears it (but for one shown for the move). */
export function useToastsClearedOnNavigation(pathname: string) {
  const previous = useRef(pathname);
  useEffect(() => {
    if (previous.current === pathname) return;
    previous.current = pathname;
    clearToastsOnNavigation();
  }, [pathname]);
}
