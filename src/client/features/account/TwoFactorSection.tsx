// Profile page, "Two-factor sign-in" (issue 9): set up with a QR code (and the secret as text for
// apps that cannot scan), confirm with a code, the recovery codes shown once with Copy and
// Download, and turning it off with the password.
import {
  Alert,
  Badge,
  Button,
  Code,
  CopyButton,
  Group,
  Image,
  Paper,
  PasswordInput,
  SimpleGrid,
  Stack,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { IconCopy, IconDownload, IconShieldLock } from '@tabler/icons-react';
import QRCode from 'qrcode';
import { useEffect, useState } from 'react';
import type { z } from 'zod';
import {
  twoFactorDisableSchema,
  twoFactorEnableFormSchema,
  type TwoFactorSetup,
} from '../../../shared/account';
import { errorMessage } from '../../api/request';
import { useAuth } from '../../auth/context';
import { SubmitForm } from '../../components/SubmitForm';
import { useSchemaForm } from '../../components/useSchemaForm';
import { notifyError, notifySuccess } from '../../notify';
import { useTwoFactorDisable, useTwoFactorEnable, useTwoFactorSetup, useTwoFactorStatus } from './api';
import { LoadFailed } from '../../components/LoadFailed';

export function TwoFactorSection() {
  const status = useTwoFactorStatus();
  const [codes, setCodes] = useState<string[] | null>(null);

  return (
    <Paper
      withBorder
      p="lg"
      radius="md"
      component="section"
      id="two-factor"
      aria-labelledby="two-factor-title"
    >
      <Group justify="space-between" mb="xs">
        <Title order={2} fz="lg" id="two-factor-title">
          Two-factor sign-in
        </Title>
        {status.data && (
          <Badge color={status.data.enabled ? 'green' : 'gray'} variant="light">
            {status.data.enabled ? 'On' : 'Off'}
          </Badge>
        )}
      </Group>
      {codes ? (
        <RecoveryCodes codes={codes} onDone={() => setCodes(null)} />
      ) : status.isLoading ? (
        <Text c="dimmed">Loading...</Text>
      ) : status.error ? (
        <LoadFailed
          what="Your two-factor settings"
          error={status.error}
          onRetry={() => void status.refetch()}
        />
      ) : status.data?.enabled ? (
        <DisableForm recoveryCodesLeft={status.data.recoveryCodesLeft} />
      ) : (
        <SetupFlow onEnabled={setCodes} />
      )}
    </Paper>
  );
}

function SetupFlow({ onEnabled }: { onEnabled: (codes: string[]) => void }) {
  const { user, setUser } = useAuth();
  const setup = useTwoFactorSetup();
  const enable = useTwoFactorEnable();
  const [pending, setPending] = useState<TwoFactorSetup | null>(null);
  const [qr, setQr] = useState<string | null>(null);
  const form = useSchemaForm(twoFactorEnableFormSchema, { code: '' });

  useEffect(() => {
    if (!pending) return;
    let live = true;
    QRCode.toDataURL(pending.otpauthUri, { margin: 1, width: 200 })
      .then((url) => live && setQr(url))
      .catch(() => live && setQr(null));
    return () => {
      live = false;
    };
  }, [pending]);

  async function start() {
    try {
      setPending(await setup.mutateAsync());
      form.reset();
    } catch (e) {
      notifyError('Two-factor sign-in', errorMessage(e, 'The set-up could not be started.'));
    }
  }

  async function confirm({ code }: z.output<typeof twoFactorEnableFormSchema>) {
    try {
      const answer = await enable.mutateAsync(code);
      if (user) setUser({ ...user, twoFactorEnabled: true });
      notifySuccess('Two-factor sign-in is on', 'Save your recovery codes now: they are shown only once.');
      onEnabled(answer.recoveryCodes);
    } catch (e) {
      form.setFieldError('code', errorMessage(e, 'The code could not be checked.'));
    }
  }

  if (!pending) {
    return (
      <Stack gap="sm" align="flex-start">
        <Text size="sm" c="dimmed">
          Ask for a code from an authenticator app (such as Google Authenticator, Microsoft Authenticator or
          1Password) each time you sign in, in addition to your password.
        </Text>
        <Button
          leftSection={<IconShieldLock size={16} aria-hidden />}
          loading={setup.isPending}
          onClick={() => void start()}
        >
          Set up two-factor sign-in
        </Button>
      </Stack>
    );
  }
  return (
    <Stack gap="md">
      <Text size="sm">1. Scan this QR code with your authenticator app, or type the secret key into it.</Text>
      <SimpleGrid cols={{ base: 1, sm: 2 }}>
        {qr ? (
          <Image src={qr} alt="QR code for your authenticator app" w={200} h={200} />
        ) : (
          <Text c="dimmed">Preparing the QR code...</Text>
        )}
        <Stack gap={4}>
          <Text size="sm" c="dimmed" id="totp-secret-label">
            Secret key
          </Text>
          <Code
            block
            aria-labelledby="totp-secret-label"
            data-testid="totp-secret"
            style={{ wordBreak: 'break-all' }}
          >
            {pending.secret}
          </Code>
          <Text size="xs" c="dimmed">
            Time-based, 6 digits, every 30 seconds.
          </Text>
        </Stack>
      </SimpleGrid>
      <SubmitForm onSubmit={form.onSubmit(confirm)}>
        <Stack gap="sm" maw={320}>
          <TextInput
            label="2. Enter the 6-digit code from the app"
            autoComplete="one-time-code"
            inputMode="numeric"
            {...form.getInputProps('code')}
          />
          <Group>
            <Button type="submit" loading={enable.isPending}>
              Turn on
            </Button>
            <Button variant="default" onClick={() => setPending(null)}>
              Cancel
            </Button>
          </Group>
        </Stack>
      </SubmitForm>
    </Stack>
  );
}

function RecoveryCodes({ codes, onDone }: { codes: string[]; onDone: () => void }) {
  const text = `MedLedger recovery codes (each works once)\n\n${codes.join('\n')}\n`;
  function download() {
    const url = URL.createObjectURL(new Blob([text], { type: 'text/plain' }));
    const a = document.createElement('a');
    a.href = url;
    a.download = 'medledger-recovery-codes.txt';
    a.click();
    URL.revokeObjectURL(url);
  }
  return (
    <Stack gap="sm">
      <Alert variant="light" title="Save your recovery codes">
        If you lose your phone, each of these codes signs you in once instead of an app code. They are shown
        only now.
      </Alert>
      <SimpleGrid
        cols={{ base: 2, sm: 5 }}
        component="ul"
        aria-label="Recovery codes"
        style={{ listStyle: 'none', padding: 0 }}
      >
        {codes.map((c) => (
          <li key={c}>
            <Code>{c}</Code>
          </li>
        ))}
      </SimpleGrid>
      <Group>
        <CopyButton value={codes.join('\n')}>
          {({ copied, copy }) => (
            <Button variant="light" leftSection={<IconCopy size={16} aria-hidden />} onClick={copy}>
              {copied ? 'Copied!' : 'Copy'}
            </Button>
          )}
        </CopyButton>
        <Button variant="light" leftSection={<IconDownload size={16} aria-hidden />} onClick={download}>
          Download
        </Button>
        <Button onClick={onDone}>I have saved them</Button>
      </Group>
    </Stack>
  );
}

function DisableForm({ recoveryCodesLeft }: { recoveryCodesLeft: number }) {
  const { user, setUser } = useAuth();
  const disable = useTwoFactorDisable();
  const form = useSchemaForm(twoFactorDisableSchema, { password: '' });

  async function submit({ password }: z.output<typeof twoFactorDisableSchema>) {
    try {
      await disable.mutateAsync(password);
      if (user) setUser({ ...user, twoFactorEnabled: false });
      form.reset();
      notifySuccess('Two-factor sign-in is off', 'Signing in now asks for your password only.');
    } catch (e) {
      form.setFieldError('password', errorMessage(e, 'Two-factor sign-in could not be turned off.'));
    }
  }

  return (
    <Stack gap="sm">
      <Text size="sm">
        Signing in asks for a code from your authenticator app. {recoveryCodesLeft} unused recovery code
        {recoveryCodesLeft === 1 ? '' : 's'} left.
      </Text>
      {user?.role === 'medledger_admin' && (
        <Text size="sm" c="dimmed">
          Administrators need two-factor sign-in to review provider applications.
        </Text>
      )}
      <SubmitForm onSubmit={form.onSubmit(submit)}>
        <Group align="flex-end">
          <PasswordInput
            label="Password"
            autoComplete="current-password"
            {...form.getInputProps('password')}
            w={260}
          />
          <Button type="submit" color="red" variant="light" loading={disable.isPending}>
            Turn off two-factor sign-in
          </Button>
        </Group>
      </SubmitForm>
    </Stack>
  );
}
