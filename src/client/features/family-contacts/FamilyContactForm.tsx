// Add / edit a family contact (docs/spec.md#patient-dashboard): first name*, last name*,
// relationship*, phone, e-mail, address and three checkboxes. Save stays disabled until the three
// required fields are filled; the shared schema gives the same messages as the server.
import {
  Button,
  Checkbox,
  Group,
  Paper,
  Select,
  SimpleGrid,
  Stack,
  TextInput,
  Textarea,
} from '@mantine/core';
import type { z } from 'zod';
import { RELATIONSHIPS } from '../../../shared/constants';
import {
  familyContactInputSchema,
  RELATIONSHIP_LABELS,
  type FamilyContact,
  type FamilyContactInput,
} from '../../../shared/family-contacts';
import { useSchemaForm } from '../../components/useSchemaForm';
import { FormActions } from '../../components/FormActions';

const RELATIONSHIP_OPTIONS = RELATIONSHIPS.map((r) => ({ value: r, label: RELATIONSHIP_LABELS[r] }));

const initialValues = (c?: FamilyContact | null) => ({
  firstName: c?.firstName ?? '',
  lastName: c?.lastName ?? '',
  relationship: c?.relationship ?? '',
  phone: c?.phone ?? '',
  email: c?.email ?? '',
  address: c?.address ?? '',
  isPrimary: c?.isPrimary ?? false,
  emergencyContact: c?.emergencyContact ?? false,
  canAccessRecords: c?.canAccessRecords ?? false,
  shareAllRecords: c?.shareAllRecords ?? false,
});

interface Props {
  contact?: FamilyContact | null;
  saving: boolean;
  onSave: (input: FamilyContactInput) => void;
  onCancel: () => void;
}

export function FamilyContactForm({ contact, saving, onSave, onCancel }: Props) {
  const form = useSchemaForm(
    familyContactInputSchema,
    // The relationship starts unchosen (''): the schema answers that with its "required" message.
    initialValues(contact) as z.input<typeof familyContactInputSchema>,
  );
  const { firstName, lastName, relationship, canAccessRecords } = form.getValues();
  const ready = !!firstName.trim() && !!lastName.trim() && !!relationship;
  const check = (field: 'isPrimary' | 'emergencyContact' | 'canAccessRecords' | 'shareAllRecords') =>
    form.getInputProps(field, { type: 'checkbox' });

  return (
    <Paper withBorder p="md" radius="md">
      <form
        noValidate
        aria-label={contact ? 'Edit family contact' : 'Add family contact'}
        onSubmit={form.onSubmit((input) => onSave(input))}
      >
        <Stack gap="sm">
          <SimpleGrid cols={{ base: 1, sm: 2 }}>
            <TextInput label="First Name" required {...form.getInputProps('firstName')} />
            <TextInput label="Last Name" required {...form.getInputProps('lastName')} />
          </SimpleGrid>
          <Select
            label="Relationship"
            required
            placeholder="Select relationship"
            data={RELATIONSHIP_OPTIONS}
            {...form.getInputProps('relationship')}
            value={relationship || null}
          />
          <SimpleGrid cols={{ base: 1, sm: 2 }}>
            <TextInput label="Phone" type="tel" {...form.getInputProps('phone')} />
            <TextInput label="Email" type="email" {...form.getInputProps('email')} />
          </SimpleGrid>
          <Textarea label="Address" autosize minRows={2} {...form.getInputProps('address')} />
          <Group>
            <Checkbox label="Primary Contact" {...check('isPrimary')} />
            <Checkbox label="Emergency Contact" {...check('emergencyContact')} />
            <Checkbox
              label="Can Access Medical Records"
              description={
                contact?.canAccessRecords
                  ? 'Changing the name or e-mail ends the current access; the contact is invited again.'
                  : undefined
              }
              {...check('canAccessRecords')}
            />
          </Group>
          {canAccessRecords && (
            <Checkbox
              label="Share all my records with them, including future ones"
              description="Otherwise they see only the records whose own Family switch is on."
              {...check('shareAllRecords')}
            />
          )}
          <FormActions onCancel={onCancel} busy={saving}>
            <Button type="submit" disabled={!ready || saving} loading={saving}>
              {contact ? 'Update Contact' : 'Save Contact'}
            </Button>
          </FormActions>
        </Stack>
      </form>
    </Paper>
  );
}
