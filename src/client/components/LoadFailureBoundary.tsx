// Around each part of the app whose code loads on demand (a page, a dashboard tab, a dialog): it
// shows `loading` while the part's chunk loads (its Suspense boundary), and if the chunk cannot be
// fetched (the connection dropped, or a new version was installed and the old chunk is gone) or
// the part fails while rendering, the part says so and offers a reload, instead of React removing
// the whole app and leaving a blank page.
import { Alert, Button, Group, Text } from '@mantine/core';
import { Component, Suspense, type ReactNode } from 'react';

/** A dynamic import that failed: Chromium, Firefox, Safari, and Vite's preload of a chunk's CSS. */
const LOAD_FAILURE =
  /dynamically imported module|Importing a module script failed|Unable to preload CSS|error loading dynamically/i;

export function failureMessage(error: unknown): { title: string; text: string } {
  const message = error instanceof Error ? error.message : String(error);
  return LOAD_FAILURE.test(message)
    ? {
        title: 'This part of MedLedger could not be loaded',
        text: 'Check your connection and reload the page (a new version may have been installed).',
      }
    : { title: 'Something went wrong here', text: 'Reload the page to try again.' };
}

export const reloadPage = () => window.location.reload();

interface Props {
  children: ReactNode;
  /** Shown while the part's code loads. */
  loading: ReactNode;
  /** What to show instead (a dialog shows it in a dialog); by default an alert in place. */
  fallback?: (error: unknown) => ReactNode;
}

export class LoadFailureBoundary extends Component<Props, { error: unknown }> {
  state: { error: unknown } = { error: null };

  static getDerivedStateFromError(error: unknown) {
    return { error: error ?? new Error('unknown error') };
  }

  render() {
    const { error } = this.state;
    if (!error) return <Suspense fallback={this.props.loading}>{this.props.children}</Suspense>;
    if (this.props.fallback) return this.props.fallback(error);
    const { title, text } = failureMessage(error);
    return (
      <Alert color="red" title={title} role="alert" m="md">
        <Text size="sm">{text}</Text>
        <Group mt="sm">
          <Button size="xs" onClick={reloadPage}>
            Reload
          </Button>
        </Group>
      </Alert>
    );
  }
}
