// The routes (React Router, declarative): sign-in outside the shell, every page inside it, lazy
// chunks for all but Overview. Each route is a shareable URL.
import { Route, Routes } from 'react-router';
import { Shell } from './shell/layout.tsx';
import { pages } from './routes.ts';
import { NotFound } from './pages/not-found.tsx';
import { Overview } from './pages/overview.tsx';
import { SignIn } from './pages/sign-in.tsx';
import { SignInWithToken } from './pages/sign-in-token.tsx';

export function App() {
  return (
    <Routes>
      <Route path="/sign-in" element={<SignIn />} />
      <Route path="/sign-in/:token" element={<SignInWithToken />} />
      <Route element={<Shell />}>
        <Route index element={<Overview />} />
        <Route path="emails" element={<pages.emails />} />
        <Route path="emails/:id" element={<pages.emailDetail />} />
        <Route path="domains" element={<pages.domains />} />
        <Route path="domains/:id" element={<pages.domainDetail />} />
        <Route path="webhooks" element={<pages.webhooks />} />
        <Route path="webhooks/:id" element={<pages.webhookDetail />} />
        <Route path="team" element={<pages.team />} />
        <Route path="templates" element={<pages.templates />} />
        <Route path="templates/:id" element={<pages.templateDetail />} />
        <Route path="contacts" element={<pages.contacts />} />
        <Route path="contacts/:bookId" element={<pages.contactBook />} />
        <Route path="segments" element={<pages.segments />} />
        <Route path="segments/:id" element={<pages.segmentDetail />} />
        <Route path="campaigns" element={<pages.campaigns />} />
        <Route path="campaigns/:id" element={<pages.campaignDetail />} />
        <Route path="journeys" element={<pages.journeys />} />
        <Route path="journeys/:id" element={<pages.journeyDetail />} />
        <Route path="sms" element={<pages.sms />} />
        <Route path="codes" element={<pages.codes />} />
        <Route path="inboxes" element={<pages.inboxes />} />
        <Route path="inboxes/:id" element={<pages.inboxDetail />} />
        <Route path="billing" element={<pages.billing />} />
        <Route path="*" element={<NotFound />} />
      </Route>
    </Routes>
  );
}
