// Downloading attachments: fetched with the session cookie, saved under the original file name.
import type { Attachment, MedicalRecord } from '../../../shared/records';
import { ApiError, errorStatus } from '../../api/request';
import { notifyError, notifySuccess } from '../../notify';

/**
 * The attachment's bytes, through the download route (its access check, audit and integrity
 * check: a file that fails it is broken off, and reading the body then fails).
 */
export async function fetchAttachment(attachment: Pick<Attachment, 'url'>): Promise<Blob> {
  const res = await fetch(attachment.url, { credentials: 'include' });
  if (!res.ok) throw new ApiError(res.status, res.statusText, await res.text().catch(() => ''));
  return res.blob();
}

async function saveAttachment(attachment: Pick<Attachment, 'url' | 'fileName'>) {
  const blob = await fetchAttachment(attachment);
  const href = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = href;
  link.download = attachment.fileName;
  document.body.appendChild(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(href), 60_000);
}

function reportFailure(error: unknown) {
  if (errorStatus(error) === 404) notifyError('Download Failed', 'File not available');
  else notifyError('Download Failed', 'Unable to download the file. Please try again.');
}

/** One attachment (the attachment list's download buttons). */
export async function downloadAttachment(attachment: Pick<Attachment, 'url' | 'fileName'>) {
  try {
    await saveAttachment(attachment);
    notifySuccess('Download Started', 'Your medical record is being downloaded.');
  } catch (error) {
    reportFailure(error);
  }
}

/** Every attachment of a record ("Download Record", "Download" in lists). */
export async function downloadRecord(record: Pick<MedicalRecord, 'attachments' | 'title'>) {
  if (record.attachments.length === 0) {
    notifyError('Download Unavailable', "This record doesn't have an associated file to download.");
    return;
  }
  try {
    for (const attachment of record.attachments) {
      await saveAttachment({ url: attachment.url, fileName: attachment.fileName || `${record.title}.pdf` });
    }
    notifySuccess('Download Started', 'Your medical record is being downloaded.');
  } catch (error) {
    reportFailure(error);
  }
}

/** A file name made of the title's letters and digits. */
const slug = (title: string) =>
  title
    .normalize('NFKD')
    .replace(/[^A-Za-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .toLowerCase()
    .slice(0, 60) || 'record';

/** The record's ledger receipt (JSON), to keep and check later on /verify or with the CLI. */
export async function downloadReceipt(record: Pick<MedicalRecord, 'id' | 'title'>) {
  try {
    await saveAttachment({
      url: `/api/medical-records/${encodeURIComponent(record.id)}/receipt`,
      fileName: `medledger-receipt-${slug(record.title)}.json`,
    });
    notifySuccess('Receipt Downloaded', 'Keep it with the record: /verify checks it, even offline.');
  } catch (error) {
    if (errorStatus(error) === 404)
      notifyError('Receipt Unavailable', 'This record is not in the ledger yet.');
    else notifyError('Download Failed', 'Unable to download the receipt. Please try again.');
  }
}

/** The list's Download: GET /api/download/<last segment of fileUrl>, saved as fileName or "<title>.pdf". */
export function recordDownload(record: Pick<MedicalRecord, 'fileUrl' | 'fileName' | 'title'>) {
  const last = record.fileUrl?.split('/').filter(Boolean).pop();
  if (!last) return null;
  return {
    url: `/api/download/${encodeURIComponent(last)}`,
    fileName: record.fileName || `${record.title}.pdf`,
  };
}
