// A list's filters, side by side: applied with the form's submit (Enter in the search box, or a
// Search button), while a FilterSelect applies its choice at once.
import { Group, Paper, Select, TextInput, type SelectProps } from '@mantine/core';
import { IconSearch } from '@tabler/icons-react';
import type { ReactNode } from 'react';

export function FilterBar({ onApply, children }: { onApply: () => void; children: ReactNode }) {
  return (
    <Paper withBorder p="md">
      <Group
        align="end"
        component="form"
        role="search"
        onSubmit={(e) => {
          e.preventDefault();
          onApply();
        }}
      >
        {children}
      </Group>
    </Paper>
  );
}

/** The free-text search of a list. */
export function SearchField(props: {
  label: string;
  placeholder: string;
  value: string;
  onChange: (value: string) => void;
}) {
  return (
    <TextInput
      style={{ flex: 1, minWidth: 200 }}
      label={props.label}
      placeholder={props.placeholder}
      leftSection={<IconSearch size={16} aria-hidden />}
      value={props.value}
      onChange={(e) => props.onChange(e.currentTarget.value)}
    />
  );
}

/** A choice among the list's values and "all" (the default): it can be changed, never emptied. */
export function FilterSelect({
  onChange,
  ...props
}: Omit<SelectProps, 'onChange' | 'allowDeselect'> & { onChange: (value: string) => void }) {
  return (
    <Select
      allowDeselect={false}
      comboboxProps={{ keepMounted: false }}
      {...props}
      onChange={(value) => onChange(value ?? 'all')}
    />
  );
}
