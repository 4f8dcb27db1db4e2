// The first-run checklist: each step ticks itself from API state.
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { CircleCheck, Circle } from 'lucide-react';
import { useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { toast } from 'sonner';
import { api, must } from '../api/client.ts';
import type { Session } from '../api/session.ts';
import { Button } from '../ui/button.tsx';
import { Section } from '../ui/page-header.tsx';

export function SetupChecklist({ session }: { session: Session }) {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [sending, setSending] = useState(false);
  const emails = useQuery({
    queryKey: ['emails', 'any'],
    queryFn: ({ signal }) => must(api.GET('/api/v1/emails', { params: { query: { limit: 1 } }, signal })),
  });
  const keys = useQuery({
    queryKey: ['api-keys'],
    queryFn: ({ signal }) => must(api.GET('/api/v1/api-keys', { signal })),
    retry: false,
  });
  const domains = useQuery({
    queryKey: ['domains'],
    queryFn: ({ signal }) => must(api.GET('/api/v1/domains', { signal })),
    staleTime: 5 * 60_000,
  });
  const usage = useQuery({
    queryKey: ['billing', 'usage'],
    queryFn: ({ signal }) => must(api.GET('/api/v1/billing/usage', { signal })),
    retry: false,
  });
  const webhooks = useQuery({
    queryKey: ['webhooks'],
    queryFn: ({ signal }) => must(api.GET('/api/v1/webhooks', { signal })),
    retry: false,
  });

  const sendTest = async () => {
    setSending(true);
    try {
      const sent = await must(
        api.POST('/api/v1/emails', {
          body: {
            from: `Herald <hello@${session.instance.mailDomain}>`,
            to: session.member.email,
            subject: 'Your first email from Herald',
            html: '<p>It works. This email was sent from the dashboard through Herald’s API.</p>',
            text: 'It works. This email was sent from the dashboard through Herald’s API.',
          },
        }),
      );
      await queryClient.invalidateQueries({ queryKey: ['emails'] });
      navigate(`/emails/${sent.emailId}`);
    } catch (error) {
      toast.error(error instanceof Error ? error.message : 'The test email was not sent');
    } finally {
      setSending(false);
    }
  };

  const steps = [
    {
      done: (emails.data?.data.length ?? 0) > 0,
      label: 'Send a test email',
      action: (
        <Button variant="primary" disabled={sending} onClick={() => void sendTest()}>
          Send test email
        </Button>
      ),
    },
    { done: (keys.data?.data.length ?? 0) > 0, label: 'Create an API key', action: <StepLink to="/team?tab=keys" /> },
    { done: (domains.data?.length ?? 0) > 0, label: 'Add your domain', action: <StepLink to="/domains" /> },
    { done: (webhooks.data?.data.length ?? 0) > 0, label: 'Add a webhook', action: <StepLink to="/webhooks" /> },
    {
      done: (usage.data?.resources.teamMembers.used ?? 0) > 1,
      label: 'Invite a teammate',
      action: <StepLink to="/team" />,
    },
  ];
  const done = steps.filter((s) => s.done).length;
  return (
    <Section
      title="Set up Herald"
      actions={<span className="text-[13px] text-fg-2 tabular">{`${done} of ${steps.length}`}</span>}
    >
      <ol className="divide-y divide-line rounded-lg border border-line">
        {steps.map((step) => (
          <li key={step.label} className="flex min-h-12 items-center gap-3 px-4 py-2 text-[13px]">
            {step.done ? (
              <CircleCheck aria-hidden="true" size={16} className="text-[var(--tone-success)]" />
            ) : (
              <Circle aria-hidden="true" size={16} className="text-fg-2" />
            )}
            <span className={step.done ? 'text-fg-2 line-through' : ''}>
              {step.label}
              <span className="sr-only">{step.done ? ' (done)' : ' (to do)'}</span>
            </span>
            <span className="ml-auto">{step.done ? null : step.action}</span>
          </li>
        ))}
      </ol>
    </Section>
  );
}

function StepLink({ to }: { to: string }) {
  return (
    <Link to={to} className="text-link underline-offset-2 hover:underline">
      Open
    </Link>
  );
}
