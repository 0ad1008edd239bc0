// One row of a list: what the item is (children), then its actions (buttons, badges). Where the row
// is too narrow for both side by side (a phone), the actions wrap below the text instead of
// squeezing it to a word per line or cutting a button's label.
import { Box, Group, type GroupProps } from '@mantine/core';
import type { ReactNode } from 'react';

interface Props {
  children: ReactNode;
  actions: ReactNode;
  /** The width the text keeps beside the actions; narrower than this, the actions go below. */
  textWidth?: string;
  align?: GroupProps['align'];
}

export function ListRow({ children, actions, textWidth = '14rem', align = 'center' }: Props) {
  return (
    <Group justify="space-between" align={align} gap="xs">
      <Box flex={`1 1 ${textWidth}`} miw={0}>
        {children}
      </Box>
      {actions}
    </Group>
  );
}
