import { IconBuildingHospital } from '@tabler/icons-react';
import { LoginForm } from './LoginForm';

export default function HospitalLoginPage() {
  return (
    <LoginForm
      portal="hospital"
      title="Hospital Login"
      subtitle="Enterprise Medical Records Access"
      emailLabel="Hospital ID / Email"
      icon={<IconBuildingHospital size={30} aria-hidden />}
    />
  );
}
