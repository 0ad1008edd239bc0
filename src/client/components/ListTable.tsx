// The lists' tables: striped, scrolling sideways only below `minWidth`, a header row from
// `columns` (a column left out on small screens names the breakpoint from which it shows), and
// the rows as children.
import { Table, type MantineBreakpoint, type TableProps } from '@mantine/core';
import type { ReactNode } from 'react';

export type Column = string | { label: string; visibleFrom: MantineBreakpoint };

type Props = TableProps & { columns: readonly Column[]; minWidth?: number; children: ReactNode };

export function ListTable({ columns, minWidth = 0, children, ...table }: Props) {
  return (
    <Table.ScrollContainer minWidth={minWidth}>
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
