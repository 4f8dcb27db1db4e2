import { useEffect, useRef, useState } from 'react';

/**
 * A search box's text kept in step with a URL parameter: typing searches after 250 ms of quiet, and
 * the URL changed from elsewhere (Back, a removed chip, a pasted link) replaces the text. The URL
 * catching up with this box's own search does not, so keys typed meanwhile are kept.
 */
export function useUrlSearch(value: string, onSearch: (q: string) => void): [string, (text: string) => void] {
  const [text, setText] = useState(value);
  const searched = useRef(value);
  useEffect(() => {
    if (value === searched.current) return;
    searched.current = value;
    setText(value);
  }, [value]);
  useEffect(() => {
    const q = text.trim();
    if (q === value) return;
    const timer = setTimeout(() => {
      searched.current = q;
      onSearch(q);
    }, 250);
    return () => clearTimeout(timer);
  }, [text, value, onSearch]);
  return [text, setText];
}
