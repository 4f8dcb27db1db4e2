// The pages whose routes exist before their screens: the name as h1 and a pointer to the API.
import { useLocation } from 'react-router';
import { apiPrefix } from '../api/client.ts';
import { isAdmin } from '../shell/nav.ts';
import { comingNextPages } from '../shell/nav.ts';
import { useSignedIn } from '../api/session.ts';
import { PageHeader } from '../ui/page-header.tsx';

export default function ComingNext() {
  const { pathname } = useLocation();
  const session = useSignedIn();
  const page = comingNextPages.find((p) => pathname === `/${p.path}`);
  const title = page?.title ?? 'Coming next';
  return (
    <>
      <title>{`${title} · Herald`}</title>
      <PageHeader title={title} />
      {page?.path === 'billing' && !isAdmin(session.team.role) ? (
        <p className="text-[14px] text-fg-2">Only team admins can see billing.</p>
      ) : (
        <p className="max-w-prose text-[14px] text-fg-2">
          Coming next: this page is not built yet. Everything it will show is in the API today; see the{' '}
          <a className="text-link underline underline-offset-2" href={`${apiPrefix}/docs`}>
            API reference
          </a>
          .
        </p>
      )}
    </>
  );
}
