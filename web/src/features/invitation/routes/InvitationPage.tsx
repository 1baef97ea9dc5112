import { useDocumentTitle } from '@mantine/hooks';
import { notifications } from '@mantine/notifications';
import { invitationMessages, verifyInvitationQuery } from '@marketplace/events/invitations';
import { useEffect, useMemo } from 'react';
import { Navigate, useNavigate, useSearchParams } from 'react-router';
import { useSWRConfig } from 'swr';
import { BRAND_NAME } from '../../../components/BrandMark';
import { PageLoader } from '../../../components/PageLoader';
import { apiErrorText } from '../../../lib/api-client';
import { useAuth } from '../../../lib/auth-context';
import { currentUserKey, fetchCurrentUser } from '../../../lib/current-user';
import { type InvitationLink, useInvitationVerification } from '../api/use-invitation-verification';
import { InvitationFrame } from '../components/InvitationFrame';
import { InvitationProblem } from '../components/InvitationProblem';
import { InvitationSignupForm } from '../components/InvitationSignupForm';

const INVALID_TITLE = 'Invalid Invitation';

type LinkReading = { kind: 'missing' } | { kind: 'malformed' } | { kind: 'ok'; link: InvitationLink };

const readLink = (params: URLSearchParams): LinkReading => {
  const email = params.get('email');
  const token = params.get('token');
  if (!email?.trim() || !token?.trim()) return { kind: 'missing' };
  // A token the server would refuse as malformed is as invalid as an expired one; no need to ask.
  if (!verifyInvitationQuery.safeParse({ email, token }).success) return { kind: 'malformed' };
  return { kind: 'ok', link: { email: email.trim(), token: token.trim() } };
};

/** The editor's sign-up from an emailed link: verify the link, then create or reuse the account and join. */
export function InvitationPage() {
  useDocumentTitle(`Join as an editor · ${BRAND_NAME}`);
  const [params] = useSearchParams();
  const reading = useMemo(() => readLink(params), [params]);
  const link = reading.kind === 'ok' ? reading.link : null;
  const { data: invitation, error, isLoading, mutate: retry } = useInvitationVerification(link);
  const { user, initializing } = useAuth();
  const { mutate } = useSWRConfig();
  const navigate = useNavigate();

  useEffect(() => {
    // The id keeps a second render from stacking a second toast.
    if (reading.kind === 'missing')
      notifications.show({ id: 'invitation-link-missing', color: 'red', message: invitationMessages.badLink });
  }, [reading.kind]);

  const handleJoined = async (uid: string) => {
    // The editor pages check roles from this cache, so it must hold the record with the new role before we go there.
    const me = await fetchCurrentUser().catch((fetchError: unknown) => {
      console.error('Could not reload the user after joining as an editor', fetchError);
      return undefined;
    });
    await mutate(currentUserKey(uid), me, { revalidate: false });
    navigate('/editor', { replace: true });
  };

  if (reading.kind === 'missing') return <Navigate to="/login" replace />;
  if (reading.kind === 'malformed' || invitation?.valid === false) {
    return (
      <InvitationFrame>
        <InvitationProblem title={INVALID_TITLE} message={invitationMessages.invalid} />
      </InvitationFrame>
    );
  }
  if (error) {
    return (
      <InvitationFrame>
        <InvitationProblem
          title="Could not check your invitation"
          message={apiErrorText(error, invitationMessages.verifyFailed)}
          onRetry={() => void retry()}
        />
      </InvitationFrame>
    );
  }
  if (isLoading || !invitation || !link || initializing)
    return <PageLoader fullScreen label="Verifying your invitation…" />;

  const invitedEmail = (invitation.user?.email ?? link.email).toLowerCase();
  return (
    <InvitationFrame>
      <InvitationSignupForm
        link={link}
        invitation={invitation}
        hasExistingAccount={user?.email?.toLowerCase() === invitedEmail}
        onJoined={handleJoined}
      />
    </InvitationFrame>
  );
}
