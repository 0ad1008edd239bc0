// One audit entry (docs/spec.md#hospital-dashboard): icon, action with underscores as spaces,
// "Blockchain Verified" or "Logged Only", details (or "<action> action performed"), user, time
// ("Unknown" if missing), the hash cut to 16 characters and a button copying it.
import { Code, Group, Paper, Stack, Text, ThemeIcon } from '@mantine/core';
import {
  IconAlertTriangle,
  IconCopy,
  IconEye,
  IconFileUpload,
  IconFolderOpen,
  IconHistory,
  IconLogin,
  IconShieldLock,
  type Icon,
} from '@tabler/icons-react';
import { actionName, type AuditEntry } from '../../../shared/hospital';
import { copyHash, notifyError } from '../../notify';
import { formatDateTime, truncateHash } from '../../format';
import { LedgerBadge } from '../../components/LedgerBadge';
import { IconAction } from '../../components/IconAction';

const ICONS: Record<string, Icon> = {
  record_upload: IconFileUpload,
  record_access: IconFolderOpen,
  record_view: IconEye,
  consent_change: IconShieldLock,
  login: IconLogin,
  integrity_failure: IconAlertTriangle,
};

async function copyEntryHash(hash: string | null) {
  if (hash) await copyHash(hash);
  else notifyError('No Blockchain Hash', 'This transaction was not blockchain verified.');
}

/** An entry's action, and whether the ledger vouches for it. */
export function EntryHeading({ name, verified }: { name: string; verified: boolean }) {
  return (
    <Group gap="xs">
      <Text fw={500} tt="capitalize">
        {name}
      </Text>
      <LedgerBadge verified={verified} />
    </Group>
  );
}

export function AuditEntryRow({ entry }: { entry: AuditEntry }) {
  const ActionIconSvg = ICONS[entry.action] ?? IconHistory;
  const name = actionName(entry.action);
  return (
    <Paper withBorder p="sm">
      <Group align="start" wrap="nowrap">
        <ThemeIcon variant="light" size="lg" aria-hidden>
          <ActionIconSvg size={18} />
        </ThemeIcon>
        <Stack gap={2} style={{ flex: 1, minWidth: 0 }}>
          <EntryHeading name={name} verified={entry.blockchainVerified} />
          <Text size="sm">{entry.details || `${name} action performed`}</Text>
          <Text size="xs" c="dimmed">
            User: {entry.userName ? `${entry.userName} · ` : ''}
            {entry.userId ?? 'Unknown'} · {formatDateTime(entry.createdAt)}
            {entry.ipAddress ? ` · ${entry.ipAddress}` : ''}
          </Text>
          {entry.blockchainHash && (
            <Group gap={4}>
              <Code>{truncateHash(entry.blockchainHash)}</Code>
            </Group>
          )}
        </Stack>
        <IconAction
          icon={IconCopy}
          label="Copy hash"
          tip={entry.blockchainHash ? 'Copy hash' : 'No blockchain hash'}
          onClick={() => void copyEntryHash(entry.blockchainHash)}
        />
      </Group>
    </Paper>
  );
}
