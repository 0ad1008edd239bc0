// Files of the upload form: drag-and-drop or browse, several at once, each removable. The limits
// shown here (types, 25 MB, 10 files) are the server's, which enforces them again.
import '@mantine/dropzone/styles.css';
import { Button, Group, Paper, Stack, Text } from '@mantine/core';
import { Dropzone, type FileRejection } from '@mantine/dropzone';
import { IconCloudUpload, IconFile, IconX } from '@tabler/icons-react';
import { useRef } from 'react';
import { MAX_UPLOAD_BYTES } from '../../../shared/constants';
import {
  acceptedExtension,
  MAX_FILES_PER_RECORD,
  MIME_TYPES,
  TOO_LARGE_MESSAGE,
  type Attachment,
} from '../../../shared/records';
import { notifyError } from '../../notify';
import { formatSize } from '../../format';
import { IconAction } from '../../components/IconAction';

const ACCEPT: Record<string, string[]> = {
  'application/pdf': ['.pdf'],
  [MIME_TYPES.docx]: ['.docx'],
  'image/jpeg': ['.jpg', '.jpeg'],
  'image/png': ['.png'],
};

interface Props {
  files: File[];
  onChange: (files: File[]) => void;
  /** Files a draft already has (kept; new ones are added). */
  existing: Attachment[];
  disabled?: boolean;
}

/** An empty file is refused as it is chosen, not only by the server on upload. */
const refuseEmpty = (file: File) =>
  file.size === 0 ? { code: 'file-empty', message: 'the file is empty.' } : null;

function describeRejection(r: FileRejection): string {
  const code = r.errors[0]?.code;
  if (code === 'file-too-large') return `${r.file.name}: ${TOO_LARGE_MESSAGE}`;
  if (code === 'file-invalid-type')
    return `${r.file.name}: unsupported file type. Accepted: PDF, DOCX, JPG, JPEG and PNG.`;
  return `${r.file.name}: ${r.errors[0]?.message ?? 'not accepted'}`;
}

export function FilePicker({ files, onChange, existing, disabled }: Props) {
  const openRef = useRef<() => void>(null);
  const room = MAX_FILES_PER_RECORD - existing.length - files.length;

  function add(dropped: File[]) {
    const fitting = dropped.filter((f) => acceptedExtension(f.name)).slice(0, Math.max(room, 0));
    if (fitting.length < dropped.length) {
      notifyError('Too Many Files', `Attach up to ${MAX_FILES_PER_RECORD} files to a record.`);
    }
    onChange([...files, ...fitting]);
  }

  return (
    <Stack gap="xs">
      <Text fw={500} size="sm">
        Files
      </Text>
      <Dropzone
        openRef={openRef}
        onDrop={add}
        onReject={(rejections) =>
          notifyError('File Not Accepted', rejections.map(describeRejection).join(' '))
        }
        accept={ACCEPT}
        maxSize={MAX_UPLOAD_BYTES}
        validator={refuseEmpty}
        inputProps={{ 'aria-label': 'Attachments to upload' }}
        multiple
        disabled={disabled || room <= 0}
        aria-label="Drop files here"
      >
        <Group justify="center" gap="md" mih={110} style={{ pointerEvents: 'none' }}>
          <IconCloudUpload size={40} stroke={1.5} aria-hidden />
          <div>
            <Text>Drag files here or browse</Text>
            <Text size="sm" c="dimmed">
              PDF, DOCX, JPG, JPEG or PNG, up to 25MB each
            </Text>
          </div>
        </Group>
      </Dropzone>
      <Group>
        <Button
          variant="light"
          size="xs"
          disabled={disabled || room <= 0}
          onClick={() => openRef.current?.()}
        >
          Browse files
        </Button>
      </Group>
      {(existing.length > 0 || files.length > 0) && (
        <Paper withBorder p="xs">
          <Stack component="section" gap={4} aria-label="Chosen files">
            {existing.map((a) => (
              <Group key={a.id} gap="xs" wrap="nowrap">
                <IconFile size={16} aria-hidden />
                <Text size="sm" truncate style={{ flex: 1 }}>
                  {a.fileName}
                </Text>
                <Text size="xs" c="dimmed">
                  {formatSize(a.size)} · saved
                </Text>
              </Group>
            ))}
            {files.map((f, i) => (
              <Group key={`${f.name}-${i}`} gap="xs" wrap="nowrap">
                <IconFile size={16} aria-hidden />
                <Text size="sm" truncate style={{ flex: 1 }}>
                  {f.name}
                </Text>
                <Text size="xs" c="dimmed">
                  {formatSize(f.size)}
                </Text>
                <IconAction
                  icon={IconX}
                  label={`Remove ${f.name}`}
                  iconSize={14}
                  size="sm"
                  color="red"
                  disabled={disabled}
                  onClick={() => onChange(files.filter((_, j) => j !== i))}
                />
              </Group>
            ))}
          </Stack>
        </Paper>
      )}
    </Stack>
  );
}
