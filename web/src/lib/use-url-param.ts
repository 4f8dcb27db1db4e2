// One search parameter of the URL as state: filters and cursors live in the URL (design brief, 5).
import { useSearchParams } from 'react-router';

export function useUrlParam(name: string): [string | null, (value: string | null, reset?: string[]) => void] {
  const [params, setParams] = useSearchParams();
  const set = (value: string | null, reset: string[] = []) =>
    setParams(
      (current) => {
        const copy = new URLSearchParams(current);
        for (const other of reset) copy.delete(other);
        if (value === null || value === '') copy.delete(name);
        else copy.set(name, value);
        return copy;
      },
      { replace: reset.length > 0 },
    );
  return [params.get(name), set];
}
