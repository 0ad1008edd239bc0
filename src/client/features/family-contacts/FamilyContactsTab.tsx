// The Edit Profile modal's Family Contacts tab: contact cards (name, relationship, phone, e-mail,
// badges Primary / Emergency / Can Access Records) with Edit and delete, and the Add Contact form.
import { Badge, Button, Group, Paper, Stack, Text } from '@mantine/core';
import { IconEdit, IconPlus, IconTrash } from '@tabler/icons-react';
import { SendInvitationButton } from '../proxy/SendInvitationButton';
import { useState } from 'react';
import {
  RELATIONSHIP_LABELS,
  type FamilyContact,
  type FamilyContactInput,
} from '../../../shared/family-contacts';
import type { Paged } from '../../../shared/paging';
import { ListPager } from '../../components/ListPager';
import { LoadFailed } from '../../components/LoadFailed';
import { errorMessage } from '../../api/request';
import { notifyError, notifySuccess } from '../../notify';
import { useChangeContact } from './api';
import { FamilyContactForm } from './FamilyContactForm';
import { IconAction } from '../../components/IconAction';

const relationshipLabel = (r: string) => RELATIONSHIP_LABELS[r as keyof typeof RELATIONSHIP_LABELS] ?? r;

function ContactCard(props: {
  contact: FamilyContact;
  busy: boolean;
  onEdit: () => void;
  onDelete: () => void;
}) {
  const c = props.contact;
  const name = `${c.firstName} ${c.lastName}`;
  // Delete asks first, in the card (the tab is already in a dialog): a contact with record access
  // takes the relative's access with it, and that access comes back only by a new invitation.
  const [confirming, setConfirming] = useState(false);
  return (
    <Paper withBorder p="sm" radius="sm" component="li" style={{ listStyle: 'none' }} aria-label={name}>
      <Group justify="space-between" wrap="nowrap" align="start">
        <Stack gap={2} style={{ minWidth: 0 }}>
          <Text fw={500}>{name}</Text>
          <Text size="sm" c="dimmed">
            {relationshipLabel(c.relationship)}
          </Text>
          {c.phone && <Text size="sm">{c.phone}</Text>}
          {c.email && <Text size="sm">{c.email}</Text>}
          <Group gap={4} mt={4}>
            {c.isPrimary && <Badge variant="light">Primary</Badge>}
            {c.emergencyContact && (
              <Badge variant="light" color="red">
                Emergency
              </Badge>
            )}
            {c.canAccessRecords && (
              <Badge variant="light" color="teal">
                Can Access Records
              </Badge>
            )}
          </Group>
          {c.canAccessRecords && c.email && <SendInvitationButton contactId={c.id} name={name} />}
        </Stack>
        <Group gap={4} wrap="nowrap">
          <IconAction icon={IconEdit} label={`Edit ${name}`} onClick={props.onEdit} disabled={props.busy} />
          <IconAction
            icon={IconTrash}
            label={`Delete ${name}`}
            color="red"
            onClick={() => setConfirming(true)}
            disabled={props.busy || confirming}
          />
        </Group>
      </Group>
      {confirming && (
        <Stack gap="xs" mt="sm" role="group" aria-label={`Delete ${name}?`}>
          <Text size="sm">
            Delete {name} from your family contacts?
            {c.canAccessRecords && ' They will no longer be able to see your shared records.'}
          </Text>
          <Group gap="xs">
            <Button size="xs" color="red" onClick={props.onDelete} loading={props.busy}>
              Delete contact
            </Button>
            <Button size="xs" variant="default" onClick={() => setConfirming(false)} data-autofocus autoFocus>
              Keep contact
            </Button>
          </Group>
        </Stack>
      )}
    </Paper>
  );
}

interface Props {
  patientRowId: string | undefined;
  contacts: FamilyContact[] | undefined;
  /** The page the contacts are (total, page, page size), for "Showing a–b of N" and the pager. */
  paging?: Omit<Paged<FamilyContact>, 'items'>;
  onPage?: (page: number) => void;
  isLoading: boolean;
  /** Set when the contacts could not be loaded: asks for them again. */
  retryLoad?: () => void;
}

export function FamilyContactsTab({ patientRowId, contacts, paging, onPage, isLoading, retryLoad }: Props) {
  // null: no form; 'new': the Add Contact form; a contact: its edit form.
  const [editing, setEditing] = useState<FamilyContact | 'new' | null>(null);
  const change = useChangeContact(patientRowId ?? '');

  async function save(input: FamilyContactInput) {
    if (!patientRowId) {
      notifyError('Error', 'Patient ID not found');
      return;
    }
    const isNew = editing === 'new';
    try {
      if (editing === 'new') await change.mutateAsync({ kind: 'add', input });
      else if (editing) await change.mutateAsync({ kind: 'update', id: editing.id, input });
      notifySuccess(
        isNew ? 'Contact added' : 'Contact updated',
        `${input.firstName} ${input.lastName} was saved.`,
      );
      setEditing(null);
    } catch (error) {
      notifyError(
        'Error',
        errorMessage(error, isNew ? 'Failed to create family contact.' : 'Failed to update family contact.'),
      );
    }
  }

  async function remove(contact: FamilyContact) {
    try {
      await change.mutateAsync({ kind: 'delete', id: contact.id });
      notifySuccess('Contact deleted', `${contact.firstName} ${contact.lastName} was removed.`);
      if (editing !== 'new' && editing?.id === contact.id) setEditing(null);
    } catch (error) {
      notifyError('Error', errorMessage(error, 'Failed to delete family contact.'));
    }
  }

  return (
    <Stack>
      {isLoading && <Text c="dimmed">Loading family contacts...</Text>}
      {retryLoad && <LoadFailed what="Your family contacts" onRetry={retryLoad} />}
      {!isLoading && !retryLoad && (contacts ?? []).length === 0 && editing === null && (
        <Text c="dimmed" ta="center" py="md">
          No family contacts yet
        </Text>
      )}
      <Stack gap="xs" component="ul" p={0} m={0} aria-label="Family contacts">
        {(contacts ?? []).map((c) =>
          editing !== 'new' && editing?.id === c.id ? (
            <li key={c.id} style={{ listStyle: 'none' }}>
              <FamilyContactForm
                contact={c}
                saving={change.isPending}
                onSave={(input) => void save(input)}
                onCancel={() => setEditing(null)}
              />
            </li>
          ) : (
            <ContactCard
              key={c.id}
              contact={c}
              busy={change.isPending}
              onEdit={() => setEditing(c)}
              onDelete={() => void remove(c)}
            />
          ),
        )}
      </Stack>
      {onPage && (
        <ListPager
          list={paging && { ...paging, items: contacts ?? [] }}
          one="contact"
          other="contacts"
          onPage={onPage}
          hideEmpty
        />
      )}
      {editing === 'new' ? (
        <FamilyContactForm
          saving={change.isPending}
          onSave={(input) => void save(input)}
          onCancel={() => setEditing(null)}
        />
      ) : (
        <Button
          variant="light"
          leftSection={<IconPlus size={16} aria-hidden />}
          onClick={() => setEditing('new')}
          disabled={!patientRowId}
        >
          Add Contact
        </Button>
      )}
    </Stack>
  );
}
