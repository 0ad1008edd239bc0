// The Previous / Next buttons under every paged list (patients, audit trail, activity trail).
import { Button, Group } from '@mantine/core';
import type { Dispatch, SetStateAction } from 'react';

interface PagerButtonsProps {
  page: number;
  hasNext: boolean;
  setPage: Dispatch<SetStateAction<number>>;
}

export function PagerButtons({ page, hasNext, setPage }: PagerButtonsProps) {
  return (
    <Group gap="xs">
      <Button variant="default" size="xs" disabled={page <= 1} onClick={() => setPage((n) => n - 1)}>
        Previous
      </Button>
      <Button variant="default" size="xs" disabled={!hasNext} onClick={() => setPage((n) => n + 1)}>
        Next
      </Button>
    </Group>
  );
}
