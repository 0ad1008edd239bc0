// The small buttons of lists and cards (Download, View, Share…): an icon hidden from screen readers,
// then the word. In a list, give an aria-label that names the item ("Download Blood test").
import { Button, type ButtonProps } from '@mantine/core';
import { IconDownload, type Icon } from '@tabler/icons-react';
import type { ComponentPropsWithoutRef } from 'react';

type Props = ButtonProps & Omit<ComponentPropsWithoutRef<'button'>, keyof ButtonProps> & { icon: Icon };

export function SmallButton({ icon: IconSvg, size = 'xs', variant = 'light', ...props }: Props) {
  return <Button size={size} variant={variant} leftSection={<IconSvg size={14} aria-hidden />} {...props} />;
}

/** "Download" in a list: named after what it downloads ("Download Blood test"). */
export function DownloadButton({ name, ...props }: Omit<Props, 'icon' | 'children'> & { name: string }) {
  return (
    <SmallButton icon={IconDownload} aria-label={`Download ${name}`} {...props}>
      Download
    </SmallButton>
  );
}
