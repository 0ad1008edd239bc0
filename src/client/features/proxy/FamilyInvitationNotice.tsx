// Above the signup form opened from a family invitation (docs/decisions.md#family-proxy-access):
// what the account is for, and for a family member already signed in, "Accept invitation"
// (POST /api/proxy/accept) instead of a new account.
import { Alert, Button, Stack, Text } from '@mantine/core';
import { IconUsers } from '@tabler/icons-react';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { errorMessage } from '../../api/request';
import { useAuth } from '../../auth/context';
import { notifyError, notifySuccess } from '../../notify';
import { acceptInvitation } from './api';

export function FamilyInvitationNotice({ inviteToken }: { inviteToken: string }) {
  const { user } = useAuth();
  const navigate = useNavigate();
  const [accepting, setAccepting] = useState(false);

  async function accept() {
    setAccepting(true);
    try {
      await acceptInvitation(inviteToken);
      notifySuccess('Invitation Accepted', 'The patient now appears on your Family dashboard.');
      await navigate('/family-dashboard');
    } catch (error) {
      notifyError('Invitation Not Accepted', errorMessage(error, 'Please try again.'));
      setAccepting(false);
    }
  }

  return (
    <Alert variant="light" icon={<IconUsers aria-hidden />} title="Family invitation" mb="md" role="note">
      <Stack gap="xs">
        <Text size="sm">
          A patient has invited you to read their medical records and upcoming appointments. Create your
          family account with the e-mail address the invitation was sent to.
        </Text>
        {user?.role === 'family' && (
          <Button size="xs" w="fit-content" loading={accepting} onClick={() => void accept()}>
            Accept invitation as {user.email}
          </Button>
        )}
      </Stack>
    </Alert>
  );
}
