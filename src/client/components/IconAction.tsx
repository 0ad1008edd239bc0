// An icon-only button: `label` is its accessible name (say what it acts on in a list: "Edit Ann
// Lee"), `tip` an optional tooltip for sighted users. The icon itself is hidden from screen readers.
import { ActionIcon, Tooltip, type ActionIconProps } from '@mantine/core';
import type { Icon } from '@tabler/icons-react';
import { useRef, useState, type ComponentPropsWithoutRef, type ReactNode } from 'react';

type Props = ActionIconProps &
  Omit<ComponentPropsWithoutRef<'button'>, keyof ActionIconProps | 'aria-label'> & {
    icon: Icon;
    label: string;
    tip?: ReactNode;
    iconSize?: number;
  };

/** Why the tip shows: the pointer is over the button, or it has keyboard focus. */
type TipCause = { hover: boolean; focus: boolean };

export function IconAction({
  icon: IconSvg,
  label,
  tip,
  iconSize = 16,
  variant = 'subtle',
  ...props
}: Props) {
  const ref = useRef<HTMLButtonElement>(null);
  // A Tooltip sets up its positioning and listeners as soon as it is rendered, which across a list's
  // rows cost more than the list itself (a third of the hospital dashboard's first render). So the
  // tip is rendered from the first hover or keyboard focus on, beside the button (`target`), which
  // stays the same element, and shows while the pointer is over it or it has keyboard focus.
  const [cause, setCause] = useState<TipCause | null>(null);
  const update = (next: Partial<TipCause>) =>
    setCause((current) => ({ hover: false, focus: false, ...current, ...next }));
  const tipEvents = tip
    ? {
        onMouseEnter: () => update({ hover: true }),
        onMouseLeave: () => update({ hover: false }),
        // As Mantine's own tooltips: keyboard focus shows the tip, a click's focus does not.
        onFocus: (event: { currentTarget: HTMLElement }) => {
          if (event.currentTarget.matches(':focus-visible')) update({ focus: true });
        },
        onBlur: () => update({ focus: false }),
        onKeyDown: (event: { key: string }) => {
          if (event.key === 'Escape') update({ hover: false, focus: false });
        },
      }
    : {};
  return (
    <>
      <ActionIcon ref={ref} variant={variant} aria-label={label} {...props} {...tipEvents}>
        <IconSvg size={iconSize} aria-hidden />
      </ActionIcon>
      {tip && cause && <Tooltip target={ref} label={tip} opened={cause.hover || cause.focus} />}
    </>
  );
}
