// The body of a page whose route exists before its screen: the name as h1 and a pointer to the API.
import { apiPrefix } from '../api/client.ts';
import { PageHeader } from '../ui/page-header.tsx';

export function ComingNextBody({ title }: { title: string }) {
  return (
    <>
      <title>{`${title} · Herald`}</title>
      <PageHeader title={title} />
      <p className="max-w-prose text-[14px] text-fg-2">
        Coming next: this page is not built yet. Everything it will show is in the API today; see the{' '}
        <a className="text-link underline underline-offset-2" href={`${apiPrefix}/docs`}>
          API reference
        </a>
        .
      </p>
    </>
  );
}
