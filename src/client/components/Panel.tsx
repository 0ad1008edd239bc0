// A bordered section of a page under its heading (the profile page's cards): the heading names
// the section for screen readers (aria-labelledby), `mb` is the space under the heading.
import { Paper, Title, type MantineSpacing, type PaperProps, type TitleOrder } from '@mantine/core';
import { useId, type ReactNode } from 'react';

type Props = PaperProps & {
  title: ReactNode;
  /** The section's name when it should say more than its heading ("Records of Maria Lopez"). */
  label?: string;
  order?: TitleOrder;
  mb?: MantineSpacing;
  id?: string;
  children: ReactNode;
};

export function Panel({ title, label, order = 2, mb = 'md', children, ...paper }: Props) {
  const headingId = useId();
  const name = label ? { 'aria-label': label } : { 'aria-labelledby': headingId };
  return (
    <Paper withBorder p="lg" radius="md" component="section" {...name} {...paper}>
      <Title order={order} fz="lg" mb={mb} id={headingId}>
        {title}
      </Title>
      {children}
    </Paper>
  );
}
