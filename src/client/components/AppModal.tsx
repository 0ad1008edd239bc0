// Every dialog of the app is this Modal: Mantine's, with the same props (and the theme's defaults),
// and two things Mantine's leaves out.
// - Esc closes the top dialog only. Each open Mantine Modal closes itself on Esc (a keydown listener
//   of its own on the window); only Modal.Stack lets them know of each other. Our dialogs open one
//   another from inside (a patient's file opens a record, a record its Share dialog), so each one
//   tells the dialog it sits in, through a context, while it is open; that one then leaves Esc to it.
// - The focus goes back to what opened a dialog that was first rendered already open (a dialog whose
//   code has just loaded, one rendered only while it is open). Mantine remembers where to return
//   only when `opened` changes after the Modal mounted, so the focus would be left on the page's body.
import { Modal, type ModalProps } from '@mantine/core';
import { createContext, use, useEffect, useRef, useState, type Dispatch, type SetStateAction } from 'react';

/** How many dialogs opened from inside the enclosing one are open: set by those dialogs. */
const OpenInside = createContext<Dispatch<SetStateAction<number>> | null>(null);

/** Tells the enclosing dialog (if any) that this one is open over it, for as long as it is. */
function useOpenOverParent(opened: boolean) {
  const setParentCount = use(OpenInside);
  useEffect(() => {
    if (!opened || !setParentCount) return;
    setParentCount((count) => count + 1);
    return () => setParentCount((count) => count - 1);
  }, [opened, setParentCount]);
}

/** The focused element, unless that is nothing (the body). */
function focusedElement(): HTMLElement | null {
  const focused = document.activeElement;
  return focused instanceof HTMLElement && focused !== document.body ? focused : null;
}

/**
 * Focuses `opener` again if the focus was left nowhere: on the body, or still on `atClose` (in the
 * closing dialog). Mantine's rule for the dialogs it returns the focus from itself.
 */
function giveFocusBack(opener: HTMLElement, atClose: Element | null) {
  const focused = document.activeElement;
  if (opener.isConnected && (focused === null || focused === document.body || focused === atClose))
    opener.focus({ preventScroll: true });
}

/** The focus return of a Modal first rendered open, on its first close or on unmounting while open. */
function useFocusReturnWhenMountedOpen(opened: boolean) {
  // Read while rendering: by the first effect the dialog may have taken the focus.
  const [opener] = useState(() => (opened ? focusedElement() : null));
  const owed = useRef(opener !== null);
  // Closed: as Mantine does after a close, 10 ms on (its content is still there, fading out).
  useEffect(() => {
    if (opened || !opener || !owed.current) return;
    const atClose = document.activeElement;
    const timeout = window.setTimeout(() => {
      owed.current = false;
      giveFocusBack(opener, atClose);
    }, 10);
    return () => window.clearTimeout(timeout);
  }, [opened, opener]);
  // Unmounted before that (a dialog rendered only while open): its content, and the focus, is gone.
  useEffect(
    () => () => {
      if (opener && owed.current) giveFocusBack(opener, null);
    },
    [opener],
  );
}

export function AppModal({ opened, closeOnEscape, children, ...props }: ModalProps) {
  const [openInside, setOpenInside] = useState(0);
  useOpenOverParent(opened);
  useFocusReturnWhenMountedOpen(opened);
  return (
    <Modal
      {...props}
      opened={opened}
      // Left out (undefined) otherwise, so that the theme's default or Mantine's applies.
      closeOnEscape={openInside > 0 ? false : closeOnEscape}
    >
      <OpenInside value={setOpenInside}>{children}</OpenInside>
    </Modal>
  );
}
