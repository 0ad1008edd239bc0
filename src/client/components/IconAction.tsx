// An icon-only button: `label` is its accessible name (say what it acts on in a list: "Edit Ann
// Lee"), `tip` an optional tooltip for sighted users. The icon itself is hidden from screen readers.
import { ActionIcon, Tooltip, type ActionIconProps } from '@mantine/core';
import type { Icon } from '@tabler/icons-react';
import type { ComponentPropsWithoutRef, ReactNode } from 'react';

type Props = ActionIconProps &
  Omit<ComponentPropsWithoutRef<'button'>, keyof ActionIconProps | 'aria-label'> & {
    icon: Icon;
    label: string;
    tip?: ReactNode;
    iconSize?: number;
  };

export function IconAction({
  icon: IconSvg,
  label,
  tip,
  iconSize = 16,
  variant = 'subtle',
  ...props
}: Props) {
  const button = (
    <ActionIcon variant={variant} aria-label={label} {...props}>
      <IconSvg size={iconSize} aria-hidden />
    </ActionIcon>
  );
  return tip ? <Tooltip label={tip}>{button}</Tooltip> : button;
}
