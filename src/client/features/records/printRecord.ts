// Print Record: a plain page with the record's details in a new window, then the print dialog.
import type { MedicalRecord } from '../../../shared/records';
import { departmentLabel, formatDateTime, recordTypeLabel } from '../../format';

const escape = (text: string) =>
  text.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c,
  );

export function printRecord(record: MedicalRecord): boolean {
  const win = window.open('', '_blank', 'width=800,height=900');
  if (!win) return false;
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
  win.document.title = `Medical record: ${record.title}`;
  win.document.body.innerHTML =
    `<h1 style="font-family:sans-serif">${escape(record.title)}</h1>` +
    `<table style="font-family:sans-serif;border-collapse:collapse">` +
    rows
      .map(
        ([k, v]) =>
          `<tr><th style="text-align:left;padding:4px 12px 4px 0;vertical-align:top">${escape(k)}</th>` +
          `<td style="padding:4px 0;word-break:break-all">${escape(v)}</td></tr>`,
      )
      .join('') +
    `</table>`;
  win.focus();
  win.print();
  return true;
}
