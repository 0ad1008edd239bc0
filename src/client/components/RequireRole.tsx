// Route guards: wait for the session check, then let the right role in or redirect.
import type { ReactNode } from 'react';
import { Navigate } from 'react-router';
import type { Role } from '../../shared/constants';
import { useAuth } from '../auth/context';
import { LoadingScreen } from './LoadingScreen';

interface RequireRoleProps {
  /** Roles let in; omitted = any signed-in user. */
  roles?: readonly Role[];
  /** Where a signed-out visitor goes. */
  signedOutTo?: string;
  /** Where a signed-in user of another role goes. */
  wrongRoleTo?: string;
  children: ReactNode;
}

export function RequireRole({ roles, signedOutTo = '/', wrongRoleTo = '/', children }: RequireRoleProps) {
  const { user, isLoading } = useAuth();
  if (isLoading) return <LoadingScreen />;
  if (!user) return <Navigate to={signedOutTo} replace />;
  if (roles && !roles.includes(user.role)) return <Navigate to={wrongRoleTo} replace />;
  return <>{children}</>;
}
