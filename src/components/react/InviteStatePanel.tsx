import { MEMBER_TEXTS, type MembershipStatus } from '../../../contract/membership.ts';
import { TEXTS } from '../../../contract/texts.ts';

interface Props {
  /** Any state but 'approved': approved members get what they came for instead. */
  status: Exclude<MembershipStatus, 'approved'>;
  /** The heading level where the panel sits. */
  headingLevel?: 2 | 3;
}

/**
 * Why a signed-in person who is not an approved member cannot use a members' page, and what to do:
 * no request yet (a link to /request-invite), waiting ('Invite Pending'), or declined ('Invite Declined').
 */
export default function InviteStatePanel({ status, headingLevel = 2 }: Props) {
  const Heading = headingLevel === 2 ? 'h2' : 'h3';
  if (status === 'pending') {
    return (
      <div className="panel invite-state invite-state--pending">
        <Heading>{TEXTS.invitePending}</Heading>
        <p>
          {MEMBER_TEXTS.pendingInvite} {TEXTS.reviewTime}
        </p>
        <p>
          <a href="/request-invite">{TEXTS.checkStatus}</a>
        </p>
      </div>
    );
  }
  if (status === 'rejected') {
    return (
      <div className="panel invite-state invite-state--rejected">
        <Heading>{TEXTS.inviteDeclined}</Heading>
        <p>{MEMBER_TEXTS.declinedInvite}</p>
      </div>
    );
  }
  return (
    <div className="panel invite-state">
      <Heading>{MEMBER_TEXTS.noInviteTitle}</Heading>
      <p>{MEMBER_TEXTS.noInvite}</p>
      <p>
        <a className="button" href="/request-invite">
          {MEMBER_TEXTS.requestInviteLink}
        </a>
      </p>
    </div>
  );
}
