// "Copy as curl": the API request behind a page, with this instance's URL and $HERALD_API_KEY, so
// the dashboard teaches the API (design brief, principle 11).
import { apiUrl } from '../api/client.ts';
import { useSignedIn } from '../api/session.ts';
import { CopyButton } from './copy-button.tsx';

export function curlFor(publicUrl: string, path: string, method = 'GET'): string {
  const verb = method === 'GET' ? '' : `-X ${method} `;
  return `curl ${verb}${publicUrl}${apiUrl(path)} \\\n  -H "Authorization: Bearer $HERALD_API_KEY"`;
}

/** `path` as generated (`/api/v1/...`); the instance's prefix replaces `/api`. */
export function CopyCurl({ path, method }: { path: string; method?: string }) {
  const session = useSignedIn();
  return (
    <span className="inline-flex items-center gap-1 text-[13px]">
      Copy as curl <CopyButton value={curlFor(session.instance.publicUrl, path, method)} label="Copy as curl" />
    </span>
  );
}
