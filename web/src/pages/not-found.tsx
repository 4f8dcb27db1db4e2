// One page for a missing id and another team's id alike (the API answers both 404).
import { Link } from 'react-router';
import { PageHeader } from '../ui/page-header.tsx';

export function NotFound({ what, back }: { what?: string; back?: { to: string; label: string } }) {
  return (
    <>
      <title>Not found · Herald</title>
      <PageHeader title="Not found" />
      <p className="text-[14px] text-fg-2">
        {what ? `This ${what} does not exist in this team.` : 'There is no page at this address.'}
      </p>
      <p className="mt-4">
        <Link className="text-link underline underline-offset-2" to={back?.to ?? '/'}>
          {back?.label ?? 'Back to Overview'}
        </Link>
      </p>
    </>
  );
}

export default NotFound;
