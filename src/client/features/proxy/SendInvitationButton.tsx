// "Send invitation" on a family contact with record access and an e-mail: a fresh one-time link
// (docs/decisions.md#family-proxy-access); the server says why when it cannot be sent.
import { IconMailForward } from '@tabler/icons-react';
import { errorMessage } from '../../api/request';
import { notifyError, notifySuccess } from '../../notify';
import { useSendInvitation } from './api';
import { SmallButton } from '../../components/SmallButton';

export function SendInvitationButton({ contactId, name }: { contactId: string; name: string }) {
  const send = useSendInvitation();
  async function onClick() {
    try {
      const { message } = await send.mutateAsync(contactId);
      notifySuccess('Invitation Sent', message);
    } catch (error) {
      notifyError(
        'Invitation Not Sent',
        errorMessage(error, 'Could not send the invitation. Please try again.'),
      );
    }
  }
  return (
    <SmallButton
      icon={IconMailForward}
      size="compact-xs"
      mt={4}
      w="fit-content"
      aria-label={`Send invitation to ${name}`}
      loading={send.isPending}
      onClick={() => void onClick()}
    >
      Send invitation
    </SmallButton>
  );
}
