// The footer of every paged list (docs/decisions.md#filters-and-paging): "Showing a–b of N ..." and
// Mantine's Pagination, whose first and last controls are named Previous and Next. The count is
// the server's total, so nothing is ever capped silently.
import { Group, Pagination, Text } from '@mantine/core';
import { DEFAULT_PAGE_SIZE } from '../../shared/constants';
import { pageCount, pageRange } from '../../shared/page-range';
import { showingRange } from '../format';

interface ListPagerProps {
  /** The page shown; by default the one the server answered with. */
  page?: number;
  /** The server's page: its items, its size and the whole list's `total`; none while loading. */
  list: { page?: number; pageSize: number; total: number; items: readonly unknown[] } | undefined;
  /** No footer at all while the list is empty or loading (lists inside cards and dialogs). */
  hideEmpty?: boolean;
  /** What the list holds, singular and plural ("patient", "patients"). */
  one: string;
  other: string;
  onPage: (page: number) => void;
  /** Padding of the footer (tables inside a Paper use "md"). */
  p?: string;
}

const controlNames = (control: 'first' | 'previous' | 'last' | 'next') =>
  control === 'previous' ? { 'aria-label': 'Previous' } : control === 'next' ? { 'aria-label': 'Next' } : {};

export function ListPager({ page: shown, list, one, other, onPage, p, hideEmpty }: ListPagerProps) {
  if (hideEmpty && !list?.total) return null;
  const page = shown ?? list?.page ?? 1;
  const pageSize = list?.pageSize ?? DEFAULT_PAGE_SIZE;
  const total = list?.total ?? 0;
  const range = pageRange(page, pageSize, list?.items.length ?? 0, total);
  const pages = pageCount(total, pageSize);
  return (
    // Empty and without padding until the page is in (the status under the table says it is
    // loading, or why it failed), not "No patients" meanwhile: the count then arrives into this
    // live region, which is announced, and a footer of no size is not a layout shift when the rows
    // push it down.
    <Group justify="space-between" p={list ? p : 0} mt={list && !p ? 'md' : undefined}>
      <Text size="sm" c="dimmed" aria-live="polite">
        {list ? showingRange(range, one, other) : null}
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
