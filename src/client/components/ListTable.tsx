// The lists' tables: striped, scrolling sideways only below `minWidth`, a header row from
// `columns` (a column left out on small screens names the breakpoint from which it shows), and
// the rows as children. The sideways scroll is the browser's own (`type="native"`): Mantine's
// ScrollArea measures its box after every resize to decide on its scrollbars, and on the hospital
// dashboard's first load that forced a style and layout pass of the whole page (about 65 ms on a
// 4x slower CPU).
import { Table, useMatches, type MantineBreakpoint, type TableProps } from '@mantine/core';
import { Children, startTransition, useEffect, useState, type ReactNode } from 'react';

export type Column = string | { label: string; visibleFrom: MantineBreakpoint };

type Props = TableProps & { columns: readonly Column[]; minWidth?: number; children: ReactNode };

const BREAKPOINTS: readonly MantineBreakpoint[] = ['xs', 'sm', 'md', 'lg', 'xl'];

/**
 * Whether the screen is at least as wide as a breakpoint, as Mantine's `visibleFrom` decides it.
 * A list renders the cells a narrow screen leaves out only on a wide one, instead of rendering them
 * hidden: on a phone, the patient list's hidden cells were a fifth of the hospital dashboard's
 * script time. Read while the list renders (read after it, the list would render twice on a wide
 * screen), and again when the window's width crosses a breakpoint.
 */
export function useScreenFrom(): (breakpoint: MantineBreakpoint) => boolean {
  const widest = useMatches(
    { base: -1, xs: 0, sm: 1, md: 2, lg: 3, xl: 4 },
    { getInitialValueInEffect: false },
  );
  return (breakpoint) => widest >= BREAKPOINTS.indexOf(breakpoint);
}

/** About a phone's screenful of rows, and most of a laptop's. */
const FIRST_ROWS = 10;

/**
 * The rows to render: the first time a list has more than a screenful, only that screenful, and the
 * rest right after in a transition. Committing a page of rows with its actions' buttons and icons
 * was the dashboard's longest task (with the style and layout pass after it); in two parts the
 * first rows show sooner and the browser can paint and take input between them.
 */
function useRowsByScreenful(children: ReactNode): ReactNode[] {
  const rows = Children.toArray(children);
  const [allRows, setAllRows] = useState(false);
  const cut = !allRows && rows.length > FIRST_ROWS;
  useEffect(() => {
    if (cut) startTransition(() => setAllRows(true));
  }, [cut]);
  return cut ? rows.slice(0, FIRST_ROWS) : rows;
}

export function ListTable({ columns, minWidth = 0, children, ...table }: Props) {
  const screenFrom = useScreenFrom();
  const rows = useRowsByScreenful(children);
  return (
    <Table.ScrollContainer minWidth={minWidth} type="native">
      <Table striped highlightOnHover {...table}>
        <Table.Thead>
          <Table.Tr>
            {columns.map((c) =>
              typeof c === 'string' ? (
                <Table.Th key={c}>{c}</Table.Th>
              ) : (
                screenFrom(c.visibleFrom) && <Table.Th key={c.label}>{c.label}</Table.Th>
              ),
            )}
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>{rows}</Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}
