// Sign in: an email field, then "Check your inbox" (the same for any address) and a 6-digit code
// field; resend with a countdown. The link in the mail opens /sign-in/{token}.
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useId, useState, type FormEvent, type ReactNode } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import { requestSignIn, safeNext, sessionKey, signIn } from '../api/session.ts';
import { Button } from '../ui/button.tsx';

const RESEND_AFTER_SECONDS = 30;
export const NEXT_KEY = 'herald-sign-in-next';

function Card({ children }: { children: ReactNode }) {
  return (
    <main className="flex min-h-screen items-center justify-center p-4">
      <div className="w-full max-w-sm rounded-lg border border-line bg-bg p-6 shadow-sm">{children}</div>
    </main>
  );
}

export function SignInCard({ children }: { children: ReactNode }) {
  return <Card>{children}</Card>;
}

const inputClass =
  'h-9 w-full rounded-md border border-control bg-bg px-3 text-[14px] placeholder:text-fg-2 pointer-coarse:h-10';

export function SignIn() {
  const [params] = useSearchParams();
  const next = safeNext(params.get('next'));
  const [email, setEmail] = useState('');
  const [sentTo, setSentTo] = useState<string | null>(null);
  const [code, setCode] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [wait, setWait] = useState(0);
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const emailId = useId();
  const codeId = useId();
  const errorId = useId();

  useEffect(() => {
    if (wait <= 0) return;
    const timer = setTimeout(() => setWait(wait - 1), 1000);
    return () => clearTimeout(timer);
  }, [wait]);

  const send = async (address: string) => {
    setBusy(true);
    setError(null);
    try {
      sessionStorage.setItem(NEXT_KEY, next);
      await requestSignIn(address);
      setSentTo(address);
      setWait(RESEND_AFTER_SECONDS);
    } catch (failure) {
      setError(failure instanceof Error ? failure.message : 'Could not send the sign-in mail');
    } finally {
      setBusy(false);
    }
  };

  const onEmail = (event: FormEvent) => {
    event.preventDefault();
    void send(email.trim());
  };

  const onCode = async (event: FormEvent) => {
    event.preventDefault();
    if (!sentTo) return;
    setBusy(true);
    setError(null);
    try {
      await signIn({ email: sentTo, code });
      await queryClient.resetQueries({ queryKey: sessionKey });
      navigate(next, { replace: true });
    } catch (failure) {
      setError(failure instanceof Error ? failure.message : 'That code did not work');
      setBusy(false);
    }
  };

  return (
    <Card>
      <title>Sign in · Herald</title>
      {sentTo === null ? (
        <form onSubmit={onEmail} noValidate>
          <h1 className="text-[20px] leading-7 font-semibold">Sign in</h1>
          <p className="mt-1 text-[13px] text-fg-2">We will email you a sign-in link and a 6-digit code.</p>
          <label htmlFor={emailId} className="mt-6 block text-[13px] font-medium">
            Email
          </label>
          <input
            id={emailId}
            type="email"
            autoComplete="email"
            required
            value={email}
            onChange={(e) => setEmail(e.target.value)}
            aria-describedby={error ? errorId : undefined}
            className={`mt-1 ${inputClass}`}
          />
          {error ? (
            <p id={errorId} role="alert" className="mt-2 text-[13px] text-[var(--tone-danger)]">
              {error}
            </p>
          ) : null}
          <Button type="submit" variant="primary" className="mt-4 w-full" disabled={busy || email.trim() === ''}>
            Continue with email
          </Button>
        </form>
      ) : (
        <form onSubmit={(e) => void onCode(e)} noValidate>
          <h1 className="text-[20px] leading-7 font-semibold">Check your inbox</h1>
          <p className="mt-1 text-[13px] text-fg-2" role="status">
            If {sentTo} can sign in, a link and a code are on their way. Open the link, or type the code.
          </p>
          <label htmlFor={codeId} className="mt-6 block text-[13px] font-medium">
            6-digit code
          </label>
          <input
            id={codeId}
            inputMode="numeric"
            autoComplete="one-time-code"
            pattern="[0-9]{6}"
            maxLength={6}
            value={code}
            onChange={(e) => setCode(e.target.value.replace(/\D/g, '').slice(0, 6))}
            aria-describedby={error ? errorId : undefined}
            className={`mt-1 font-mono tracking-[0.3em] tabular ${inputClass}`}
          />
          {error ? (
            <p id={errorId} role="alert" className="mt-2 text-[13px] text-[var(--tone-danger)]">
              {error}
            </p>
          ) : null}
          <Button type="submit" variant="primary" className="mt-4 w-full" disabled={busy || code.length !== 6}>
            Sign in
          </Button>
          <div className="mt-4 flex items-center justify-between text-[13px]">
            <button
              type="button"
              className="text-link underline-offset-2 hover:underline"
              onClick={() => setSentTo(null)}
            >
              Use another email
            </button>
            <button
              type="button"
              className="text-link underline-offset-2 hover:underline disabled:text-fg-2 disabled:no-underline"
              disabled={wait > 0 || busy}
              onClick={() => void send(sentTo)}
            >
              {wait > 0 ? `Resend in ${wait} s` : 'Resend'}
            </button>
          </div>
        </form>
      )}
    </Card>
  );
}
