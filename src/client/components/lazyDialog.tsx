// Dialogs whose code loads the first time they open: a page does not download the forms,
// dropzones and record viewers behind its buttons until someone uses them (issue 14, item 1).
import { Loader, Overlay } from '@mantine/core';
import { lazy, Suspense, useState, type ComponentType } from 'react';

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

/**
 * A dialog component with the props of the one `load` gives, which renders nothing (and loads
 * nothing) until `isOpen(props)` is first true.
 */
export function lazyDialog<P extends object>(
  load: () => Promise<ComponentType<P>>,
  isOpen: (props: P) => boolean,
): ComponentType<P> {
  const Dialog = lazy(async () => ({ default: await load() })) as ComponentType<P>;
  return function LazyDialog(props: P) {
    const opened = useOpenedOnce(isOpen(props));
    if (!opened) return null;
    return (
      <Suspense fallback={<DialogLoading />}>
        <Dialog {...props} />
      </Suspense>
    );
  };
}
