import { createTheme } from '@mantine/core';

export const theme = createTheme({
  primaryColor: 'teal',
  defaultRadius: 'md',
  // Focus ring on keyboard focus (focus-visible), never hidden.
  focusRing: 'auto',
  fontFamily: 'system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif',
  components: {
    // Spec section 9: tooltip open delay 700 ms.
    Tooltip: { defaultProps: { openDelay: 700 } },
  },
});
