// Paging (docs/decisions.md#filters-and-paging): every list answers one page,
// `{items, total, page, pageSize}`, asked for with `?page=` (from 1) and `?pageSize=` (default 50,
// at most 100). Nothing is capped silently: `total` always counts the whole list.
import { z } from 'zod';
import { DEFAULT_PAGE_SIZE } from './constants.js';
import { decimalOnly } from './query-numbers.js';

export { pageCount, pageRange } from './page-range.js';

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
