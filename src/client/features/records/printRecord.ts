// Print Record: a plain page with the record's details in a new window, then the print dialog.
import type { MedicalRecord } from '../../../shared/records';
import { departmentLabel, formatDateTime, recordTypeLabel } from '../../format';
import { escapeHtml as escape, printPage } from '../../print';

export function printRecord(record: MedicalRecord): boolean {
  const rows: [string, string][] = [
    ['Patient', `${record.patient.name} (${record.patient.mrn})`],
    ['Record type', recordTypeLabel(record.recordType)],
    ['Department', departmentLabel(record.department)],
    ['Doctor', record.doctorName ?? '—'],
    ['Provider', record.providerName ?? '—'],
    ['Created', formatDateTime(record.createdAt)],
    ['Description', record.description ?? '—'],
    ['Attachments', record.attachments.map((a) => a.fileName).join(', ') || 'None'],
    ['Ledger hash', record.blockchainHash ?? 'Not in the ledger (draft)'],
  ];
  return printPage(
    `Medical record: ${record.title}`,
    `<h1 style="font-family:sans-serif">${escape(record.title)}</h1>` +
      `<table style="font-family:sans-serif;border-collapse:collapse">` +
      rows
        .map(
          ([k, v]) =>
            `<tr><th style="text-align:left;padding:4px 12px 4px 0;vertical-align:top">${escape(k)}</th>` +
            `<td style="padding:4px 0;word-break:break-all">${escape(v)}</td></tr>`,
        )
        .join('') +
      `</table>`,
  );
}
