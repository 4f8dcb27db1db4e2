// The sidebar's sections (design brief, "App shell"). Pages not built yet show "Coming next".
import {
  BarChart3,
  BookUser,
  CreditCard,
  Filter,
  Globe,
  Inbox,
  KeyRound,
  LayoutTemplate,
  Mail,
  Megaphone,
  MessageSquare,
  ScrollText,
  ShieldCheck,
  Users,
  Webhook,
  Workflow,
  type LucideIcon,
} from 'lucide-react';
import type { PageName } from '../routes.ts';

export interface NavItem {
  label: string;
  to: string;
  icon: LucideIcon;
  page?: PageName;
  adminOnly?: boolean;
}

export const overviewItem: NavItem = { label: 'Overview', to: '/', icon: BarChart3 };

export const navSections: { title: string; items: NavItem[] }[] = [
  {
    title: 'Sending',
    items: [
      { label: 'Emails', to: '/emails', icon: Mail, page: 'emails' },
      { label: 'Domains', to: '/domains', icon: Globe, page: 'domains' },
      { label: 'Templates', to: '/templates', icon: LayoutTemplate, page: 'comingNext' },
    ],
  },
  {
    title: 'Audience',
    items: [
      { label: 'Contacts', to: '/contacts', icon: BookUser, page: 'comingNext' },
      { label: 'Segments', to: '/segments', icon: Filter, page: 'comingNext' },
      { label: 'Campaigns', to: '/campaigns', icon: Megaphone, page: 'comingNext' },
      { label: 'Journeys', to: '/journeys', icon: Workflow, page: 'comingNext' },
    ],
  },
  {
    title: 'Messaging',
    items: [
      { label: 'SMS', to: '/sms', icon: MessageSquare, page: 'comingNext' },
      { label: 'Codes', to: '/codes', icon: ShieldCheck, page: 'comingNext' },
      { label: 'Inboxes', to: '/inboxes', icon: Inbox, page: 'comingNext' },
    ],
  },
  {
    title: 'Developers',
    items: [
      { label: 'Webhooks', to: '/webhooks', icon: Webhook, page: 'webhooks' },
      { label: 'API keys', to: '/team?tab=keys', icon: KeyRound, page: 'team' },
      { label: 'Audit log', to: '/team?tab=audit', icon: ScrollText, page: 'team' },
    ],
  },
  {
    title: 'Team & billing',
    items: [
      { label: 'Team', to: '/team', icon: Users, page: 'team' },
      { label: 'Billing', to: '/billing', icon: CreditCard, page: 'comingNext', adminOnly: true },
    ],
  },
];

/** The pages that are routes today but not built yet: each shows "Coming next" under its own name. */
export const comingNextPages: { path: string; title: string }[] = [
  { path: 'templates', title: 'Templates' },
  { path: 'contacts', title: 'Contacts' },
  { path: 'segments', title: 'Segments' },
  { path: 'campaigns', title: 'Campaigns' },
  { path: 'journeys', title: 'Journeys' },
  { path: 'sms', title: 'SMS' },
  { path: 'codes', title: 'Codes' },
  { path: 'inboxes', title: 'Inboxes' },
  { path: 'billing', title: 'Billing' },
];

export const isAdmin = (role: string) => ['OWNER', 'ADMIN'].includes(role.toUpperCase());
