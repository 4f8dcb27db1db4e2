// /sign-in/{token}: the link from the sign-in mail. Signs in, then goes to where the user was going.
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { safeNext, sessionKey, signIn } from '../api/session.ts';
import { NEXT_KEY, SignInCard } from './sign-in.tsx';

export function SignInWithToken() {
  const { token = '' } = useParams();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [error, setError] = useState<string | null>(null);
  const started = useRef(false);

  useEffect(() => {
    // Once only: a token is single-use, and StrictMode runs effects twice in development.
    if (started.current) return;
    started.current = true;
    // The token leaves the address bar (and the history) at once, whatever the answer: a link is
    // single-use, and a shared screen or a copied address should not show it.
    window.history.replaceState(window.history.state, '', '/sign-in');
    signIn({ token })
      .then(async () => {
        const next = safeNext(sessionStorage.getItem(NEXT_KEY));
        sessionStorage.removeItem(NEXT_KEY);
        await queryClient.resetQueries({ queryKey: sessionKey });
        navigate(next, { replace: true });
      })
      .catch((failure: unknown) => setError(failure instanceof Error ? failure.message : 'This link did not work'));
  }, [token, navigate, queryClient]);

  return (
    <SignInCard>
      <title>Signing in · Herald</title>
      <h1 className="text-[20px] leading-7 font-semibold">Signing in</h1>
      {error ? (
        <div role="alert" className="mt-2 text-[13px]">
          <p>{error}</p>
          <p className="mt-4">
            <Link className="text-link underline underline-offset-2" to="/sign-in">
              Ask for a new link
            </Link>
          </p>
        </div>
      ) : (
        <p role="status" className="mt-2 text-[13px] text-fg-2">
          Checking your link…
        </p>
      )}
    </SignInCard>
  );
}
