// A bordered section of a page under its heading (the profile page's cards): the heading names
// the section for screen readers (aria-labelledby), `mb` is the space under the heading.
import { Paper, Title, type PaperProps, type MantineSpacing } from '@mantine/core';
import { useId, type ReactNode } from 'react';

type Props = PaperProps & { title: ReactNode; mb?: MantineSpacing; id?: string; children: ReactNode };

export function Panel({ title, mb = 'md', children, ...paper }: Props) {
  const headingId = useId();
  return (
    <Paper withBorder p="lg" radius="md" component="section" aria-labelledby={headingId} {...paper}>
      <Title order={2} fz="lg" mb={mb} id={headingId}>
        {title}
      </Title>
      {children}
    </Paper>
  );
}
