// /verify: check a receipt (from "Download Receipt" on a record) and the record's files entirely in
// the browser, without the network: the files' SHA-256 and the checkpoint's Ed25519 signature with
// Web Crypto, the entry hash and the inclusion proof with the shared code (src/shared/ledger).
import { Alert, Button, FileInput, List, Stack, Text, TextInput, ThemeIcon, Title } from '@mantine/core';
import { IconCheck, IconReceipt, IconX } from '@tabler/icons-react';
import { useState } from 'react';
import { verifyReceipt, type ReceiptVerification } from '../../../shared/ledger/receipt';
import { fileSha256 } from './proof';
import { readableText } from '../../theme';

const MAX_RECEIPT_BYTES = 1024 * 1024;

type State =
  | { step: 'idle' }
  | { step: 'checking' }
  | { step: 'done'; result: ReceiptVerification }
  | { step: 'failed'; message: string };

export function ReceiptCheck() {
  const [receiptFile, setReceiptFile] = useState<File | null>(null);
  const [files, setFiles] = useState<File[]>([]);
  const [pinnedKey, setPinnedKey] = useState('');
  const [state, setState] = useState<State>({ step: 'idle' });

  async function check() {
    if (!receiptFile) {
      setState({ step: 'failed', message: 'Choose the receipt file (.json) first.' });
      return;
    }
    setState({ step: 'checking' });
    try {
      if (receiptFile.size > MAX_RECEIPT_BYTES) throw new Error('This file is too large to be a receipt.');
      let receipt: unknown;
      try {
        receipt = JSON.parse(await receiptFile.text());
      } catch {
        throw new Error('This file is not a receipt (it is not JSON).');
      }
      const hashed = await Promise.all(
        files.map(async (f) => ({ name: f.name, sha256: await fileSha256(f) })),
      );
      const result = await verifyReceipt(receipt, {
        verifierKey: pinnedKey.trim() || undefined,
        files: hashed,
      });
      setState({ step: 'done', result });
    } catch (error) {
      setState({
        step: 'failed',
        message: error instanceof Error ? error.message : 'The receipt could not be checked.',
      });
    }
  }

  return (
    <Stack component="section" gap="sm" aria-label="Check a receipt">
      <Title order={2} fz={20}>
        Check a receipt
      </Title>
      <Text size="sm" c="dimmed">
        A receipt (from &quot;Download Receipt&quot; on a record) proves that the record and its files were
        entered in the ledger. It is checked here in your browser, without the network.
      </Text>
      <FileInput
        label="Receipt"
        placeholder="medledger-receipt-….json"
        accept="application/json,.json"
        value={receiptFile}
        onChange={setReceiptFile}
        clearable
        leftSection={<IconReceipt size={16} aria-hidden />}
      />
      <FileInput
        label="Record files (optional)"
        placeholder="The files you received with the record"
        multiple
        value={files}
        onChange={setFiles}
        clearable
      />
      <TextInput
        label="Log key (optional)"
        description="The key the log publishes at /api/ledger/public-key; without it the receipt's own key is used."
        value={pinnedKey}
        onChange={(e) => setPinnedKey(e.currentTarget.value)}
        spellCheck={false}
        autoComplete="off"
        styles={{ input: { fontFamily: 'var(--mantine-font-family-monospace)' } }}
      />
      <Button onClick={() => void check()} loading={state.step === 'checking'} w="fit-content">
        Verify receipt
      </Button>
      {state.step === 'failed' && (
        <Text c="red" size="sm" role="alert">
          {state.message}
        </Text>
      )}
      {state.step === 'done' && <ReceiptResult result={state.result} />}
    </Stack>
  );
}

function ReceiptResult({ result }: { result: ReceiptVerification }) {
  return (
    <Stack gap="xs" role="status" aria-label="Receipt result">
      <Alert
        color={result.ok ? 'teal' : 'red'}
        title={result.ok ? 'Receipt verified' : 'Receipt NOT verified'}
      >
        {result.ok
          ? 'The signed ledger checkpoint includes this entry, and every file you gave is one it covers.'
          : 'At least one check failed: see below.'}
      </Alert>
      <List spacing={4} size="sm">
        {result.checks.map((c, i) => (
          <List.Item
            key={`${c.name}-${i}`}
            icon={
              <ThemeIcon color={c.ok ? 'teal' : 'red'} size={18} radius="xl">
                {c.ok ? <IconCheck size={12} aria-hidden /> : <IconX size={12} aria-hidden />}
              </ThemeIcon>
            }
          >
            <Text size="sm" span style={{ wordBreak: 'break-word' }}>
              {c.ok ? '' : 'Failed: '}
              {c.detail}
            </Text>
          </List.Item>
        ))}
      </List>
      {result.warnings.map((w) => (
        <Text key={w} size="xs" c={readableText('orange')} style={{ wordBreak: 'break-all' }}>
          {w}
        </Text>
      ))}
    </Stack>
  );
}
