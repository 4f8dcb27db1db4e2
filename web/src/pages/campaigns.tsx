// Placeholder until this page is built: its route and chunk exist, its screen does not yet.
import { ComingNextBody } from './coming-next.tsx';

export default function Page() {
  return <ComingNextBody title="Campaigns" />;
}
