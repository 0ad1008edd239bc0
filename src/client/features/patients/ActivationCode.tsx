// The patient's one-time activation code (docs/decisions.md#identity), shown to the hospital once:
// right after Add Patient, or after "New Activation Code" in the patient's details. Print gives a
// sheet to hand over; Copy puts MRN, code and link on the clipboard.
import { Alert, Button, Code, Group, Stack, Text } from '@mantine/core';
import { AppModal } from '../../components/AppModal';
import { IconCopy, IconPrinter } from '@tabler/icons-react';
import { activationLink, type IssuedActivationCode } from '../../../shared/activation';
import { formatDate } from '../../format';
import { copyWithToast } from '../../notify';
import { escapeHtml } from '../../print';

export interface ActivationDetails extends IssuedActivationCode {
  patientName: string;
  mrn: string;
}

function sheetText(d: ActivationDetails, link: string) {
  return [
    `MedLedger patient account for ${d.patientName}`,
    `Medical Record Number: ${d.mrn}`,
    `Activation code: ${d.activationCode}`,
    `Valid until: ${formatDate(d.activationCodeExpiresAt)} (usable once)`,
    `Create your account at: ${link}`,
  ];
}

/** Prints a one-page sheet from a hidden frame, so the dashboard itself is not printed. */
function printSheet(d: ActivationDetails, link: string) {
  const frame = document.createElement('iframe');
  frame.setAttribute('aria-hidden', 'true');
  frame.style.position = 'fixed';
  frame.style.width = '0';
  frame.style.height = '0';
  frame.style.border = '0';
  document.body.appendChild(frame);
  const [title, ...lines] = sheetText(d, link).map(escapeHtml);
  const doc = frame.contentDocument;
  if (!doc || !frame.contentWindow) {
    frame.remove();
    return;
  }
  doc.open();
  doc.write(
    `<!doctype html><html><head><title>MedLedger activation</title></head>` +
      `<body style="font-family:sans-serif;line-height:1.6;padding:2em"><h1 style="font-size:1.4em">${title}</h1>` +
      lines.map((l) => `<p>${l}</p>`).join('') +
      `<p>Keep this code private: with the MRN it opens the patient's records.</p></body></html>`,
  );
  doc.close();
  frame.contentWindow.focus();
  frame.contentWindow.print();
  setTimeout(() => frame.remove(), 1000);
}

/** The code, its validity and what to do with it; Print and Copy. */
export function ActivationCodeView({
  details,
  onDone,
  replaced = false,
}: {
  details: ActivationDetails;
  onDone: () => void;
  /** A new code for a patient who had one: say that the earlier one no longer works. */
  replaced?: boolean;
}) {
  const link = activationLink(window.location.origin, details.mrn, details.activationCode);

  const copy = () =>
    copyWithToast(
      sheetText(details, link).join('\n'),
      {
        title: 'Activation Code Copied',
        message: 'The MRN, the activation code and the link are on your clipboard.',
      },
      'The browser did not allow copying. Please write the code down or print it.',
    );

  return (
    <Stack>
      <Text size="sm">
        Give {details.patientName} their Medical Record Number and this one-time activation code. They need
        both to create their patient account. The code is shown only now.
        {replaced && ' Any earlier activation code of this patient no longer works.'}
      </Text>
      <Stack component="section" gap={4} aria-label="Activation details">
        <Text size="sm">
          Medical Record Number: <Code fz="md">{details.mrn}</Code>
        </Text>
        <Text size="sm">
          Activation code:{' '}
          <Code fz="xl" fw={700} data-testid="activation-code">
            {details.activationCode}
          </Code>
        </Text>
        <Text size="sm" c="dimmed">
          Valid until {formatDate(details.activationCodeExpiresAt)}; it works once.
        </Text>
      </Stack>
      {details.activationLinkEmailed && (
        <Alert color="blue" variant="light">
          An activation link was e-mailed to the address on file.
        </Alert>
      )}
      <Group justify="space-between">
        <Group gap="xs">
          <Button
            variant="light"
            leftSection={<IconPrinter size={16} aria-hidden />}
            onClick={() => printSheet(details, link)}
          >
            Print
          </Button>
          <Button
            variant="light"
            leftSection={<IconCopy size={16} aria-hidden />}
            onClick={() => void copy()}
          >
            Copy
          </Button>
        </Group>
        <Button onClick={onDone}>Done</Button>
      </Group>
    </Stack>
  );
}

export function ActivationCodeModal({
  details,
  title,
  onClose,
}: {
  details: ActivationDetails | null;
  title: string;
  onClose: () => void;
}) {
  return (
    <AppModal opened={details !== null} onClose={onClose} title={title}>
      {details && <ActivationCodeView details={details} onDone={onClose} replaced />}
    </AppModal>
  );
}
