// The file drop area of /verify: the browser's own file input, laid invisibly over the area, takes a
// click (or Enter or Space when focused) and a dropped file alike, so the page needs no
// drag-and-drop library. Mantine's Dropzone (react-dropzone) added 16 KB of compressed code to this
// public page; without it bench:web measured its Lighthouse performance at 82-88 against 67-86.
import { useState, type ReactNode } from 'react';
import classes from './FileDropArea.module.css';

export function FileDropArea({
  label,
  maxBytes,
  onFile,
  onReject,
  children,
}: {
  /** The input's accessible name. */
  label: string;
  maxBytes: number;
  onFile: (file: File) => void;
  /** More than one file, or a file over `maxBytes`. */
  onReject: () => void;
  /** What the area shows (the input itself is invisible). */
  children: ReactNode;
}) {
  const [over, setOver] = useState(false);
  return (
    <div
      className={classes.root}
      data-over={over || undefined}
      // The input covers the whole area, so these come from it alone, not from the content below.
      onDragEnter={() => setOver(true)}
      onDragLeave={() => setOver(false)}
      onDrop={() => setOver(false)}
    >
      <input
        type="file"
        className={classes.input}
        aria-label={label}
        onChange={(event) => {
          const input = event.currentTarget;
          const files = [...(input.files ?? [])];
          input.value = ''; // so that choosing the same file again checks it again
          if (files.length === 0) return; // the dialog was cancelled
          if (files.length > 1 || files[0].size > maxBytes) onReject();
          else onFile(files[0]);
        }}
      />
      {children}
    </div>
  );
}
