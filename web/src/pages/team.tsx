// Team: tabs in the URL (?tab=keys|suppressions|audit; Members without one). Only team admins may use
// these endpoints: a member sees the API's 403 message in each tab.
import { PageHeader } from '../ui/page-header.tsx';
import { UrlTabs } from '../ui/tabs.tsx';
import { TeamAudit } from './team-audit.tsx';
import { TeamKeys } from './team-keys.tsx';
import { TeamMembers } from './team-members.tsx';
import { TeamSuppressions } from './team-suppressions.tsx';

export default function Team() {
  return (
    <>
      <title>Team · Herald</title>
      <PageHeader title="Team" />
      <UrlTabs
        label="Team"
        tabs={[
          { value: 'members', label: 'Members', content: <TeamMembers /> },
          { value: 'keys', label: 'API keys', content: <TeamKeys /> },
          { value: 'suppressions', label: 'Suppressions', content: <TeamSuppressions /> },
          { value: 'audit', label: 'Audit log', content: <TeamAudit /> },
        ]}
      />
    </>
  );
}
