// Shared footer (docs/spec.md#screens-and-routes): logo, a social-media profile, a social-network page, and a
// mailto contact link; the addresses come from src/client/config.ts.
import { ActionIcon, Anchor, Box, Container, Group, Stack, Text } from '@mantine/core';
import { IconBrandFacebook, IconBrandLinkedin, IconMail } from '@tabler/icons-react';
import { SOCIAL_LINKS, SUPPORT_EMAIL } from '../../config';
import { Logo } from '../Logo';

const ICONS = [IconBrandLinkedin, IconBrandFacebook];

export function AppFooter() {
  return (
    <Box component="footer" py="lg" mt="xl" style={{ borderTop: '1px solid var(--mantine-color-gray-3)' }}>
      <Container size="lg">
        <Group justify="space-between" align="center" gap="md">
          <Stack gap={4}>
            <Logo size="sm" />
            <Text size="sm" c="dimmed">
              Empowering Health Through Blockchain
            </Text>
          </Stack>
          <Group gap="xs">
            {SOCIAL_LINKS.map((link, i) => {
              const Icon = ICONS[i % ICONS.length];
              return (
                <ActionIcon
                  key={link.href}
                  component="a"
                  href={link.href}
                  target="_blank"
                  rel="noopener noreferrer"
                  variant="subtle"
                  size="lg"
                  aria-label={link.label}
                >
                  <Icon size={20} aria-hidden />
                </ActionIcon>
              );
            })}
            <Anchor href={`mailto:${SUPPORT_EMAIL}`} size="sm" ml="xs">
              <Group gap={4} wrap="nowrap" component="span">
                <IconMail size={16} aria-hidden />
                {SUPPORT_EMAIL}
              </Group>
            </Anchor>
          </Group>
        </Group>
        <Text size="xs" c="dimmed" mt="md" ta="center">
          Secure • Blockchain Verified
        </Text>
      </Container>
    </Box>
  );
}
