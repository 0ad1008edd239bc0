// Dialogs whose code loads the first time they open: a page does not download the forms,
// dropzones and record viewers behind its buttons until someone uses them (issue 14, item 1).
import { Button, Group, Loader, Overlay, Text } from '@mantine/core';
import { lazy, useState, type ComponentType } from 'react';
import { AppModal } from './AppModal';
import { failureMessage, LoadFailureBoundary, reloadPage } from './LoadFailureBoundary';

/** True from the first time `open` is true on, so the dialog stays mounted for its closing transition. */
function useOpenedOnce(open: boolean): boolean {
  const [opened, setOpened] = useState(open);
  if (open && !opened) setOpened(true);
  return opened || open;
}

/** Shown over the page while a dialog's code loads (a click on a slow line gets an answer at once). */
function DialogLoading() {
  return (
    <Overlay fixed center zIndex={300} backgroundOpacity={0.2}>
      <Loader role="status" aria-label="Loading" />
    </Overlay>
  );
}

/** In place of a dialog whose code could not be loaded: what happened, Reload and Close. */
function DialogFailure({ error, opened, onClose }: { error: unknown; opened: boolean; onClose: () => void }) {
  const { title, text } = failureMessage(error);
  return (
    <AppModal opened={opened} onClose={onClose} title={title}>
      <Text size="sm" role="alert">
        {text}
      </Text>
      <Group mt="md" justify="flex-end">
        <Button variant="default" onClick={onClose}>
          Close
        </Button>
        <Button onClick={reloadPage}>Reload</Button>
      </Group>
    </AppModal>
  );
}

/**
 * A dialog component with the props of the one `load` gives, which renders nothing (and loads
 * nothing) until `isOpen(props)` is first true. If its code cannot be loaded, a dialog says so.
 * Its Modal is thus first rendered open; AppModal gives the focus back to the opener when it closes.
 */
export function lazyDialog<P extends { onClose: () => void }>(
  load: () => Promise<ComponentType<P>>,
  isOpen: (props: P) => boolean,
): ComponentType<P> {
  const Dialog = lazy(async () => ({ default: await load() })) as ComponentType<P>;
  return function LazyDialog(props: P) {
    const opened = useOpenedOnce(isOpen(props));
    if (!opened) return null;
    return (
      <LoadFailureBoundary
        loading={<DialogLoading />}
        fallback={(error) => <DialogFailure error={error} opened={isOpen(props)} onClose={props.onClose} />}
      >
        <Dialog {...props} />
      </LoadFailureBoundary>
    );
  };
}
