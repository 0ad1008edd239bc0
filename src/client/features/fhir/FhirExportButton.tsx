// A plain link to the FHIR export: the browser downloads the bundle with the session cookie, so no
// script holds the whole record in memory and the file keeps the server's name.
import { Button, type ButtonProps } from '@mantine/core';
import { IconFileExport } from '@tabler/icons-react';

export const fhirExportUrl = (patientRowId: string) =>
  `/api/fhir/Patient/${encodeURIComponent(patientRowId)}/$everything`;

export function FhirExportButton({
  patientRowId,
  label,
  ...props
}: ButtonProps & { patientRowId: string; label: string }) {
  return (
    <Button
      component="a"
      href={fhirExportUrl(patientRowId)}
      download
      variant="default"
      leftSection={<IconFileExport size={14} aria-hidden />}
      {...props}
    >
      {label}
    </Button>
  );
}
