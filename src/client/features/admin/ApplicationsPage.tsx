// /medledger/applications (docs/spec.md#other-pages): pending applications as cards with Approve / Reject,
// reviewed ones in a table, and the empty state. The route guard lets only medledger_admin in.
import { Center, Loader, Paper, Stack, Text, Title } from '@mantine/core';
import { modals } from '@mantine/modals';
import { IconInbox } from '@tabler/icons-react';
import { useId, useState, type ReactNode } from 'react';
import { ListPager } from '../../components/ListPager';
import type { Application, HospitalSubscription } from '../../../shared/providers';
import { errorMessage, errorStatus } from '../../api/request';
import { AppLayout } from '../../components/layout/AppLayout';
import { notifyError, notifySuccess } from '../../notify';
import { AdminNav } from './AdminNav';
import { TwoFactorFirst } from './TwoFactorFirst';
import { ApplicationCard } from './ApplicationCard';
import { HospitalAccountsTable } from './HospitalAccountsTable';
import { ReviewedTable } from './ReviewedTable';
import { useApplications, useHospitalAccounts, useMarkActive, useResendLink, useReview } from './api';
import { LoadFailed } from '../../components/LoadFailed';

/** A part of the page under its heading; `empty` (when not false) says why it has nothing to show. */
function ApplicationsSection({
  title,
  empty,
  children,
}: {
  title: string;
  empty: string | false;
  children: ReactNode;
}) {
  const headingId = useId();
  return (
    <Stack component="section" aria-labelledby={headingId} gap="md">
      <Title order={2} fz="xl" id={headingId}>
        {title}
      </Title>
      {empty ? <Text c="dimmed">{empty}</Text> : children}
    </Stack>
  );
}

export default function ApplicationsPage() {
  return (
    <TwoFactorFirst
      title="Provider Applications"
      why={
        'Reviewing applications decides who gets a hospital account, so the administrator pages need ' +
        'two-factor sign-in: a code from an authenticator app at each sign-in. It takes a minute.'
      }
    >
      <Applications />
    </TwoFactorFirst>
  );
}

function Applications() {
  const [page, setPage] = useState(1);
  const { data, isLoading, isError, error, refetch } = useApplications(page);
  const accounts = useHospitalAccounts();
  const review = useReview();
  const resend = useResendLink();
  const markActive = useMarkActive();
  const busy = review.isPending || resend.isPending || markActive.isPending;

  function decide(a: Application, status: 'approved' | 'rejected') {
    review.mutate(
      { id: a.id, status },
      {
        onSuccess: () =>
          status === 'approved'
            ? notifySuccess('Application Approved', 'The provider application has been approved.')
            : notifySuccess('Application Rejected', 'The provider application has been rejected.'),
        // The spec's exact text (or why: two-factor sign-in is off); the list refreshes either way.
        onError: (error) =>
          notifyError(
            'Error',
            errorStatus(error) === 403
              ? errorMessage(error, 'Failed to update application status.')
              : 'Failed to update application status.',
          ),
      },
    );
  }

  // Both decisions e-mail the applicant and cannot be undone: one confirmation pattern for both.
  function confirmApprove(a: Application) {
    modals.openConfirmModal({
      title: 'Approve this application?',
      children: (
        <Text size="sm">
          {a.contactName} ({a.contactEmail}) will receive a one-time link to register {a.hospitalName}, which
          then starts its free trial. This cannot be undone.
        </Text>
      ),
      labels: { confirm: 'Approve', cancel: 'Keep pending' },
      onConfirm: () => decide(a, 'approved'),
    });
  }

  function confirmReject(a: Application) {
    modals.openConfirmModal({
      title: 'Reject this application?',
      children: (
        <Text size="sm">
          {a.hospitalName} will be told by email that the application was not approved. This cannot be undone.
        </Text>
      ),
      labels: { confirm: 'Reject', cancel: 'Keep pending' },
      confirmProps: { color: 'red' },
      onConfirm: () => decide(a, 'rejected'),
    });
  }

  const onResend = (a: Application) =>
    resend.mutate(a.id, {
      onSuccess: () =>
        notifySuccess('Link Sent', `A new registration link has been sent to ${a.contactEmail}.`),
      onError: (error) => notifyError('Error', errorMessage(error, 'Failed to send a new link.')),
    });

  const markActiveFor = (hospitalUserId: string, name: string) =>
    markActive.mutate(hospitalUserId, {
      onSuccess: () => notifySuccess('Subscription Active', `${name} can keep adding and changing records.`),
      onError: (error) => notifyError('Error', errorMessage(error, 'Failed to update the subscription.')),
    });
  const onMarkActive = (a: Application) => markActiveFor(a.hospitalUserId!, a.hospitalName);
  const onMarkAccountActive = (h: HospitalSubscription) =>
    markActiveFor(h.hospitalUserId, h.hospitalName ?? h.email);

  // The page shown (newest first) split into pending and reviewed; the pager below covers them all.
  const items = data?.items ?? [];
  const pending = items.filter((a) => a.status === 'pending');
  const reviewed = items.filter((a) => a.status !== 'pending');
  const onThisPage = data && data.total > items.length ? ' on this page' : '';

  return (
    <AppLayout>
      <Stack gap="xl">
        <AdminNav />
        <div>
          <Title order={1}>Provider Applications</Title>
          <Text c="dimmed">Review healthcare providers who asked to join MedLedger.</Text>
        </div>
        {isLoading ? (
          <Center py="xl">
            <Loader role="status" aria-label="Loading applications" />
          </Center>
        ) : isError ? (
          <LoadFailed what="The applications" error={error} onRetry={() => void refetch()} />
        ) : !data || data.total === 0 ? (
          <Paper withBorder p="xl" radius="md">
            <Stack align="center" gap="xs">
              <IconInbox size={40} aria-hidden color="var(--mantine-color-gray-5)" />
              <Text c="dimmed">No provider applications yet</Text>
            </Stack>
          </Paper>
        ) : (
          <>
            <ApplicationsSection
              title={`Pending Applications (${pending.length}${onThisPage})`}
              empty={pending.length === 0 && 'No applications are waiting for review.'}
            >
              {pending.map((a) => (
                <ApplicationCard
                  key={a.id}
                  application={a}
                  busy={busy}
                  onApprove={() => confirmApprove(a)}
                  onReject={() => confirmReject(a)}
                />
              ))}
            </ApplicationsSection>
            <ApplicationsSection
              title={`Reviewed Applications (${reviewed.length}${onThisPage})`}
              empty={reviewed.length === 0 && 'No applications have been reviewed yet.'}
            >
              <ReviewedTable
                applications={reviewed}
                busy={busy}
                onResend={onResend}
                onMarkActive={onMarkActive}
              />
            </ApplicationsSection>
            <ListPager page={data.page} list={data} one="application" other="applications" onPage={setPage} />
          </>
        )}
        <Stack component="section" aria-labelledby="accounts-title" gap="md">
          <Title order={2} fz="xl" id="accounts-title">
            Hospital Accounts{accounts.data ? ` (${accounts.data.hospitals.length})` : ''}
          </Title>
          {accounts.isLoading ? (
            <Center py="md">
              <Loader role="status" aria-label="Loading hospital accounts" />
            </Center>
          ) : accounts.isError || !accounts.data ? (
            <LoadFailed
              what="The hospital accounts"
              error={accounts.error}
              onRetry={() => void accounts.refetch()}
            />
          ) : (
            <HospitalAccountsTable
              hospitals={accounts.data.hospitals}
              stripeManaged={accounts.data.stripeManaged}
              busy={busy}
              onMarkActive={onMarkAccountActive}
            />
          )}
        </Stack>
      </Stack>
    </AppLayout>
  );
}
