// Previews (issue 15): a PDF or an image opens inside the app instead of being saved first. The
// bytes come through the download route, so the access check, the audit entry and the integrity
// check are the download's: a file that fails its check is broken off and shown as failed, never
// partly. PDFs use the browser's own viewer in a frame; images can be zoomed.
import { Alert, Box, Button, Group, Loader, Slider, Stack, Text } from '@mantine/core';
import { AppModal } from '../../components/AppModal';
import { IconEye } from '@tabler/icons-react';
import { useEffect, useState } from 'react';
import type { Attachment } from '../../../shared/records';
import { errorStatus } from '../../api/request';
import { fetchAttachment } from './download';
import { SmallButton } from '../../components/SmallButton';

type Kind = 'pdf' | 'image';

/** What can be previewed: PDFs and the image types browsers show. */
export function previewKind(mimeType: string): Kind | null {
  if (mimeType === 'application/pdf') return 'pdf';
  if (/^image\/(png|jpeg|gif|webp)$/.test(mimeType)) return 'image';
  return null;
}

/** What a preview needs of an attachment (a record's, or a shared record's under its link). */
export type PreviewableAttachment = Pick<Attachment, 'url' | 'fileName' | 'mimeType'>;

export function PreviewButton({ attachment }: { attachment: PreviewableAttachment }) {
  const [open, setOpen] = useState(false);
  const kind = previewKind(attachment.mimeType);
  if (!kind) return null;
  return (
    <>
      <SmallButton
        icon={IconEye}
        variant="default"
        aria-label={`Preview ${attachment.fileName}`}
        onClick={() => setOpen(true)}
      >
        Preview
      </SmallButton>
      <AppModal opened={open} onClose={() => setOpen(false)} title={attachment.fileName} size="xl">
        {open && <PreviewBody attachment={attachment} kind={kind} />}
      </AppModal>
    </>
  );
}

type State = { status: 'loading' } | { status: 'ready'; url: string } | { status: 'failed'; message: string };

function PreviewBody({ attachment, kind }: { attachment: PreviewableAttachment; kind: Kind }) {
  const [state, setState] = useState<State>({ status: 'loading' });
  const [zoom, setZoom] = useState(100);

  useEffect(() => {
    let url: string | null = null;
    let live = true;
    fetchAttachment(attachment).then(
      (blob) => {
        // The type the record says, not the one sniffed: only PDFs and images get here.
        url = URL.createObjectURL(new Blob([blob], { type: attachment.mimeType }));
        if (live) setState({ status: 'ready', url });
      },
      (error: unknown) => {
        if (!live) return;
        setState({
          status: 'failed',
          message:
            errorStatus(error) === 404
              ? 'File not available.'
              : 'This file could not be read in full: it may have been altered since it was uploaded, so it is not shown.',
        });
      },
    );
    return () => {
      live = false;
      if (url) URL.revokeObjectURL(url);
    };
  }, [attachment]);

  if (state.status === 'loading') {
    return (
      <Group gap="xs" role="status">
        <Loader size="sm" />
        <Text size="sm">Loading the file and checking it…</Text>
      </Group>
    );
  }
  if (state.status === 'failed') {
    return (
      <Alert color="red" title="Preview unavailable" role="alert">
        {state.message}
      </Alert>
    );
  }
  if (kind === 'pdf') {
    return (
      <Box
        component="iframe"
        src={state.url}
        title={`Preview of ${attachment.fileName}`}
        style={{ width: '100%', height: '70vh', border: 0 }}
      />
    );
  }
  return (
    <Stack>
      <Group gap="sm" wrap="nowrap">
        <Text size="sm" id="zoom-label">
          Zoom
        </Text>
        <Slider
          flex={1}
          min={25}
          max={400}
          step={25}
          value={zoom}
          onChange={setZoom}
          label={(v) => `${v}%`}
          aria-labelledby="zoom-label"
          thumbLabel="Zoom"
        />
        <Button size="xs" variant="default" onClick={() => setZoom(100)}>
          Reset
        </Button>
      </Group>
      <Box
        style={{ overflow: 'auto', maxHeight: '70vh' }}
        tabIndex={0}
        role="region"
        aria-label="Image, scroll to pan"
      >
        <img
          src={state.url}
          alt={attachment.fileName}
          data-testid="preview-image"
          style={{ width: `${zoom}%`, maxWidth: 'none', display: 'block' }}
        />
      </Box>
    </Stack>
  );
}
