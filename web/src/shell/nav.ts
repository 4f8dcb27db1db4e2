// The sidebar's sections (design brief, "App shell").
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
      { label: 'Templates', to: '/templates', icon: LayoutTemplate, page: 'templates' },
    ],
  },
  {
    title: 'Audience',
    items: [
      { label: 'Contacts', to: '/contacts', icon: BookUser, page: 'contacts' },
      { label: 'Segments', to: '/segments', icon: Filter, page: 'segments' },
      { label: 'Campaigns', to: '/campaigns', icon: Megaphone, page: 'campaigns' },
      { label: 'Journeys', to: '/journeys', icon: Workflow, page: 'journeys' },
    ],
  },
  {
    title: 'Messaging',
    items: [
      { label: 'SMS', to: '/sms', icon: MessageSquare, page: 'sms' },
      { label: 'Codes', to: '/codes', icon: ShieldCheck, page: 'codes' },
      { label: 'Inboxes', to: '/inboxes', icon: Inbox, page: 'inboxes' },
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
      { label: 'Billing', to: '/billing', icon: CreditCard, page: 'billing', adminOnly: true },
    ],
  },
];

export const isAdmin = (role: string) => ['OWNER', 'ADMIN'].includes(role.toUpperCase());
