import { Group, Text, ThemeIcon } from '@mantine/core';
import { IconShieldHeart } from '@tabler/icons-react';
import { BRAND } from '../../shared/constants';
import classes from './Logo.module.css';

/**
 * The MedLedger mark and name; decorative icon, the name is the text. `nameWhenWide`: the name is
 * left out below 360 px (the header's, whose link is named).
 */
export function Logo({ size = 'md', nameWhenWide }: { size?: 'sm' | 'md' | 'lg'; nameWhenWide?: boolean }) {
  const iconSize = { sm: 28, md: 34, lg: 48 }[size];
  return (
    <Group gap="xs" wrap="nowrap">
      <ThemeIcon size={iconSize} radius="md" variant="gradient" gradient={{ from: 'teal', to: 'blue' }}>
        <IconShieldHeart size={iconSize * 0.65} aria-hidden />
      </ThemeIcon>
      <Text
        fw={700}
        fz={size === 'lg' ? 28 : size === 'md' ? 'xl' : 'md'}
        c="dark.7"
        className={nameWhenWide ? classes.nameWhenWide : undefined}
      >
        {BRAND}
      </Text>
    </Group>
  );
}
