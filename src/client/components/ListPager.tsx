// The footer of every paged list (docs/decisions.md#filters-and-paging): "Showing a–b of N ..." and
// Mantine's Pagination, whose first and last controls are named Previous and Next. The count is
// the server's total, so nothing is ever capped silently.
import { Group, Pagination, Text } from '@mantine/core';
import { pageCount, pageRange } from '../../shared/paging';
import { showingRange } from '../format';

interface ListPagerProps {
  page: number;
  pageSize: number;
  /** Items on this page. */
  shown: number;
  /** Items in the whole list (the server's `total`). */
  total: number;
  /** What the list holds, singular and plural ("patient", "patients"). */
  one: string;
  other: string;
  onPage: (page: number) => void;
  /** Padding of the footer (tables inside a Paper use "md"). */
  p?: string;
}

const controlNames = (control: 'first' | 'previous' | 'last' | 'next') =>
  control === 'previous' ? { 'aria-label': 'Previous' } : control === 'next' ? { 'aria-label': 'Next' } : {};

export function ListPager({ page, pageSize, shown, total, one, other, onPage, p }: ListPagerProps) {
  const range = pageRange(page, pageSize, shown, total);
  const pages = pageCount(total, pageSize);
  return (
    <Group justify="space-between" p={p} mt={p ? undefined : 'md'}>
      <Text size="sm" c="dimmed" aria-live="polite">
        {showingRange(range, one, other)}
      </Text>
      {pages > 1 && (
        <Pagination
          size="sm"
          total={pages}
          value={Math.min(page, pages)}
          onChange={onPage}
          getControlProps={controlNames}
        />
      )}
    </Group>
  );
}
