// A record in a list, as the button that opens it: its icon, its title and what the list says
// under the title (children). Lists put it in a ListRow beside the record's actions.
import { Group, Text, UnstyledButton } from '@mantine/core';
import { IconFileText } from '@tabler/icons-react';
import type { ReactNode } from 'react';

interface Props {
  title: string;
  onOpen: () => void;
  children: ReactNode;
  /** The patient's list shows a larger icon. */
  large?: boolean;
}

export function OpenRecordButton({ title, onOpen, children, large }: Props) {
  return (
    <UnstyledButton onClick={onOpen} aria-label={`Open ${title}`} w="100%">
      <Group gap={large ? 'sm' : 'xs'} wrap="nowrap" align={large ? 'start' : undefined}>
        <IconFileText size={large ? 22 : 18} aria-hidden style={{ flexShrink: 0 }} />
        <div style={{ minWidth: 0 }}>
          <Text fw={500} lineClamp={2}>
            {title}
          </Text>
          {children}
        </div>
      </Group>
    </UnstyledButton>
  );
}
