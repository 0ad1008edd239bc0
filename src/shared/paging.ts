// Paging (docs/decisions.md#filters-and-paging): every list answers one page,
// `{items, total, page, pageSize}`, asked for with `?page=` (from 1) and `?pageSize=` (default 50,
// at most 100). Nothing is capped silently: `total` always counts the whole list.
import { z } from 'zod';
import { DEFAULT_PAGE_SIZE } from './constants.js';
import { decimalOnly } from './query-numbers.js';

export const MAX_PAGE_SIZE = 100;

const pageNumber = z.coerce
  .number({ error: 'page must be a number' })
  .int('page must be a whole number')
  .min(1, 'page must be at least 1')
  .max(100_000, 'page is too large')
  .default(1);
const pageSizeNumber = z.coerce
  .number({ error: 'pageSize must be a number' })
  .int('pageSize must be a whole number')
  .min(1, 'pageSize must be at least 1')
  .max(MAX_PAGE_SIZE, `pageSize must be at most ${MAX_PAGE_SIZE}`)
  .default(DEFAULT_PAGE_SIZE);

/** `?page=&pageSize=` of every paged list; bad values are a 400 naming the parameter. */
export const pagingQuerySchema = z.object({
  page: decimalOnly(pageNumber),
  pageSize: decimalOnly(pageSizeNumber),
});
export type PagingQuery = z.infer<typeof pagingQuerySchema>;

/** The paged list shape of every paged list (our decision; the spec says "list of ..."). */
export const pagedSchema = <T extends z.ZodTypeAny>(item: T) =>
  z
    .object({
      items: z.array(item),
      total: z.number().int(),
      page: z.number().int(),
      pageSize: z.number().int(),
    })
    .describe('A page of results: items, the total count, the page number (from 1) and the page size.');
export interface Paged<T> {
  items: T[];
  total: number;
  page: number;
  pageSize: number;
}

/** "Showing a-b of N" for a page (0 items: "Showing 0-0 of 0"). */
export function pageRange(page: number, pageSize: number, shown: number, total: number) {
  const from = shown === 0 ? 0 : (page - 1) * pageSize + 1;
  return { from, to: shown === 0 ? 0 : from + shown - 1, total };
}

/** The number of pages of a list (at least 1, so an empty list still has page 1). */
export const pageCount = (total: number, pageSize: number) => Math.max(1, Math.ceil(total / pageSize));
