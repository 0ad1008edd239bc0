// The 5-bar strength meter and the criteria checklist (docs/spec.md#validation), used by the signup and
// provider-registration screens. Bar colour per strengthColor(): red 1-2, yellow 3, blue 4, green 5.
import { Box, Group, List, Text, ThemeIcon, VisuallyHidden } from '@mantine/core';
import { IconCheck, IconX } from '@tabler/icons-react';
import { passwordChecks, passwordScore, strengthColor, type PasswordChecks } from '../../shared/password';
import { readableText } from '../theme';

const LABELS: Record<keyof PasswordChecks, string> = {
  length: '8+ characters',
  uppercase: 'Uppercase letter',
  lowercase: 'Lowercase letter',
  number: 'Number',
  symbol: 'Special character',
};

const STRENGTH_WORDS = ['Too weak', 'Weak', 'Weak', 'Fair', 'Good', 'Strong'];

interface PasswordStrengthProps {
  password: string;
  /** Which criteria the checklist lists (the meter always scores all five). */
  criteria?: readonly (keyof PasswordChecks)[];
}

export function PasswordStrength({
  password,
  criteria = ['length', 'uppercase', 'number', 'symbol'],
}: PasswordStrengthProps) {
  const score = passwordScore(password);
  const checks = passwordChecks(password);
  const color = strengthColor(score);

  return (
    <Box>
      <Group gap={4} grow aria-hidden data-testid="strength-meter" data-score={score}>
        {[0, 1, 2, 3, 4].map((i) => (
          <Box
            key={i}
            h={6}
            style={{
              borderRadius: 3,
              backgroundColor: i < score ? `var(--mantine-color-${color}-6)` : 'var(--mantine-color-gray-3)',
            }}
          />
        ))}
      </Group>
      <Text size="xs" c="dimmed" mt={4} aria-live="polite">
        Password strength: {password ? STRENGTH_WORDS[score] : 'none'} ({score}/5)
      </Text>
      <List spacing={2} size="sm" mt="xs" center>
        {criteria.map((key) => (
          <List.Item
            key={key}
            icon={
              <ThemeIcon size={16} radius="xl" color={checks[key] ? 'teal' : 'gray'} variant="light">
                {checks[key] ? <IconCheck size={12} aria-hidden /> : <IconX size={12} aria-hidden />}
              </ThemeIcon>
            }
          >
            <Text size="sm" c={checks[key] ? readableText('teal') : 'dimmed'} component="span">
              {LABELS[key]}
              <VisuallyHidden>{checks[key] ? ' (met)' : ' (not met)'}</VisuallyHidden>
            </Text>
          </List.Item>
        ))}
      </List>
    </Box>
  );
}
