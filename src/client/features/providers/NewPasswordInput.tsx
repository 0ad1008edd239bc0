// A new-password field with a named show/hide toggle (the toggle says what it will do).
import { PasswordInput } from '@mantine/core';
import { useState } from 'react';

interface NewPasswordInputProps {
  label: string;
  value: string;
  onChange: (value: string) => void;
}

export function NewPasswordInput({ label, value, onChange }: NewPasswordInputProps) {
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
      onChange={(e) => onChange(e.currentTarget.value)}
    />
  );
}
