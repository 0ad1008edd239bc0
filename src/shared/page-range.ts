// What a list's footer and pager show of a page (docs/decisions.md#filters-and-paging), apart from
// paging.ts's schemas so that a page showing a list does not load Zod for it.

/** "Showing a-b of N" for a page (0 items: "Showing 0-0 of 0"). */
export function pageRange(page: number, pageSize: number, shown: number, total: number) {
  const from = shown === 0 ? 0 : (page - 1) * pageSize + 1;
  return { from, to: shown === 0 ? 0 : from + shown - 1, total };
}

/** The number of pages of a list (at least 1, so an empty list still has page 1). */
export const pageCount = (total: number, pageSize: number) => Math.max(1, Math.ceil(total / pageSize));
