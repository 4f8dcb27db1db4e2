// Cursor paging: "Newest" back to the first page, "Older" to the next (the cursor is in the URL).
import { Button } from './button.tsx';

export function Pager({
  cursor,
  nextCursor,
  onCursor,
}: {
  cursor: string | null;
  nextCursor: string | null | undefined;
  onCursor: (cursor: string | null) => void;
}) {
  if (!cursor && !nextCursor) return null;
  return (
    <nav aria-label="Pages" className="mt-3 flex gap-2">
      {cursor ? <Button onClick={() => onCursor(null)}>Newest</Button> : null}
      {nextCursor ? <Button onClick={() => onCursor(nextCursor)}>Older</Button> : null}
    </nav>
  );
}
