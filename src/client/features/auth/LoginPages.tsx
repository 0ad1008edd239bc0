// The four sign-in pages (docs/spec.md#screens-and-routes): one login form, each portal with its
// own title, subtitle, e-mail label, icon and footer. Family accounts come from an invitation
// (docs/decisions.md#family-proxy-access).
import { Anchor, Text } from '@mantine/core';
import { IconBuildingHospital, IconUser, IconUserShield, IconUsers } from '@tabler/icons-react';
import { Link } from 'react-router';
import { LoginForm, type LoginFormProps, type WorkspacePreload } from './LoginForm';

const PAGES: Record<LoginFormProps['portal'], Omit<LoginFormProps, 'preload'>> = {
  hospital: {
    portal: 'hospital',
    title: 'Hospital Login',
    subtitle: 'Enterprise Medical Records Access',
    emailLabel: 'Hospital ID / Email',
    icon: <IconBuildingHospital size={30} aria-hidden />,
  },
  patient: {
    portal: 'patient',
    title: 'Patient Login',
    subtitle: 'Access Your Health Records',
    emailLabel: 'Email Address',
    icon: <IconUser size={30} aria-hidden />,
    footer: (
      <Text size="sm">
        Don&apos;t have an account?{' '}
        <Anchor component={Link} to="/signup">
          Sign up
        </Anchor>
      </Text>
    ),
  },
  admin: {
    portal: 'admin',
    title: 'MedLedger Admin Login',
    subtitle: 'Provider application review for the MedLedger team',
    emailLabel: 'Email',
    icon: <IconUserShield size={30} aria-hidden />,
  },
  family: {
    portal: 'family',
    title: 'Family Login',
    subtitle: 'See the records a family member shares with you',
    emailLabel: 'Email Address',
    icon: <IconUsers size={30} aria-hidden />,
    footer: (
      <Text size="sm" c="dimmed">
        No account yet? Open the invitation link the patient sent you.
      </Text>
    ),
  },
};

/** What the route hands a sign-in page: how to download the next page's code ahead. */
export interface LoginPageProps {
  preload?: WorkspacePreload;
}

export const HospitalLoginPage = ({ preload }: LoginPageProps) => (
  <LoginForm {...PAGES.hospital} preload={preload} />
);
export const PatientLoginPage = ({ preload }: LoginPageProps) => (
  <LoginForm {...PAGES.patient} preload={preload} />
);
export const AdminLoginPage = ({ preload }: LoginPageProps) => (
  <LoginForm {...PAGES.admin} preload={preload} />
);
export const FamilyLoginPage = ({ preload }: LoginPageProps) => (
  <LoginForm {...PAGES.family} preload={preload} />
);
