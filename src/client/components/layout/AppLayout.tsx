// Frame of the signed-in pages: shared header, optional sidebar (a slide-in menu on small screens,
// toggled from the header), main content and the shared footer.
import { AppShell, Box, em } from '@mantine/core';
import { useDisclosure, useMediaQuery } from '@mantine/hooks';
import { useMemo, type ReactNode } from 'react';
import { AppFooter } from './AppFooter';
import { AppHeader } from './AppHeader';
import { MobileNavContext, type MobileNavState } from './MobileNav';
import { SkipLink } from './SkipLink';

interface AppLayoutProps {
  children: ReactNode;
  /** Sidebar content; read `useMobileNav().close` to close the slide-in after a choice. */
  navbar?: ReactNode;
}

export function AppLayout({ children, navbar }: AppLayoutProps) {
  const [opened, { toggle, close }] = useDisclosure(false);
  // Below the 'sm' breakpoint a closed sidebar is off-screen: keep it out of the tab order too.
  // Read while rendering: read in an effect (the hook's default), a phone's first render was false
  // and the effect's true rendered the whole frame again, header included, in the task that
  // committed the page.
  const isMobile = useMediaQuery(`(max-width: ${em(767.98)})`, undefined, {
    getInitialValueInEffect: false,
  });
  const mobileNav = useMemo<MobileNavState>(
    () => ({ opened, toggle, close, available: Boolean(navbar) }),
    [opened, toggle, close, navbar],
  );

  return (
    <MobileNavContext.Provider value={mobileNav}>
      <SkipLink />
      <AppShell
        header={{ height: 64 }}
        navbar={navbar ? { width: 250, breakpoint: 'sm', collapsed: { mobile: !opened } } : undefined}
        padding="md"
      >
        <AppShell.Header>
          <AppHeader />
        </AppShell.Header>
        {navbar && (
          <AppShell.Navbar
            p="md"
            id="app-navbar"
            aria-label="Dashboard navigation"
            inert={isMobile && !opened}
          >
            {navbar}
          </AppShell.Navbar>
        )}
        <AppShell.Main id="main-content" tabIndex={-1}>
          {/* The footer starts below the first screen, so content arriving above it never makes
              it jump in view (layout shift). */}
          <Box mih="calc(100dvh - 64px)">{children}</Box>
          <AppFooter />
        </AppShell.Main>
      </AppShell>
    </MobileNavContext.Provider>
  );
}
