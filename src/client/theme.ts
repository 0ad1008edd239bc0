import { createTheme, darken, type CSSVariablesResolver } from '@mantine/core';

export const theme = createTheme({
  primaryColor: 'teal',
  // Filled buttons and links in the darkest shade: white on teal.9 and teal.9 on white both pass
  // WCAG AA (4.5:1); Mantine's default shade 6 gives 2.6:1.
  primaryShade: { light: 9, dark: 8 },
  defaultRadius: 'md',
  // Focus ring on keyboard focus (focus-visible), never hidden.
  focusRing: 'auto',
  fontFamily: 'system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif',
  components: {
    // docs/spec.md#constants: tooltip open delay 700 ms.
    Tooltip: { defaultProps: { openDelay: 700 } },
    // Every clear (x) button of a clearable field has a name a screen reader can say.
    Select: { defaultProps: { clearButtonProps: { 'aria-label': 'Clear selection' } } },
    DatePickerInput: { defaultProps: { clearButtonProps: { 'aria-label': 'Clear date' } } },
    DateInput: { defaultProps: { clearButtonProps: { 'aria-label': 'Clear date' } } },
    // And every dialog's close (x) button (Mantine's has no name of its own).
    Modal: { defaultProps: { closeButtonProps: { 'aria-label': 'Close dialog' } } },
    // And every toast's (@mantine/notifications renders each as a Notification).
    Notification: { defaultProps: { closeButtonProps: { 'aria-label': 'Close notification' } } },
  },
});

/**
 * Text in a colour (a warning, a state) that passes WCAG AA on white: the shade the resolver below
 * gives light variants. Mantine's orange.9 is 4.3:1, green.8 3.5:1, teal.8 4.0:1.
 */
export const readableText = (color: string) => `var(--mantine-color-${color}-light-color)`;

/**
 * Text contrast to WCAG AA in the light scheme: dimmed and placeholder text in gray.7 (Mantine's gray.6 is 3.3:1 on
 * white) and the text of "light" variants (badges, light buttons, avatars) darkened below shade 9.
 */
export const cssVariablesResolver: CSSVariablesResolver = (current) => ({
  variables: {},
  light: {
    '--mantine-color-dimmed': current.colors.gray[7],
    // Placeholders too (e.g. a FileInput's, which axe checks as text): gray.5 is 2.6:1 on white.
    '--mantine-color-placeholder': current.colors.gray[7],
    ...Object.fromEntries(
      Object.entries(current.colors).map(([name, shades]) => [
        `--mantine-color-${name}-light-color`,
        darken(shades[9], 0.25),
      ]),
    ),
  },
  dark: {},
});
