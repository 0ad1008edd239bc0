// A new-password field with a named show/hide toggle (the toggle says what it will do).
import { PasswordInput } from '@mantine/core';
import { useState, type ReactNode } from 'react';
import { PasswordStrength } from '../../components/PasswordStrength';

interface NewPasswordInputProps {
  label: string;
  value: string;
  onChange: (value: string) => void;
  error?: ReactNode;
}

export function NewPasswordInput({ label, value, onChange, error }: NewPasswordInputProps) {
  const [visible, setVisible] = useState(false);
  const what = label.toLowerCase();
  return (
    <PasswordInput
      label={label}
      required
      autoComplete="new-password"
      visible={visible}
      onVisibilityChange={setVisible}
      visibilityToggleFocusable
      visibilityToggleButtonProps={{ 'aria-label': visible ? `Hide ${what}` : `Show ${what}` }}
      value={value}
      error={error}
      onChange={(e) => onChange(e.currentTarget.value)}
    />
  );
}

type NewPasswordField = 'password' | 'confirmPassword';

/** A new password with its strength checklist, then its confirmation (provider registration, reset). */
export function NewPasswordFields({
  label,
  values,
  onChange,
}: {
  label: string;
  values: Record<NewPasswordField, string>;
  onChange: (field: NewPasswordField, value: string) => void;
}) {
  return (
    <>
      <NewPasswordInput label={label} value={values.password} onChange={(v) => onChange('password', v)} />
      <PasswordStrength
        password={values.password}
        criteria={['length', 'uppercase', 'lowercase', 'number', 'symbol']}
      />
      <NewPasswordInput
        label="Confirm Password"
        value={values.confirmPassword}
        onChange={(v) => onChange('confirmPassword', v)}
      />
    </>
  );
}
