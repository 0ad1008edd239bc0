// The lists' tables: striped, scrolling sideways only below `minWidth`, a header row from
// `columns` (a column left out on small screens names the breakpoint from which it shows), and
// the rows as children. The sideways scroll is the browser's own (`type="native"`): Mantine's
// ScrollArea measures its box after every resize to decide on its scrollbars, and on the hospital
// dashboard's first load that forced a style and layout pass of the whole page (about 65 ms on a
// 4x slower CPU).
import { Table, type MantineBreakpoint, type TableProps } from '@mantine/core';
import type { ReactNode } from 'react';

export type Column = string | { label: string; visibleFrom: MantineBreakpoint };

type Props = TableProps & { columns: readonly Column[]; minWidth?: number; children: ReactNode };

export function ListTable({ columns, minWidth = 0, children, ...table }: Props) {
  return (
    <Table.ScrollContainer minWidth={minWidth} type="native">
      <Table striped highlightOnHover {...table}>
        <Table.Thead>
          <Table.Tr>
            {columns.map((c) =>
              typeof c === 'string' ? (
                <Table.Th key={c}>{c}</Table.Th>
              ) : (
                <Table.Th key={c.label} visibleFrom={c.visibleFrom}>
                  {c.label}
                </Table.Th>
              ),
            )}
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>{children}</Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}
