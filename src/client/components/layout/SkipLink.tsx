import { Anchor } from '@mantine/core';

/** First tab stop: jumps keyboard users past the header to #main-content. */
export function SkipLink() {
  return (
    <Anchor
      href="#main-content"
      style={{
        position: 'absolute',
        left: 8,
        top: -48,
        zIndex: 1000,
        padding: '8px 12px',
        background: 'var(--mantine-color-body)',
        borderRadius: 'var(--mantine-radius-md)',
      }}
      onFocus={(e) => (e.currentTarget.style.top = '8px')}
      onBlur={(e) => (e.currentTarget.style.top = '-48px')}
    >
      Skip to main content
    </Anchor>
  );
}
