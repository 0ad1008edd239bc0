// The trails' "Date" filter (the hospital's audit trail, the patient's activity trail): one
// calendar day as YYYY-MM-DD, or every day when cleared.
import { DateInput } from '@mantine/dates';

export function DayFilter({
  value,
  onChange,
}: {
  value: string | null;
  onChange: (day: string | null) => void;
}) {
  return (
    <DateInput
      label="Date"
      w={180}
      valueFormat="YYYY-MM-DD"
      clearable
      placeholder="Any date"
      value={value}
      onChange={onChange}
    />
  );
}
