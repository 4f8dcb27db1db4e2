// The routes (React Router, declarative): sign-in outside the shell, every page inside it, lazy
// chunks for all but Overview. Each route is a shareable URL.
import { Route, Routes } from 'react-router';
import { Shell } from './shell/layout.tsx';
import { comingNextPages } from './shell/nav.ts';
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
        {comingNextPages.map(({ path }) => (
          <Route key={path} path={path} element={<pages.comingNext />} />
        ))}
        <Route path="*" element={<NotFound />} />
      </Route>
    </Routes>
  );
}
