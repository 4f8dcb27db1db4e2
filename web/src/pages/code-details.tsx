// A code's disclosure: its id, recipient, expiry, last check, email or SMS delivery, every risk
// reason, the curl that reads it and the API's JSON.
import { Link } from 'react-router';
import { CopyableId } from '../ui/copy-button.tsx';
import { CopyCurl } from '../ui/copy-curl.tsx';
import { MessagingBadge, RiskBadge } from '../ui/messaging-badges.tsx';
import { MonoBlock } from '../ui/mono-block.tsx';
import { Time } from '../ui/time.tsx';
import type { Verification } from './sms-format.ts';

const reasonWords: Record<string, string> = {
  wrong_code: 'Wrong code',
  expired: 'Expired',
  already_used: 'Already used',
  too_many_attempts: 'Too many attempts',
  refused: 'Refused',
};

export function CodeDetails({ v }: { v: Verification }) {
  return (
    <div className="grid gap-4 py-3 text-[13px] whitespace-normal md:grid-cols-2">
      <dl className="grid grid-cols-[max-content_1fr] content-start gap-x-4 gap-y-1">
        <dt className="text-fg-2">Code id</dt>
        <dd>
          <CopyableId id={v.id} what="code" />
        </dd>
        <dt className="text-fg-2">Recipient</dt>
        <dd className="break-all">{v.to}</dd>
        <dt className="text-fg-2">Expires</dt>
        <dd>
          <Time value={v.expiresAt} mode="absolute" />
        </dd>
        <dt className="text-fg-2">Last check</dt>
        <dd>{v.reason ? (reasonWords[v.reason] ?? v.reason) : '—'}</dd>
        {v.emailId ? (
          <>
            <dt className="text-fg-2">Email</dt>
            <dd>
              <Link to={`/emails/${v.emailId}`} className="font-mono text-[12px] text-link hover:underline">
                {v.emailId}
              </Link>
            </dd>
          </>
        ) : null}
        {v.channel === 'sms' ? (
          <>
            <dt className="text-fg-2">SMS delivery</dt>
            <dd>
              <MessagingBadge kind="sms" state={v.deliveryStatus} />
            </dd>
            <dt className="text-fg-2">Provider id</dt>
            <dd className="font-mono text-[12px] break-all">{v.providerMessageId ?? '—'}</dd>
            <dt className="text-fg-2">Delivery reason</dt>
            <dd className="break-words">{v.deliveryReason ?? '—'}</dd>
          </>
        ) : null}
      </dl>
      <div className="min-w-0 space-y-3">
        <section aria-label={`Risk reasons of ${v.id}`}>
          <h3 className="mb-1 font-medium">
            Risk <RiskBadge level={v.risk.level} score={v.risk.score} />
          </h3>
          {v.risk.reasons.length === 0 ? (
            <p className="text-fg-2">No risk signal fired.</p>
          ) : (
            <ul className="space-y-1">
              {v.risk.reasons.map((r) => (
                <li key={r.code}>
                  <code className="font-mono text-[12px]">{r.code}</code> <span className="text-fg-2">{r.detail}</span>
                </li>
              ))}
            </ul>
          )}
        </section>
        <CopyCurl path={`/api/v1/verify/${v.id}`} />
        <details>
          <summary className="cursor-pointer text-fg-2">JSON</summary>
          <div className="mt-2">
            <MonoBlock text={JSON.stringify(v, null, 2)} copyLabel="Copy JSON" />
          </div>
        </details>
      </div>
    </div>
  );
}
