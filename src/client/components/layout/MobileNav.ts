import { createContext, useContext } from 'react';

/** The hospital's mobile menu (sidebar as a slide-in on small screens), toggled from the header. */
export interface MobileNavState {
  opened: boolean;
  toggle: () => void;
  close: () => void;
  /** True when the current page has a sidebar to toggle. */
  available: boolean;
}

const closed: MobileNavState = { opened: false, toggle: () => {}, close: () => {}, available: false };

export const MobileNavContext = createContext<MobileNavState>(closed);

export function useMobileNav(): MobileNavState {
  return useContext(MobileNavContext);
}
