// Password and Confirm Password with show/hide, Generate (fills both), Copy ("Copied!" for 3 s),
// the strength meter and the checklist (docs/spec.md#screens-and-routes, Signup).
import { Button, Group, PasswordInput, Stack } from '@mantine/core';
import { IconCheck, IconCopy, IconWand } from '@tabler/icons-react';
import { useEffect, useState } from 'react';
import { COPIED_INDICATOR_MS } from '../../../shared/constants';
import { generatePassword } from '../../../shared/password';
import { PasswordStrength } from '../../components/PasswordStrength';
import { copyWithToast } from '../../notify';

interface PasswordFieldsProps {
  password: string;
  confirmPassword: string;
  onPasswordChange: (value: string) => void;
  onConfirmChange: (value: string) => void;
}

export function PasswordFields({
  password,
  confirmPassword,
  onPasswordChange,
  onConfirmChange,
}: PasswordFieldsProps) {
  const [visible, setVisible] = useState(false);
  const [confirmVisible, setConfirmVisible] = useState(false);
  const [copied, setCopied] = useState(false);

  useEffect(() => {
    if (!copied) return;
    const timer = window.setTimeout(() => setCopied(false), COPIED_INDICATOR_MS);
    return () => window.clearTimeout(timer);
  }, [copied]);

  function generate() {
    const next = generatePassword();
    onPasswordChange(next);
    onConfirmChange(next);
    // Show what was generated so it can be read and saved.
    setVisible(true);
  }

  async function copy() {
    const copied = await copyWithToast(
      password,
      {
        title: 'Password Copied',
        message: 'Your generated password has been copied to clipboard. Save it in a secure location!',
      },
      'Could not copy password to clipboard. Please select and copy manually.',
    );
    if (copied) setCopied(true);
  }

  return (
    <Stack gap="sm">
      <PasswordInput
        label="Password"
        required
        autoComplete="new-password"
        visible={visible}
        onVisibilityChange={setVisible}
        visibilityToggleFocusable
        visibilityToggleButtonProps={{ 'aria-label': visible ? 'Hide password' : 'Show password' }}
        value={password}
        onChange={(e) => onPasswordChange(e.currentTarget.value)}
      />
      <Group gap="xs">
        <Button variant="light" size="xs" leftSection={<IconWand size={14} aria-hidden />} onClick={generate}>
          Generate
        </Button>
        <Button
          variant="light"
          size="xs"
          color={copied ? 'teal' : 'gray'}
          leftSection={copied ? <IconCheck size={14} aria-hidden /> : <IconCopy size={14} aria-hidden />}
          onClick={() => void copy()}
          disabled={!password}
        >
          {copied ? 'Copied!' : 'Copy'}
        </Button>
      </Group>
      <PasswordStrength password={password} />
      <PasswordInput
        label="Confirm Password"
        required
        autoComplete="new-password"
        visible={confirmVisible}
        onVisibilityChange={setConfirmVisible}
        visibilityToggleFocusable
        visibilityToggleButtonProps={{
          'aria-label': confirmVisible ? 'Hide confirm password' : 'Show confirm password',
        }}
        value={confirmPassword}
        onChange={(e) => onConfirmChange(e.currentTarget.value)}
      />
    </Stack>
  );
}
