import { IconUserShield } from '@tabler/icons-react';
import { LoginForm } from './LoginForm';

export default function AdminLoginPage() {
  return (
    <LoginForm
      portal="admin"
      title="MedLedger Admin Login"
      subtitle="Provider application review for the MedLedger team"
      emailLabel="Email"
      icon={<IconUserShield size={30} aria-hidden />}
    />
  );
}
