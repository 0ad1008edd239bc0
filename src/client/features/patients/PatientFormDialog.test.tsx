// Add Patient: the e-mail and the names checked before any call, Enter in a field sends nothing,
// empty fields sent as null, the new contact details, and a possible duplicate confirmed.
import { screen, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { hospitalUser, renderApp } from '../../test/render';
import type { Routes } from '../../test/network';
import { PatientFormDialog } from './PatientFormDialog';

function renderAdd(routes: Routes) {
  const onClose = vi.fn();
  const rendered = renderApp(<PatientFormDialog patient="new" onClose={onClose} />, {
    user: hospitalUser,
    routes,
  });
  return { ...rendered, onClose };
}

describe('PatientFormDialog', () => {
  it('refuses an e-mail that is not one, under the field, and sends nothing', async () => {
    const { user, network } = renderAdd({});
    const dialog = await screen.findByRole('dialog', { name: 'Add Patient' });
    await user.type(within(dialog).getByLabelText('Email'), 'ada-at-example');
    await user.click(within(dialog).getByRole('button', { name: 'Add Patient' }));
    expect(await within(dialog).findByText('Please enter a valid email address')).toBeInTheDocument();
    expect(network.to('POST /api/patients')).toHaveLength(0);
  });

  it('shows a possible duplicate, and "Add Anyway" sends the same patient confirmed', async () => {
    const duplicate = {
      id: 'p-9',
      patientId: 'MRN2025000009',
      firstName: 'Ada',
      lastName: 'Lovelace',
      dateOfBirth: '1985-12-10',
      email: 'ada@example.com',
    };
    const { user, network, onClose } = renderAdd({
      'POST /api/patients': (call) =>
        (call.body as { confirmDuplicate?: boolean }).confirmDuplicate
          ? { status: 201, body: { id: 'p-10', patientId: 'MRN2025000010' } }
          : {
              status: 409,
              body: { message: 'A patient with the same name exists.', duplicates: [duplicate] },
            },
    });
    const dialog = await screen.findByRole('dialog', { name: 'Add Patient' });
    await user.type(within(dialog).getByLabelText(/^First Name/), ' Ada ');
    await user.type(within(dialog).getByLabelText(/^Last Name/), 'Lovelace');
    await user.type(within(dialog).getByLabelText('Email'), 'ADA@example.com');
    await user.click(within(dialog).getByRole('button', { name: 'Add Patient' }));

    const alert = await within(dialog).findByRole('alert');
    expect(alert).toHaveTextContent('Possible duplicate');
    expect(alert).toHaveTextContent('Ada Lovelace · MRN MRN2025000009 · born 1985-12-10 · ada@example.com');
    await user.click(within(dialog).getByRole('button', { name: 'Add Anyway' }));

    expect(await screen.findByText(/Medical Record Number: MRN2025000010/)).toBeInTheDocument();
    const [first, second] = network.to('POST /api/patients').map((c) => c.body);
    expect(first).toMatchObject({
      firstName: 'Ada',
      lastName: 'Lovelace',
      email: 'ada@example.com',
      phone: null,
    });
    expect(first).not.toHaveProperty('confirmDuplicate');
    expect(second).toEqual({ ...(first as object), confirmDuplicate: true });
    // The answer carried no activation code to show, so the dialog closes.
    expect(onClose).toHaveBeenCalled();
  });

  it('does not submit on Enter in a field (the date of birth), and asks for the names first', async () => {
    const { user, network } = renderAdd({});
    const dialog = await screen.findByRole('dialog', { name: 'Add Patient' });
    await user.type(within(dialog).getByLabelText(/^First Name/), 'Ada');
    await user.type(within(dialog).getByLabelText('Date of Birth'), '{Enter}');
    await user.type(within(dialog).getByLabelText(/^First Name/), '{Enter}');
    expect(network.to('POST /api/patients')).toHaveLength(0);
    expect(within(dialog).queryByText('Last name is required')).toBeNull();
    await user.click(within(dialog).getByRole('button', { name: 'Add Patient' }));
    expect(await within(dialog).findByText('Last name is required')).toBeInTheDocument();
    expect(network.to('POST /api/patients')).toHaveLength(0);
  });

  it('sends the address, the preferred language as a tag and the emergency contact', async () => {
    const { user, network } = renderAdd({
      'POST /api/patients': () => ({ status: 201, body: { id: 'p-11', patientId: 'MRN2025000011' } }),
    });
    const dialog = await screen.findByRole('dialog', { name: 'Add Patient' });
    await user.type(within(dialog).getByLabelText(/^First Name/), 'María');
    await user.type(within(dialog).getByLabelText(/^Last Name/), 'García');
    await user.type(within(dialog).getByLabelText('Address'), '1 Calle Mayor, Madrid');
    await user.click(within(dialog).getByLabelText('Preferred Language', { selector: 'input' }));
    await user.click(await screen.findByRole('option', { name: 'Spanish' }));
    await user.type(within(dialog).getByLabelText('Emergency Contact Name'), 'José García');
    await user.type(within(dialog).getByLabelText('Emergency Contact Phone'), '+34 600 000 000');
    await user.click(within(dialog).getByRole('button', { name: 'Add Patient' }));
    expect(await screen.findByText(/Medical Record Number: MRN2025000011/)).toBeInTheDocument();
    expect(network.to('POST /api/patients')[0]?.body).toMatchObject({
      address: '1 Calle Mayor, Madrid',
      preferredLanguage: 'es',
      emergencyContactName: 'José García',
      emergencyContactPhone: '+34 600 000 000',
    });
  });
});
