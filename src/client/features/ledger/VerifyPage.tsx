// /verify (public, no sign-in): drop a file or paste a hash and learn whether and when it was
// entered in the MedLedger ledger. A file is fingerprinted (SHA-256) in the browser and never
// uploaded; the entry's inclusion proof is checked here with the shared Merkle functions. A receipt
// (with the record's files) is checked entirely offline (ReceiptCheck).
import { Button, Divider, Group, Loader, Paper, Stack, Text, TextInput, Title } from '@mantine/core';
import { IconFileSearch, IconShieldCheck } from '@tabler/icons-react';
import { lazy, useRef, useState, type FormEvent } from 'react';
import { MAX_UPLOAD_BYTES } from '../../../shared/constants';
import { errorMessage } from '../../api/request';
import { PublicLayout } from '../../components/layout/PublicLayout';
import { LoadFailureBoundary } from '../../components/LoadFailureBoundary';
import { HASH_MESSAGE } from '../../../shared/ledger/sha256';
import { lookUp, type LookupResult } from './lookup';
import { fileSha256, normaliseHash } from './proof';
import { FileDropArea } from './FileDropArea';
import { VerifyResult } from './VerifyResult';
import { PublicPageHeader } from '../../components/layout/PublicPageHeader';

/**
 * The receipt check (with the Zod it parses receipts with) is its own chunk, shown once loaded:
 * the hash and file checks render without waiting for it, and its section appears only when its
 * checker is in the page, which then works offline.
 */
const ReceiptCheck = lazy(async () => ({ default: (await import('./ReceiptCheck')).ReceiptCheck }));

type State =
  | { step: 'idle' }
  | { step: 'checking'; what: string }
  | { step: 'done'; result: LookupResult; subject: 'file' | 'hash'; fingerprint: string; name?: string }
  | { step: 'failed'; message: string };

export default function VerifyPage() {
  const [state, setState] = useState<State>({ step: 'idle' });
  const [hashInput, setHashInput] = useState('');
  const [hashError, setHashError] = useState<string | null>(null);
  // A later check replaces an earlier one still running.
  const latest = useRef(0);

  async function run(
    what: string,
    subject: 'file' | 'hash',
    name: string | undefined,
    fingerprint: () => Promise<string>,
  ) {
    const ticket = ++latest.current;
    setState({ step: 'checking', what });
    try {
      const hash = await fingerprint();
      const result = await lookUp(hash, subject);
      if (ticket === latest.current) setState({ step: 'done', result, subject, fingerprint: hash, name });
    } catch (error) {
      if (ticket === latest.current) {
        setState({
          step: 'failed',
          message: errorMessage(error, 'The ledger could not be reached. Please try again.'),
        });
      }
    }
  }

  function checkFile(file: File) {
    void run(`Fingerprinting ${file.name}…`, 'file', file.name, () => fileSha256(file));
  }

  function checkHash(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const hash = normaliseHash(hashInput);
    setHashError(hash ? null : HASH_MESSAGE);
    if (hash) void run('Looking up the hash…', 'hash', undefined, async () => hash);
  }

  return (
    <PublicLayout size="md">
      <PublicPageHeader />
      <Paper withBorder shadow="md" p="xl" radius="lg">
        <Stack gap="lg">
          <Stack gap={4}>
            <Group gap="xs">
              <IconShieldCheck size={28} aria-hidden color="var(--mantine-color-teal-6)" />
              <Title order={1} fz={26}>
                Verify a Record
              </Title>
            </Group>
            <Text c="dimmed">
              Check whether a medical record file was entered in the MedLedger ledger, and when. Your file is
              not uploaded: its SHA-256 fingerprint is computed in your browser, and the ledger&apos;s proof
              is checked here too.
            </Text>
          </Stack>

          <FileDropArea
            label="File to verify"
            maxBytes={MAX_UPLOAD_BYTES}
            onFile={checkFile}
            onReject={() => setState({ step: 'failed', message: 'Choose one file of at most 25 MB.' })}
          >
            <Group justify="center" gap="md" mih={120}>
              <IconFileSearch size={40} stroke={1.5} aria-hidden />
              <div>
                <Text>Drop a file here or click to choose one</Text>
                <Text size="sm" c="dimmed">
                  The exact file you received with a record (PDF, DOCX, JPG, PNG), up to 25MB
                </Text>
              </div>
            </Group>
          </FileDropArea>

          <Divider label="or paste a hash" labelPosition="center" />

          <form onSubmit={checkHash} noValidate>
            <Group align="flex-start" wrap="nowrap">
              <TextInput
                style={{ flex: 1 }}
                label="Blockchain hash or file SHA-256"
                placeholder="64 hexadecimal characters"
                value={hashInput}
                error={hashError}
                spellCheck={false}
                autoComplete="off"
                onChange={(e) => setHashInput(e.currentTarget.value)}
                styles={{ input: { fontFamily: 'var(--mantine-font-family-monospace)' } }}
              />
              <Button type="submit" mt={25} disabled={state.step === 'checking'}>
                Check
              </Button>
            </Group>
          </form>

          {state.step === 'checking' && (
            <Group gap="xs" role="status">
              <Loader size="sm" />
              <Text size="sm">{state.what}</Text>
            </Group>
          )}
          {state.step === 'failed' && (
            <Text c="red" size="sm" role="alert">
              {state.message}
            </Text>
          )}
          {state.step === 'done' && (
            <Stack gap="xs">
              <Text size="xs" c="dimmed" style={{ wordBreak: 'break-all' }}>
                {state.name ? `${state.name}: SHA-256 ` : 'Hash '}
                {state.fingerprint}
              </Text>
              <VerifyResult result={state.result} subject={state.subject} />
            </Stack>
          )}

          <Divider />
          {/* If its chunk cannot be loaded, the section says so; the hash and file checks stay. */}
          <LoadFailureBoundary
            loading={<Loader size="sm" role="status" aria-label="Loading the receipt check" />}
          >
            <ReceiptCheck />
          </LoadFailureBoundary>
        </Stack>
      </Paper>
    </PublicLayout>
  );
}
