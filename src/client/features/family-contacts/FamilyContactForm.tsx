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
import { useState } from 'react';
import { RELATIONSHIPS } from '../../../shared/constants';
import {
  familyContactInputSchema,
  RELATIONSHIP_LABELS,
  type FamilyContact,
  type FamilyContactInput,
} from '../../../shared/family-contacts';
import { SubmitForm } from '../../components/SubmitForm';

interface Values {
  firstName: string;
  lastName: string;
  relationship: string;
  phone: string;
  email: string;
  address: string;
  isPrimary: boolean;
  emergencyContact: boolean;
  canAccessRecords: boolean;
}
type TextField = 'firstName' | 'lastName' | 'phone' | 'email' | 'address';

const RELATIONSHIP_OPTIONS = RELATIONSHIPS.map((r) => ({ value: r, label: RELATIONSHIP_LABELS[r] }));

const initialValues = (c?: FamilyContact | null): Values => ({
  firstName: c?.firstName ?? '',
  lastName: c?.lastName ?? '',
  relationship: c?.relationship ?? '',
  phone: c?.phone ?? '',
  email: c?.email ?? '',
  address: c?.address ?? '',
  isPrimary: c?.isPrimary ?? false,
  emergencyContact: c?.emergencyContact ?? false,
  canAccessRecords: c?.canAccessRecords ?? false,
});

interface Props {
  contact?: FamilyContact | null;
  saving: boolean;
  onSave: (input: FamilyContactInput) => void;
  onCancel: () => void;
}

export function FamilyContactForm({ contact, saving, onSave, onCancel }: Props) {
  const [values, setValues] = useState<Values>(() => initialValues(contact));
  const [errors, setErrors] = useState<Partial<Record<keyof Values, string>>>({});
  const ready = !!values.firstName.trim() && !!values.lastName.trim() && !!values.relationship;
  const text = (field: TextField) => ({
    value: values[field],
    error: errors[field],
    onChange: (e: { currentTarget: { value: string } }) => {
      const value = e.currentTarget.value;
      setValues((v) => ({ ...v, [field]: value }));
    },
  });
  const check = (field: 'isPrimary' | 'emergencyContact' | 'canAccessRecords') => ({
    checked: values[field],
    onChange: (e: { currentTarget: { checked: boolean } }) => {
      const checked = e.currentTarget.checked;
      setValues((v) => ({ ...v, [field]: checked }));
    },
  });

  function submit() {
    const parsed = familyContactInputSchema.safeParse(values);
    if (!parsed.success) {
      const next: Partial<Record<keyof Values, string>> = {};
      for (const issue of parsed.error.issues) next[issue.path[0] as keyof Values] ??= issue.message;
      setErrors(next);
      return;
    }
    setErrors({});
    onSave(parsed.data);
  }

  return (
    <Paper withBorder p="md" radius="md">
      <SubmitForm aria-label={contact ? 'Edit family contact' : 'Add family contact'} onSubmit={submit}>
        <Stack gap="sm">
          <SimpleGrid cols={{ base: 1, sm: 2 }}>
            <TextInput label="First Name" required {...text('firstName')} />
            <TextInput label="Last Name" required {...text('lastName')} />
          </SimpleGrid>
          <Select
            label="Relationship"
            required
            placeholder="Select relationship"
            data={RELATIONSHIP_OPTIONS}
            value={values.relationship || null}
            error={errors.relationship}
            onChange={(v) => setValues((s) => ({ ...s, relationship: v ?? '' }))}
          />
          <SimpleGrid cols={{ base: 1, sm: 2 }}>
            <TextInput label="Phone" type="tel" {...text('phone')} />
            <TextInput label="Email" type="email" {...text('email')} />
          </SimpleGrid>
          <Textarea label="Address" autosize minRows={2} {...text('address')} />
          <Group>
            <Checkbox label="Primary Contact" {...check('isPrimary')} />
            <Checkbox label="Emergency Contact" {...check('emergencyContact')} />
            <Checkbox label="Can Access Medical Records" {...check('canAccessRecords')} />
          </Group>
          <Group justify="flex-end">
            <Button variant="default" onClick={onCancel} disabled={saving}>
              Cancel
            </Button>
            <Button type="submit" disabled={!ready || saving} loading={saving}>
              {contact ? 'Update Contact' : 'Save Contact'}
            </Button>
          </Group>
        </Stack>
      </SubmitForm>
    </Paper>
  );
}
